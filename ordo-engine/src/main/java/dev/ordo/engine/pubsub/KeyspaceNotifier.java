package dev.ordo.engine.pubsub;

import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.KeyspaceListener;

import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/**
 * Publishes the keyspace's events as Redis's keyspace notifications: with K in the mask, the
 * event on {@code __keyspace@<db>__:<key>}; with E, the key on {@code __keyevent@<db>__:<event>},
 * in that order. The keyspace calls it only for events whose class the mask enables, under the
 * engine lock, so the messages reach subscribers in the order the changes were made.
 */
@SuppressWarnings("exports") // made by the engine itself: the listener type is not exported
public final class KeyspaceNotifier implements KeyspaceListener {
    private static final byte[] KEYSPACE_PREFIX = "__keyspace@".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEYEVENT_PREFIX = "__keyevent@".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SEPARATOR = "__:".getBytes(StandardCharsets.US_ASCII);

    private final PubSub hub;
    private final IntSupplier mask;

    /**
     * A notifier publishing to {@code hub}, reading the destinations (K, E) from {@code mask}.
     *
     * @param hub  where the notifications are published
     * @param mask the current notify-keyspace-events classes, as a bit mask
     */
    public KeyspaceNotifier(PubSub hub, IntSupplier mask) {
        this.hub = hub;
        this.mask = mask;
    }

    @Override
    public void keyCreated(int db, Key key) {
    }

    @Override
    public void keyspaceEvent(int db, String event, Key key) {
        int m = mask.getAsInt();
        byte[] name = event.getBytes(StandardCharsets.US_ASCII);
        if ((m & EventClass.KEYSPACE) != 0) {
            hub.publish(channel(KEYSPACE_PREFIX, db, key.bytes()), name);
        }
        if ((m & EventClass.KEYEVENT) != 0) {
            hub.publish(channel(KEYEVENT_PREFIX, db, name), key.bytes());
        }
    }

    private static byte[] channel(byte[] prefix, int db, byte[] suffix) {
        byte[] number = Integer.toString(db).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[prefix.length + number.length + SEPARATOR.length + suffix.length];
        int at = 0;
        System.arraycopy(prefix, 0, out, at, prefix.length);
        at += prefix.length;
        System.arraycopy(number, 0, out, at, number.length);
        at += number.length;
        System.arraycopy(SEPARATOR, 0, out, at, SEPARATOR.length);
        at += SEPARATOR.length;
        System.arraycopy(suffix, 0, out, at, suffix.length);
        return out;
    }
}
