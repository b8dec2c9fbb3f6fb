package dev.ordo.engine.command;

import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.value.ValueDigest;
import dev.ordo.engine.keyspace.Keyspace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * DEBUG DIGEST and DIGEST-VALUE: 20-byte SHA-1 signatures of the dataset and of single values,
 * built with the two operations of Redis's debug.c: <em>xor</em> (XOR the SHA-1 of some bytes
 * into the digest; order does not matter) and <em>mix</em> (xor, then replace the digest by its
 * own SHA-1; order matters).
 *
 * <p>What must stay true, because Redis's tests compare digests before and after a reload:
 * <ul>
 *   <li>Equal content gives an equal digest whatever the encoding: members of a set, fields of a
 *       hash and members of a sorted set (each with its score) are digested one by one and
 *       xored in, so listpack, intset, table or tree order cannot show.</li>
 *   <li>A value's digest mixes its type code (Redis's object type, {@link dev.ordo.engine.value.KeyType#objectCode}), then its
 *       content; a key with an expiry also xors in a marker and the absolute expiry time.</li>
 *   <li>The dataset's digest xors every key's digest (the key's name mixed, then its value's);
 *       each non-empty database first mixes its index, so a key moved to another database
 *       changes it. An empty dataset is twenty zero bytes.</li>
 *   <li>Keys past their expiry but not yet deleted count: a debug command expires nothing.</li>
 * </ul>
 *
 * <p>Byte-identical with redis-server 7.0 (checked side by side) except in two cases, by design:
 * Redis digests only that a key has an expiry, Ordo its time too (so changing a TTL changes the
 * digest); scores are written as Redis 7.2 writes them (shortest round-trip), where Redis 7.0 used
 * {@code %.17g}: the two agree for integral scores and short fractions such as 1.5, not for 0.1.
 *
 * <p>Called under the engine lock; each instance computes one reply.
 */
final class DatasetDigest {
    /** The length of a digest in bytes (40 hex digits). */
    static final int LENGTH = 20;

    private static final byte[] EXPIRE_MARK = "!!expire!!".getBytes(StandardCharsets.US_ASCII);

    private final MessageDigest sha1;

    private DatasetDigest() {
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-1", e);
        }
    }

    /** Returns the digest of every key in every database, expired or not, as 40 hex digits. */
    static String ofDataset(Keyspace keyspace) {
        DatasetDigest d = new DatasetDigest();
        byte[] total = new byte[LENGTH];
        for (int i = 0; i < keyspace.databases(); i++) {
            Database db = keyspace.db(i);
            if (db.size() == 0) {
                continue;
            }
            d.mix(total, intBytes(i));
            db.forEachStored((key, entry) -> {
                byte[] keyDigest = new byte[LENGTH];
                d.mix(keyDigest, key.bytes());
                d.xorValue(keyDigest, entry);
                d.xor(total, keyDigest);
            });
        }
        return HexFormat.of().formatHex(total);
    }

    /** Returns the digest of the value stored at {@code key} (expired or not), all zeros when there is none. */
    static String ofValue(Database db, Key key) {
        byte[] digest = new byte[LENGTH];
        Database.Entry entry = db.stored(key);
        if (entry != null) {
            new DatasetDigest().xorValue(digest, entry);
        }
        return HexFormat.of().formatHex(digest);
    }

    /** Redis's xorObjectDigest: the type, the content, and (Ordo) the expiry time. */
    private void xorValue(byte[] digest, Database.Entry entry) {
        Value value = entry.value();
        mix(digest, intBytes(value.type().objectCode()));
        value.digest(new ValueDigest() {
            @Override
            public void mix(byte[] buf, int off, int len) {
                DatasetDigest.this.mix(digest, buf, off, len);
            }

            @Override
            public void element(byte[] part) {
                xor(digest, part);
            }

            @Override
            public void element(byte[] first, int off, int len, byte[] second) {
                byte[] element = new byte[LENGTH];
                DatasetDigest.this.mix(element, first, off, len);
                DatasetDigest.this.mix(element, second, 0, second.length);
                xor(digest, element);
            }
        });
        if (entry.expireAt() != Database.NO_EXPIRY) {
            xor(digest, EXPIRE_MARK);
            xor(digest, Long.toString(entry.expireAt()).getBytes(StandardCharsets.US_ASCII));
        }
    }

    private void xor(byte[] digest, byte[] bytes) {
        xorInto(digest, sha1.digest(bytes));
    }

    private void mix(byte[] digest, byte[] bytes) {
        mix(digest, bytes, 0, bytes.length);
    }

    /** Redis's mixDigest: xor the SHA-1 of the bytes in, then replace the digest by its own SHA-1. */
    private void mix(byte[] digest, byte[] buf, int off, int len) {
        sha1.update(buf, off, len);
        xorInto(digest, sha1.digest());
        System.arraycopy(sha1.digest(digest), 0, digest, 0, LENGTH);
    }

    private static void xorInto(byte[] digest, byte[] hash) {
        for (int i = 0; i < LENGTH; i++) {
            digest[i] ^= hash[i];
        }
    }

    /** The 32-bit big-endian form Redis digests type codes and database indexes in ({@code htonl}). */
    private static byte[] intBytes(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }
}
