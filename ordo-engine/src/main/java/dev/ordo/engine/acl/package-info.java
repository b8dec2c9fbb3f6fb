/**
 * Users and their permissions, Redis 7.2's ACL: {@link dev.ordo.engine.acl.Acl} (the users, the
 * check made before every command, the ACL file), {@link dev.ordo.engine.acl.AclUser} (one
 * user's passwords, flags and selectors) and {@link dev.ordo.engine.acl.AclLog}. The commands
 * (ACL, AUTH, HELLO) live with the other commands in {@code dev.ordo.engine.command}.
 */
package dev.ordo.engine.acl;
