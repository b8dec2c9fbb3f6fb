package dev.ordo.engine.keyspace;

/**
 * The classes of keyspace events, as bits of a mask, and the two destinations (K, E), with the
 * letters {@code notify-keyspace-events} spells them in. A mask holds a class's bit exactly when
 * its events are sent; with neither {@link #KEYSPACE} nor {@link #KEYEVENT}, none reaches Pub/Sub.
 * The bits are Redis's ({@code NOTIFY_*} in server.h).
 */
public final class EventClass {
    /** K: publish on {@code __keyspace@<db>__:<key>} with the event as the message. */
    public static final int KEYSPACE = 1;
    /** E: publish on {@code __keyevent@<db>__:<event>} with the key as the message. */
    public static final int KEYEVENT = 1 << 1;
    /** g: commands on any type (DEL, EXPIRE, RENAME ...). */
    public static final int GENERIC = 1 << 2;
    /** $: string commands. */
    public static final int STRING = 1 << 3;
    /** l: list commands. */
    public static final int LIST = 1 << 4;
    /** s: set commands. */
    public static final int SET = 1 << 5;
    /** h: hash commands. */
    public static final int HASH = 1 << 6;
    /** z: sorted-set commands. */
    public static final int ZSET = 1 << 7;
    /** x: a key deleted because its time had passed. */
    public static final int EXPIRED = 1 << 8;
    /** e: a key deleted to free memory. */
    public static final int EVICTED = 1 << 9;
    /** t: stream commands. */
    public static final int STREAM = 1 << 10;
    /** m: a read found no key (not in A). */
    public static final int KEY_MISS = 1 << 11;
    /** d: module key type events. */
    public static final int MODULE = 1 << 12;
    /** n: a key was added to a database (not in A). */
    public static final int NEW = 1 << 13;
    /** A: every class but key misses and new keys. */
    public static final int ALL = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED | STREAM | MODULE;

    /** The letters, each at the index of its bit. */
    private static final String LETTERS = "KEg$lshzxetmdn";

    private EventClass() {
    }

    /**
     * The mask a valid {@code notify-keyspace-events} value stands for; unknown letters are ignored.
     *
     * @param value the configured letters, e.g. {@code KEA}
     * @return the {@link EventClass} bits
     */
    public static int mask(String value) {
        int mask = 0;
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            int bit = LETTERS.indexOf(ch);
            if (ch == 'A') {
                mask |= ALL;
            } else if (bit >= 0) {
                mask |= 1 << bit;
            }
        }
        return mask;
    }
}
