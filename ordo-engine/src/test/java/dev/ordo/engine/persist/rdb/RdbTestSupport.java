package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.value.Value;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.number.Doubles;
import dev.ordo.engine.zset.ListpackLimits;
import dev.ordo.engine.zset.ZSet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Shared pieces of the RDB tests: a data set model, a collecting sink, canonical views of values. */
final class RdbTestSupport {
    private RdbTestSupport() {
    }

    /**
     * Members, fields and values at the edges of the listpack entry encodings: every integer width
     * and both ends of it, integers just beyond int64, spellings string2ll refuses ("01", "+1",
     * " 1", "-0"), the empty string, binary bytes, strings of 63 and 64 bytes.
     */
    static final String[] EDGE_STRINGS = {"0", "-1", "127", "128", "-128", "-4096", "4095", "-4097", "4096", "32767",
        "-32768", "32768", "-32769", "8388607", "-8388608", "8388608", "-8388609", "2147483647", "-2147483648",
        "2147483648", "-2147483649", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "01", "+1", " 1", "1 ", "-0", "-", "1e3", "", "a\0b", "\0", "\u00ff\u0080\n",
        "x".repeat(63), "y".repeat(64)};

    /**
     * Scores at the edges of the listpack score rules: integers (the largest with magnitude 2^53),
     * integral doubles beyond 2^53 and beyond int64, -0.0, infinities, 17-digit doubles, subnormals.
     */
    static final double[] EDGE_SCORES = {0, -0.0, 1e300, 0x1p53, 0x1p53 + 2, -0x1p53, -0x1p53 - 2, 0x1p62, 0x1p63, 1e20,
        0.1, 0.1 + 0.2, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MAX_VALUE, 1e-300,
        -1.5, 127, 128, -4096, 4096, 2147483648.0, 123456789.125};

    /** A listpack sorted set of the edge strings, each scored by the edge score in its position (cyclically). */
    static ZSet edgeZSet(ListpackLimits limits) {
        ZSet z = new ZSet(limits);
        for (int i = 0; i < EDGE_STRINGS.length; i++) {
            z.add(bytes(EDGE_STRINGS[i]), EDGE_SCORES[i % EDGE_SCORES.length]);
        }
        return z;
    }

    /** A listpack hash whose fields are the edge strings and values the same strings rotated. */
    static HashValue edgeHash(ListpackLimits limits) {
        HashValue h = new HashValue();
        for (int i = 0; i < EDGE_STRINGS.length; i++) {
            h.put(Key.of(bytes(EDGE_STRINGS[i])), bytes(EDGE_STRINGS[(i + 5) % EDGE_STRINGS.length]), limits);
        }
        return h;
    }

    /** Intsets needing 2, 2, 4, 4, 8 and 8 bytes per element, each at the edge of its width. */
    static List<SetValue> edgeIntsets() {
        long[][] sets = {{-1, 0, 1}, {Short.MIN_VALUE, Short.MAX_VALUE}, {Short.MAX_VALUE + 1}, {Short.MIN_VALUE - 1, 5},
            {Integer.MIN_VALUE, Integer.MAX_VALUE + 1L}, {Long.MIN_VALUE, -7, Long.MAX_VALUE}};
        List<SetValue> out = new ArrayList<>();
        for (long[] values : sets) {
            SetValue s = SetValue.empty(SetValue.Encoding.INTSET);
            for (long v : values) {
                s.add(bytes(Long.toString(v)), SetValue.Limits.DEFAULT);
            }
            out.add(s);
        }
        return out;
    }

    /**
     * The listpack entry the rules give a member, field or value (for {@link RawRdb#listpack}): the
     * integer when string2ll accepts the spelling, else the bytes.
     */
    static Object listpackEntry(byte[] s) {
        return StringValue.isCanonicalLong(s) ? Long.parseLong(latin1(s)) : s;
    }

    /** The listpack entry the rules give a score: an integer up to 2^53 in magnitude (not -0.0), else its text. */
    static Object listpackScore(double d) {
        boolean negativeZero = Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits(-0.0);
        return d == Math.rint(d) && Math.abs(d) <= 0x1p53 && !negativeZero ? (Object) (long) d : Doubles.format(d);
    }

    /** The exact bit patterns of a sorted set's scores, in order, to compare beyond what equals() sees. */
    static List<Long> scoreBits(ZSet z) {
        List<Long> out = new ArrayList<>();
        z.forEachEntry((buf, off, len, score) -> out.add(Double.doubleToRawLongBits(score)));
        return out;
    }

    /** A value and its expiry (-1 for none). */
    record Stored(Value value, long expireAt) {
    }

    /** Everything in a file: AUX fields, function libraries, and per database its keys in file order. */
    static final class DataSet implements RdbSink {
        final Map<String, byte[]> aux = new LinkedHashMap<>();
        final List<byte[]> functions = new ArrayList<>();
        final Map<Integer, Map<Key, Stored>> dbs = new TreeMap<>();
        /** Whether a key delivered twice fails the test (a damaged file may repeat keys: the sink decides). */
        boolean strict = true;

        @Override
        public void aux(String key, byte[] value) {
            aux.put(key, value);
        }

        @Override
        public void function(byte[] libraryCode) {
            functions.add(libraryCode);
        }

        @Override
        public void entry(int db, Key key, Value value, long expireAtMillis) {
            Stored previous = dbs.computeIfAbsent(db, d -> new LinkedHashMap<>()).put(key, new Stored(value, expireAtMillis));
            if (previous != null && strict) {
                throw new AssertionError("key " + key + " delivered twice in db " + db);
            }
        }

        void put(int db, Key key, Value value, long expireAt) {
            dbs.computeIfAbsent(db, d -> new LinkedHashMap<>()).put(key, new Stored(value, expireAt));
        }

        /** Writes the whole data set, one SELECTDB per database. */
        byte[] write(boolean compress, boolean checksum) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            RdbWriter w = new RdbWriter(out, compress, checksum);
            Map<String, String> header = new LinkedHashMap<>();
            aux.forEach((k, v) -> header.put(k, new String(v, StandardCharsets.UTF_8)));
            w.header(header);
            functions.forEach(w::function);
            dbs.forEach((db, keys) -> {
                w.selectDb(db, keys.size(), keys.values().stream().filter(s -> s.expireAt() != -1).count());
                keys.forEach((k, s) -> w.entry(k, s.value(), s.expireAt()));
            });
            w.finish();
            if (w.bytesWritten() != out.size()) {
                throw new AssertionError("bytesWritten " + w.bytesWritten() + " but " + out.size() + " bytes arrived");
            }
            return out.toByteArray();
        }
    }

    static DataSet read(byte[] file) throws IOException {
        DataSet d = new DataSet();
        RdbReader.read(new ByteArrayInputStream(file), d, new Config());
        return d;
    }

    static DataSet read(Path file) throws IOException {
        DataSet d = new DataSet();
        RdbReader.read(file, d, new Config());
        return d;
    }

    /** Reads from a stream (file == null) or a file, accepting repeated keys. */
    static DataSet readLeniently(byte[] bytes, Path file) throws IOException {
        DataSet d = new DataSet();
        d.strict = false;
        if (file == null) {
            RdbReader.read(new ByteArrayInputStream(bytes), d, new Config());
        } else {
            RdbReader.read(file, d, new Config());
        }
        return d;
    }

    static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    static byte[] bytes(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The OBJECT ENCODING name of a value. */
    static String encoding(Object v) {
        if (v instanceof StringValue s) {
            return s.encoding();
        }
        if (v instanceof HashValue h) {
            return h.encoding();
        }
        if (v instanceof SetValue s) {
            return s.encoding().redisName();
        }
        return ((ZSet) v).encoding().redisName();
    }

    /** The TYPE name of a value. */
    static String type(Object v) {
        return v instanceof StringValue ? "string" : v instanceof HashValue ? "hash" : v instanceof SetValue ? "set" : "zset";
    }

    /**
     * A canonical, order-insensitive view of a value's content (strings as Latin-1, so binary data
     * compares exactly): a string, a sorted map, a sorted set, or the sorted set's entries in order.
     */
    static Object content(Object v) {
        if (v instanceof StringValue s) {
            return latin1(s.bytes());
        }
        if (v instanceof HashValue h) {
            Map<String, String> m = new TreeMap<>();
            h.forEach((f, val) -> m.put(latin1(f.bytes()), latin1(val)));
            return m;
        }
        if (v instanceof SetValue s) {
            TreeSet<String> m = new TreeSet<>();
            s.forEach(b -> m.add(latin1(b)));
            return m;
        }
        List<String> entries = new ArrayList<>();
        ((ZSet) v).forEachEntry((buf, off, len, score) -> entries.add(new String(buf, off, len, StandardCharsets.ISO_8859_1)
                + " " + score));
        return entries;
    }

    /** The iteration order of a listpack- or intset-encoded hash or set (which loading must keep), else null. */
    static List<String> order(Object v) {
        List<String> out = new ArrayList<>();
        if (v instanceof HashValue h && !h.isHashtable()) {
            h.forEach((f, val) -> out.add(latin1(f.bytes())));
            return out;
        }
        if (v instanceof SetValue s && s.encoding() != SetValue.Encoding.HASHTABLE) {
            s.forEach(b -> out.add(latin1(b)));
            return out;
        }
        return null;
    }

    /**
     * The encoding Redis 7.2 (and Ordo) gives a value after loading it, by the documented rules
     * under the default configuration's limits, independent of the reader's code.
     */
    static String expectedEncoding(Object v) {
        Config config = new Config();
        long hashEntries = config.getLong("hash-max-listpack-entries");
        long hashValue = config.getLong("hash-max-listpack-value");
        long zsetEntries = config.getLong("zset-max-listpack-entries");
        long zsetValue = config.getLong("zset-max-listpack-value");
        long intsetEntries = config.getLong("set-max-intset-entries");
        long setEntries = config.getLong("set-max-listpack-entries");
        long setValue = config.getLong("set-max-listpack-value");
        if (v instanceof StringValue s) {
            byte[] b = s.bytes();
            return StringValue.isCanonicalLong(b) ? "int" : b.length <= 44 ? "embstr" : "raw";
        }
        Object c = content(v);
        if (v instanceof HashValue) {
            Map<?, ?> m = (Map<?, ?>) c;
            boolean small = m.size() <= hashEntries && m.entrySet().stream()
                    .allMatch(e -> e.getKey().toString().length() <= hashValue && e.getValue().toString().length() <= hashValue);
            return small ? "listpack" : "hashtable";
        }
        if (v instanceof SetValue) {
            TreeSet<?> m = (TreeSet<?>) c;
            boolean ints = m.stream().allMatch(x -> StringValue.isCanonicalLong(bytes(x.toString())));
            if (ints && m.size() <= intsetEntries) {
                return "intset";
            }
            return m.size() <= setEntries && m.stream().allMatch(x -> x.toString().length() <= setValue) ? "listpack" : "hashtable";
        }
        ZSet z = (ZSet) v;
        int[] longest = {0};
        z.forEachEntry((buf, off, len, score) -> longest[0] = Math.max(longest[0], len));
        return z.size() <= zsetEntries && longest[0] <= zsetValue ? "listpack" : "skiplist";
    }
}
