package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.persist.rdb.RdbTestSupport.DataSet;
import dev.ordo.engine.persist.rdb.RdbTestSupport.Stored;
import dev.ordo.engine.zset.ListpackLimits;
import dev.ordo.engine.zset.ZSet;
import dev.ordo.engine.zset.ZSetBuilder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.ordo.engine.persist.rdb.RdbTestSupport.content;
import static dev.ordo.engine.persist.rdb.RdbTestSupport.encoding;
import static dev.ordo.engine.persist.rdb.RdbTestSupport.expectedEncoding;
import static dev.ordo.engine.persist.rdb.RdbTestSupport.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random data sets written by {@link RdbWriter} and read back by {@link RdbReader}: every key in
 * its database with the same type, content, expiry, the encoding loading must give it, and (for
 * listpack and intset encodings) the same iteration order; AUX fields and functions too.
 */
class RdbRoundTripTest {
    private static final Config CONFIG = new Config();

    @Property(tries = 40)
    void randomDataSetsSurviveARoundTrip(@ForAll long seed) throws IOException {
        Random r = new Random(seed);
        DataSet source = randomDataSet(r);
        boolean compress = r.nextBoolean();
        boolean checksum = r.nextBoolean();
        byte[] file = source.write(compress, checksum);
        assertSameData(RdbTestSupport.read(file), source);
        if (!checksum) {
            assertThat(Arrays.copyOfRange(file, file.length - 8, file.length)).containsOnly(0);
        }
    }

    @Test
    void everyEncodingOfEveryTypeSurvivesFromAFile(@TempDir Path dir) throws IOException {
        DataSet source = everyEncoding();
        for (boolean compress : new boolean[] {true, false}) {
            Path f = dir.resolve("dump-" + compress + ".rdb");
            Files.write(f, source.write(compress, true));
            DataSet back = RdbTestSupport.read(f);
            assertSameData(back, source);
            Map<Key, Stored> db0 = back.dbs.get(0);
            assertThat(db0.keySet().stream().map(k -> k + "=" + encoding(db0.get(k).value())))
                    .contains("int=int", "embstr=embstr", "raw=raw", "compressible=raw", "zl=listpack", "zs=skiplist",
                            "hl=listpack", "hh=hashtable", "si=intset", "sl=listpack", "sh=hashtable");
        }
    }

    @Test
    void stringsAreWrittenInTheSmallestForm() {
        assertThat(stringBytes("0", true)).containsExactly(0xC0, 0);
        assertThat(stringBytes("-128", true)).containsExactly(0xC0, 0x80);
        assertThat(stringBytes("128", true)).containsExactly(0xC1, 0x80, 0);
        assertThat(stringBytes("-2147483648", true)).containsExactly(0xC2, 0, 0, 0, 0x80);
        assertThat(stringBytes("2147483648", true)).startsWith(10); // beyond int32: plain
        assertThat(stringBytes("007", true)).containsExactly(3, '0', '0', '7');
        assertThat(stringBytes("-0", true)).containsExactly(2, '-', '0');
        assertThat(stringBytes("a".repeat(21), true)[0]).isEqualTo(0xC3);
        assertThat(stringBytes("a".repeat(21), false)[0]).isEqualTo(21);
        assertThat(stringBytes("a".repeat(20), true)[0]).isEqualTo(20);
        assertThat(stringBytes("a".repeat(100), true)).hasSizeLessThan(20);
        assertThat(stringBytes("x".repeat(16384), false)).startsWith(0x80, 0, 0, 0x40, 0);
        assertThat(stringBytes("x".repeat(64), false)).startsWith(0x40, 64);
    }

    @Test
    void writerStreamsAndRefusesMisuse() {
        int[] largestWrite = {0};
        OutputStream counting = new OutputStream() {
            @Override
            public void write(int b) {
                largestWrite[0] = Math.max(largestWrite[0], 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                largestWrite[0] = Math.max(largestWrite[0], len);
            }
        };
        RdbWriter w = new RdbWriter(counting, true, true);
        assertThatThrownBy(() -> w.selectDb(0, 0, 0)).isInstanceOf(IllegalStateException.class);
        w.header(Map.of());
        w.selectDb(0, 1, 0);
        ZSetBuilder b = new ZSetBuilder(CONFIG.zsetListpackLimits(), 100_000);
        for (int i = 0; i < 100_000; i++) {
            b.add(("m" + i).getBytes(StandardCharsets.US_ASCII), i);
        }
        w.entry(Key.of("z"), b.build(), -1);
        assertThat(w.bytesWritten()).isGreaterThan(1_000_000);
        w.finish();
        assertThat(largestWrite[0]).isLessThanOrEqualTo(1 << 16);
        assertThatThrownBy(() -> w.entry(Key.of("k"), new StringValue(new byte[1]), -1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> w.finish()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void valuesThatShrankLoadInTheSmallerEncodingAsInRedis() throws IOException {
        ListpackLimits zl = CONFIG.zsetListpackLimits();
        ZSet z = new ZSet(zl);
        for (int i = 0; i < 200; i++) {
            z.add(("m" + i).getBytes(StandardCharsets.US_ASCII), i);
        }
        for (int i = 0; i < 150; i++) {
            z.remove(("m" + i).getBytes(StandardCharsets.US_ASCII));
        }
        HashValue h = new HashValue();
        h.put(Key.of("f"), "v".repeat(100).getBytes(StandardCharsets.US_ASCII), CONFIG.hashListpackLimits());
        h.put(Key.of("g"), "1".getBytes(StandardCharsets.US_ASCII), CONFIG.hashListpackLimits());
        h.remove(Key.of("f"));
        StringValue appended = new StringValue("12".getBytes(StandardCharsets.US_ASCII));
        appended.append("3".getBytes(StandardCharsets.US_ASCII));
        DataSet d = new DataSet();
        d.put(0, Key.of("z"), z, -1);
        d.put(0, Key.of("h"), h, -1);
        d.put(0, Key.of("s"), appended, -1);
        assertThat(encoding(z)).isEqualTo("skiplist");
        assertThat(encoding(h)).isEqualTo("hashtable");
        assertThat(appended.encoding()).isEqualTo("raw");
        Map<Key, Stored> back = RdbTestSupport.read(d.write(true, true)).dbs.get(0);
        assertThat(encoding(back.get(Key.of("z")).value())).isEqualTo("listpack");
        assertThat(encoding(back.get(Key.of("h")).value())).isEqualTo("listpack");
        assertThat(encoding(back.get(Key.of("s")).value())).isEqualTo("int");
        assertThat(content(back.get(Key.of("z")).value())).isEqualTo(content(z));
    }

    @Test
    void loadedSortedSetsFollowTheConfiguredLimitsAndStayLive() throws IOException {
        DataSet d = new DataSet();
        ZSet z = new ZSet(ListpackLimits.of(0, 0));
        for (int i = 0; i < 10; i++) {
            z.add(("m" + i).getBytes(StandardCharsets.US_ASCII), i);
        }
        d.put(0, Key.of("z"), z, -1);
        Config small = new Config();
        small.set("zset-max-listpack-entries", "5", false);
        DataSet back = new DataSet();
        RdbReader.read(new ByteArrayInputStream(d.write(false, true)), back, small);
        ZSet loaded = (ZSet) back.dbs.get(0).get(Key.of("z")).value();
        assertThat(loaded.encoding().redisName()).isEqualTo("skiplist");
        small.set("zset-max-listpack-entries", "100", false);
        back = new DataSet();
        RdbReader.read(new ByteArrayInputStream(d.write(false, true)), back, small);
        loaded = (ZSet) back.dbs.get(0).get(Key.of("z")).value();
        assertThat(loaded.encoding().redisName()).isEqualTo("listpack");
        small.set("zset-max-listpack-entries", "10", false);
        loaded.add("new".getBytes(StandardCharsets.US_ASCII), 1);
        assertThat(loaded.encoding().redisName()).as("the loaded set reads the live limits").isEqualTo("skiplist");
    }

    @Test
    void isRdbLooksAtTheMagic() {
        assertThat(RdbReader.isRdb("REDIS0010".getBytes(StandardCharsets.US_ASCII))).isTrue();
        assertThat(RdbReader.isRdb("REDIS".getBytes(StandardCharsets.US_ASCII))).isTrue();
        assertThat(RdbReader.isRdb("*2\r\n$6\r\nSELECT".getBytes(StandardCharsets.US_ASCII))).isFalse();
        assertThat(RdbReader.isRdb("RED".getBytes(StandardCharsets.US_ASCII))).isFalse();
    }

    /** Prints (never asserts) how long a 1,000,000-member sorted set takes to save and load. */
    @Test
    void millionMemberSortedSetSpeed(@TempDir Path dir) throws IOException {
        Random r = new Random(1);
        ZSetBuilder b = new ZSetBuilder(CONFIG.zsetListpackLimits(), 1_000_000);
        for (int i = 0; i < 1_000_000; i++) {
            b.add(("member:" + i).getBytes(StandardCharsets.US_ASCII), Math.floor(r.nextDouble() * 1e9) / 100);
        }
        ZSet z = b.build();
        Path f = dir.resolve("big.rdb");
        StringBuilder report = new StringBuilder("RDB, 1,000,000-member sorted set:");
        for (int round = 1; round <= 3; round++) {
            long t0 = System.nanoTime();
            try (OutputStream out = Files.newOutputStream(f)) {
                RdbWriter w = new RdbWriter(out, true, true);
                w.header(Map.of("redis-ver", "7.0.15"));
                w.selectDb(0, 1, 0);
                w.entry(Key.of("big"), z, -1);
                w.finish();
            }
            long t1 = System.nanoTime();
            DataSet back = RdbTestSupport.read(f);
            long t2 = System.nanoTime();
            assertThat(((ZSet) back.dbs.get(0).get(Key.of("big")).value()).size()).isEqualTo(1_000_000);
            report.append(String.format(" [round %d: %.1f MB, write %.3f s, read %.3f s]", round, Files.size(f) / 1e6,
                    (t1 - t0) / 1e9, (t2 - t1) / 1e9));
        }
        System.out.println(report);
    }

    private static int[] stringBytes(String s, boolean compress) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RdbWriter w = new RdbWriter(out, compress, false);
        w.header(Map.of());
        w.function(s.getBytes(StandardCharsets.US_ASCII));
        w.finish();
        byte[] all = out.toByteArray();
        byte[] string = Arrays.copyOfRange(all, 10, all.length - 9);
        int[] unsigned = new int[string.length];
        for (int i = 0; i < string.length; i++) {
            unsigned[i] = string[i] & 0xFF;
        }
        return unsigned;
    }

    static void assertSameData(DataSet actual, DataSet expected) {
        assertThat(actual.aux.keySet()).containsExactlyElementsOf(expected.aux.keySet());
        expected.aux.forEach((k, v) -> assertThat(actual.aux.get(k)).as("aux " + k).isEqualTo(v));
        assertThat(actual.functions).hasSameSizeAs(expected.functions);
        for (int i = 0; i < expected.functions.size(); i++) {
            assertThat(actual.functions.get(i)).isEqualTo(expected.functions.get(i));
        }
        assertThat(actual.dbs.keySet()).isEqualTo(expected.dbs.keySet());
        expected.dbs.forEach((db, keys) -> {
            Map<Key, Stored> got = actual.dbs.get(db);
            assertThat(got.keySet()).as("keys of db " + db).containsExactlyElementsOf(keys.keySet());
            keys.forEach((k, want) -> {
                Stored have = got.get(k);
                String what = "db " + db + " key " + k;
                assertThat(have.expireAt()).as(what + " expiry").isEqualTo(want.expireAt());
                assertThat(RdbTestSupport.type(have.value())).as(what + " type").isEqualTo(RdbTestSupport.type(want.value()));
                assertThat(content(have.value())).as(what + " content").isEqualTo(content(want.value()));
                assertThat(encoding(have.value())).as(what + " encoding").isEqualTo(expectedEncoding(want.value()));
                if (order(want.value()) != null && encoding(want.value()).equals(encoding(have.value()))) {
                    assertThat(order(have.value())).as(what + " order").isEqualTo(order(want.value()));
                }
            });
        });
    }

    // ---- data

    private static DataSet everyEncoding() {
        DataSet d = new DataSet();
        d.aux.put("redis-ver", "7.0.15".getBytes(StandardCharsets.UTF_8));
        d.aux.put("redis-bits", "64".getBytes(StandardCharsets.UTF_8));
        d.functions.add("#!lua name=lib\nredis.register_function('f', function() return 1 end)".getBytes(StandardCharsets.UTF_8));
        d.put(0, Key.of("int"), new StringValue("-123456789012".getBytes(StandardCharsets.US_ASCII)), -1);
        d.put(0, Key.of("embstr"), new StringValue("hello\0world".getBytes(StandardCharsets.ISO_8859_1)), 1_900_000_000_000L);
        d.put(0, Key.of("raw"), new StringValue(randomBytes(new Random(3), 300)), -1);
        d.put(0, Key.of("compressible"), new StringValue("abcdefgh".repeat(10_000).getBytes(StandardCharsets.US_ASCII)), -1);
        d.put(0, Key.of("zl"), zset(new Random(4), 100, 10), -1);
        d.put(0, Key.of("zs"), zset(new Random(5), 5000, 30), 1_800_000_000_000L);
        d.put(0, Key.of("hl"), hash(new Random(6), 50, 20), -1);
        d.put(0, Key.of("hh"), hash(new Random(7), 300, 20), -1);
        d.put(0, Key.of("si"), intSet(new Random(8), 400), -1);
        d.put(0, Key.of("sl"), set(new Random(9), 100, 30), -1);
        d.put(0, Key.of("sh"), set(new Random(10), 1000, 30), -1);
        d.put(7, Key.of("other db"), new StringValue("x".getBytes(StandardCharsets.US_ASCII)), -1);
        return d;
    }

    static DataSet randomDataSet(Random r) {
        DataSet d = new DataSet();
        d.aux.put("redis-ver", "7.0.15".getBytes(StandardCharsets.UTF_8));
        d.aux.put("ctime", String.valueOf(1_700_000_000 + r.nextInt(100_000_000)).getBytes(StandardCharsets.UTF_8));
        d.aux.put("aof-base", "0".getBytes(StandardCharsets.UTF_8));
        for (int i = r.nextInt(3); i > 0; i--) {
            d.functions.add(randomBytes(r, r.nextInt(200)));
        }
        int dbCount = 1 + r.nextInt(3);
        for (int i = 0; i < dbCount; i++) {
            int db = r.nextInt(16);
            int keys = r.nextInt(40);
            for (int k = 0; k < keys; k++) {
                long expire = r.nextInt(4) == 0 ? 1_700_000_000_000L + r.nextInt(1_000_000_000) : -1;
                d.put(db, Key.of(member(r)), randomValue(r), expire);
            }
        }
        return d;
    }

    private static Object randomValue(Random r) {
        boolean big = r.nextInt(5) == 0;
        switch (r.nextInt(7)) {
            case 0:
            case 1:
                return new StringValue(stringValue(r));
            case 2:
                return zset(r, big ? 129 + r.nextInt(400) : 1 + r.nextInt(128), r.nextInt(10) == 0 ? 80 : 12);
            case 3:
                return hash(r, big ? 129 + r.nextInt(300) : 1 + r.nextInt(128), r.nextInt(10) == 0 ? 80 : 12);
            case 4:
                return intSet(r, big ? 513 + r.nextInt(300) : 1 + r.nextInt(512));
            default:
                return set(r, big ? 129 + r.nextInt(300) : 1 + r.nextInt(128), r.nextInt(10) == 0 ? 80 : 12);
        }
    }

    private static byte[] stringValue(Random r) {
        switch (r.nextInt(9)) {
            case 0:
                return String.valueOf(r.nextInt(300) - 150).getBytes(StandardCharsets.US_ASCII);
            case 1:
                return String.valueOf(r.nextLong()).getBytes(StandardCharsets.US_ASCII);
            case 2:
                long[] edges = {Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Short.MIN_VALUE, 32768,
                    Long.MIN_VALUE, Long.MAX_VALUE, 0};
                return String.valueOf(edges[r.nextInt(edges.length)]).getBytes(StandardCharsets.US_ASCII);
            case 3:
                String[] odd = {"007", "+5", "-0", "1e3", " 1", "12345678901", "-", ""};
                return odd[r.nextInt(odd.length)].getBytes(StandardCharsets.US_ASCII);
            case 4:
                return "ab\0cd".repeat(1 + r.nextInt(3000)).getBytes(StandardCharsets.ISO_8859_1);
            case 5:
                return randomBytes(r, r.nextInt(20_000));
            default:
                return member(r);
        }
    }

    /** A binary-safe member: text, integers, NULs, high bytes, sometimes long. */
    private static byte[] member(Random r) {
        switch (r.nextInt(5)) {
            case 0:
                return String.valueOf(r.nextInt(1000) - 10).getBytes(StandardCharsets.US_ASCII);
            case 1:
                return randomBytes(r, r.nextInt(16));
            case 2:
                return ("k:" + r.nextInt(100_000) + "\0").getBytes(StandardCharsets.ISO_8859_1);
            default:
                return ("user:" + r.nextInt(1_000_000)).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private static ZSet zset(Random r, int n, int maxLen) {
        ListpackLimits limits = CONFIG.zsetListpackLimits();
        ZSet z = new ZSet(limits);
        double[] specials = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE, 1e300, 0.1};
        while (z.size() < n) {
            byte[] m = r.nextInt(20) == 0 ? randomBytes(r, r.nextInt(maxLen + 1)) : member(r);
            if (m.length > maxLen) {
                m = Arrays.copyOf(m, maxLen);
            }
            double score = r.nextInt(10) == 0 ? specials[r.nextInt(specials.length)]
                    : r.nextBoolean() ? r.nextInt(1000) : r.nextGaussian() * 1e6;
            z.add(m, score);
        }
        return z;
    }

    private static HashValue hash(Random r, int n, int maxLen) {
        HashValue h = new HashValue();
        while (h.size() < n) {
            byte[] f = member(r);
            byte[] v = r.nextInt(3) == 0 ? String.valueOf(r.nextInt()).getBytes(StandardCharsets.US_ASCII)
                    : randomBytes(r, r.nextInt(maxLen + 1));
            h.put(Key.of(f), v, CONFIG.hashListpackLimits());
        }
        return h;
    }

    private static SetValue intSet(Random r, int n) {
        SetValue s = SetValue.empty(SetValue.Encoding.INTSET);
        long[] edges = {Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, 65536, -1};
        while (s.size() < n) {
            long v = r.nextInt(10) == 0 ? edges[r.nextInt(edges.length)] : r.nextInt(100_000) - 50_000;
            s.add(String.valueOf(v).getBytes(StandardCharsets.US_ASCII), SetValue.Limits.DEFAULT);
        }
        return s;
    }

    private static SetValue set(Random r, int n, int maxLen) {
        SetValue s = SetValue.empty(SetValue.Encoding.INTSET);
        while (s.size() < n) {
            byte[] m = member(r);
            s.add(m.length > maxLen ? Arrays.copyOf(m, maxLen) : m, SetValue.Limits.DEFAULT);
        }
        if (maxLen > 64 && n <= 128) {
            s.add(randomBytes(r, 65), SetValue.Limits.DEFAULT);
        }
        return s;
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    static List<String> names(DataSet d, int db) {
        return d.dbs.get(db).keySet().stream().map(k -> RdbTestSupport.latin1(k.bytes())).toList();
    }
}
