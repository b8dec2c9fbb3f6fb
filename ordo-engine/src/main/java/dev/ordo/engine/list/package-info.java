/**
 * The list value type: {@link dev.ordo.engine.list.ListValue}, Redis 7.2's {@code listpack} and
 * {@code quicklist} encodings in Redis's own node bytes. Imports the value contract and the byte
 * formats only, never the keyspace, the commands or persistence.
 */
package dev.ordo.engine.list;
