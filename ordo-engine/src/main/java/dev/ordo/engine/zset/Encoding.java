package dev.ordo.engine.zset;

/** A sorted set's internal encoding, named as Redis's {@code OBJECT ENCODING} reports it. */
public enum Encoding {
    /** Small sets: entries packed back to back in one byte array, in order. */
    LISTPACK("listpack"),
    /**
     * Large sets. Redis's name is kept for compatibility; Ordo's structure is a counted B+-tree
     * with a hash index (see {@code RankTree}), not a skip list.
     */
    SKIPLIST("skiplist");

    private final String redisName;

    Encoding(String redisName) {
        this.redisName = redisName;
    }

    /** The name {@code OBJECT ENCODING} replies with. */
    public String redisName() {
        return redisName;
    }
}
