package dev.ordo.engine.zset;

/** What an add did to one member. */
public enum AddResult {
    /** The member was new and was added. */
    ADDED,
    /** The member existed and its score changed. */
    UPDATED,
    /** The member existed with that very score; nothing changed. */
    UNCHANGED,
    /** A condition (NX, XX, GT, LT) prevented the change. */
    SKIPPED;

    /** Whether the member counts for ZADD's reply: added always, updated only with CH. */
    public boolean counts(boolean ch) {
        return this == ADDED || (ch && this == UPDATED);
    }
}
