package dev.ordo.engine.acl;

/** A rule ACL SETUSER refuses; the message is Redis's reason ("Syntax error" ...), without the rule. */
final class AclRuleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AclRuleException(String reason) {
        super(reason, null, false, false);
    }
}
