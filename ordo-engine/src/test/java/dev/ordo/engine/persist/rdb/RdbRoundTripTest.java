package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.value.Value;
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
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    // ---- packed encodings: listpack sorted sets and hashes, intsets

    @Test
    void aSmallSortedSetIsOneListpackString() {
        ZSet z = new ZSet(CONFIG.zsetListpackLimits());
        z.add(bytes("a"), 1.5);
        z.add(bytes("7"), 2);
        byte[] lp = {19, 0, 0, 0, 4, 0, (byte) 0x81, 'a', 2, (byte) 0x83, '1', '.', '5', 4, 7, 1, 2, 1, (byte) 0xFF};
        assertThat(writeOne(z, false)).isEqualTo(expectedFile(Rdb.TYPE_ZSET_LISTPACK, lp));
        assertThat(RawRdb.listpack("a", "1.5", 7L, 2L)).isEqualTo(lp);
    }

    @Test
    void packedValuesAreLaidOutAsRedisLaysThemOut() {
        ZSet z = RdbTestSupport.edgeZSet(CONFIG.zsetListpackLimits());
        List<Object> zEntries = new ArrayList<>();
        z.forEachEntry((buf, off, len, score) -> {
            zEntries.add(RdbTestSupport.listpackEntry(Arrays.copyOfRange(buf, off, off + len)));
            zEntries.add(RdbTestSupport.listpackScore(score));
        });
        assertThat(encoding(z)).isEqualTo("listpack");
        assertThat(zEntries).as("the data reaches every integer width and both score forms").contains(0L, 128L, -4096L,
                32767L, 8388607L, 2147483647L, Long.MAX_VALUE, Long.MIN_VALUE, 9007199254740992L,
                "9007199254740994", "inf", "-inf", "0.1", "0.30000000000000004");
        assertThat(writeOne(z, false)).isEqualTo(expectedFile(Rdb.TYPE_ZSET_LISTPACK, RawRdb.listpack(zEntries.toArray())));

        HashValue h = RdbTestSupport.edgeHash(CONFIG.hashListpackLimits());
        List<Object> hEntries = new ArrayList<>();
        h.forEach((f, v) -> {
            hEntries.add(RdbTestSupport.listpackEntry(f.bytes()));
            hEntries.add(RdbTestSupport.listpackEntry(v));
        });
        assertThat(encoding(h)).isEqualTo("listpack");
        assertThat(writeOne(h, false)).isEqualTo(expectedFile(Rdb.TYPE_HASH_LISTPACK, RawRdb.listpack(hEntries.toArray())));

        List<Integer> widths = new ArrayList<>();
        for (SetValue set : RdbTestSupport.edgeIntsets()) {
            long[] values = set.members().stream().mapToLong(m -> Long.parseLong(RdbTestSupport.latin1(m))).toArray();
            byte[] blob = RawRdb.intset(values);
            widths.add((int) blob[0]);
            assertThat(writeOne(set, false)).as("intset %s", Arrays.toString(values))
                    .isEqualTo(expectedFile(Rdb.TYPE_SET_INTSET, blob));
        }
        assertThat(widths).containsExactly(2, 2, 4, 4, 8, 8);
    }

    @Test
    void packedValuesSurviveARoundTripWithTheirEncodingAndExactScores(@TempDir Path dir) throws IOException {
        DataSet source = new DataSet();
        ZSet z = RdbTestSupport.edgeZSet(CONFIG.zsetListpackLimits());
        source.put(0, Key.of("zedge"), z, -1);
        source.put(0, Key.of("hedge"), RdbTestSupport.edgeHash(CONFIG.hashListpackLimits()), 1_900_000_000_000L);
        List<SetValue> intsets = RdbTestSupport.edgeIntsets();
        for (int i = 0; i < intsets.size(); i++) {
            source.put(1, Key.of("iset" + i), intsets.get(i), -1);
        }
        for (boolean compress : new boolean[] {true, false}) {
            Path f = dir.resolve("packed-" + compress + ".rdb");
            Files.write(f, source.write(compress, true));
            for (DataSet back : List.of(RdbTestSupport.read(f), RdbTestSupport.read(Files.readAllBytes(f)))) {
                assertSameData(back, source);
                Map<Key, Stored> db0 = back.dbs.get(0);
                assertThat(encoding(db0.get(Key.of("zedge")).value())).isEqualTo("listpack");
                assertThat(encoding(db0.get(Key.of("hedge")).value())).isEqualTo("listpack");
                assertThat(back.dbs.get(1).values()).allSatisfy(v -> assertThat(encoding(v.value())).isEqualTo("intset"));
                assertThat(RdbTestSupport.scoreBits((ZSet) db0.get(Key.of("zedge")).value()))
                        .as("every score bit for bit, -0.0 included").isEqualTo(RdbTestSupport.scoreBits(z));
            }
        }
    }

    @Test
    void longEntriesAndLargeCountsTakeTheWiderForms() throws IOException {
        Config roomy = new Config();
        roomy.set("zset-max-listpack-value", "100000", false);
        roomy.set("hash-max-listpack-entries", "50000", false);
        roomy.set("hash-max-listpack-value", "100000", false);
        // Entry sizes around the back-length bounds: 127 | 128 bytes, 16382 | 16383 bytes; string
        // headers of 1, 2 and 5 bytes.
        int[] lengths = {63, 64, 125, 126, 4095, 4096, 16377, 16378, 70_000};
        ZSet z = new ZSet(roomy.zsetListpackLimits());
        HashValue h = new HashValue();
        for (int i = 0; i < lengths.length; i++) {
            z.add(bytes(String.valueOf((char) ('a' + i)).repeat(lengths[i])), i);
            h.put(Key.of(bytes("f" + i)), bytes("v".repeat(lengths[i])), roomy.hashListpackLimits());
        }
        for (int i = 0; h.size() < 40_000; i++) {
            h.put(Key.of(bytes("k" + i)), bytes(String.valueOf(i)), roomy.hashListpackLimits());
        }
        assertThat(encoding(z)).isEqualTo("listpack");
        assertThat(encoding(h)).isEqualTo("listpack");
        List<Object> zEntries = new ArrayList<>();
        z.forEachEntry((buf, off, len, score) -> {
            zEntries.add(Arrays.copyOfRange(buf, off, off + len));
            zEntries.add((long) score);
        });
        List<Object> hEntries = new ArrayList<>();
        h.forEach((f, v) -> {
            hEntries.add(RdbTestSupport.listpackEntry(f.bytes()));
            hEntries.add(RdbTestSupport.listpackEntry(v));
        });
        byte[] hashBlob = RawRdb.listpack(hEntries.toArray());
        assertThat(PackedList.u16(hashBlob, 4)).as("80,000 entries are counted as 'unknown'").isEqualTo(65535);
        assertThat(writeOne(z, false)).isEqualTo(expectedFile(Rdb.TYPE_ZSET_LISTPACK, RawRdb.listpack(zEntries.toArray())));
        assertThat(writeOne(h, false)).isEqualTo(expectedFile(Rdb.TYPE_HASH_LISTPACK, hashBlob));
        for (boolean compress : new boolean[] {true, false}) {
            DataSet source = new DataSet();
            source.put(0, Key.of("z"), z, -1);
            source.put(0, Key.of("h"), h, -1);
            DataSet back = new DataSet();
            RdbReader.read(new ByteArrayInputStream(source.write(compress, true)), back, roomy);
            Object zBack = back.dbs.get(0).get(Key.of("z")).value();
            Object hBack = back.dbs.get(0).get(Key.of("h")).value();
            assertThat(content(zBack)).isEqualTo(content(z));
            assertThat(content(hBack)).isEqualTo(content(h));
            assertThat(order(hBack)).isEqualTo(order(h));
            assertThat(encoding(zBack)).isEqualTo("listpack");
            assertThat(encoding(hBack)).isEqualTo("listpack");
        }
    }

    @Test
    void packedBlobsAreCompressedLikeAnyStringWhenThatHelps() throws IOException {
        ZSet z = new ZSet(CONFIG.zsetListpackLimits());
        for (int i = 0; i < 100; i++) {
            z.add(bytes("member:" + i), 0.5 + i);
        }
        byte[] plain = writeOne(z, false);
        byte[] compressed = writeOne(z, true);
        int blobAt = 17; // after the type byte at 14 and the key "k" as a 2-byte string
        assertThat(compressed[14]).isEqualTo((byte) Rdb.TYPE_ZSET_LISTPACK);
        assertThat(compressed[blobAt] & 0xFF).as("an LZF string").isEqualTo(0xC3);
        assertThat(compressed.length).isLessThan(plain.length * 2 / 3);
        ZSet tiny = new ZSet(CONFIG.zsetListpackLimits());
        tiny.add(bytes("1"), 1);
        byte[] tinyFile = writeOne(tiny, true);
        assertThat(tinyFile[blobAt]).as("an 11-byte listpack is stored as is").isEqualTo((byte) 11);
        assertThat(tinyFile).isEqualTo(expectedFile(Rdb.TYPE_ZSET_LISTPACK, RawRdb.listpack(1L, 1L)));
        SetValue ints = SetValue.empty(SetValue.Encoding.INTSET);
        ints.add(bytes(String.valueOf(Long.MAX_VALUE)), SetValue.Limits.DEFAULT);
        for (int i = 0; i < 300; i++) {
            ints.add(bytes(String.valueOf(i)), SetValue.Limits.DEFAULT);
        }
        byte[] intsetFile = writeOne(ints, true);
        assertThat(intsetFile[14]).isEqualTo((byte) Rdb.TYPE_SET_INTSET);
        assertThat(intsetFile[blobAt] & 0xFF).isEqualTo(0xC3);
        for (Value v : List.<Value>of(z, tiny, ints)) {
            DataSet d = new DataSet();
            d.put(0, Key.of("k"), v, -1);
            assertSameData(RdbTestSupport.read(d.write(true, true)), d);
        }
    }

    @Test
    void otherEncodingsKeepThePortableTypes() {
        ZSet skiplist = new ZSet(CONFIG.zsetListpackLimits());
        for (int i = 0; i < 200; i++) {
            skiplist.add(bytes("m" + i), i);
        }
        HashValue table = new HashValue();
        table.put(Key.of("f"), bytes("v".repeat(65)), CONFIG.hashListpackLimits());
        SetValue listpackSet = SetValue.empty(SetValue.Encoding.INTSET);
        listpackSet.add(bytes("1"), SetValue.Limits.DEFAULT);
        listpackSet.add(bytes("a"), SetValue.Limits.DEFAULT);
        SetValue tableSet = SetValue.empty(SetValue.Encoding.INTSET);
        for (int i = 0; i < 600; i++) {
            tableSet.add(bytes(String.valueOf(i)), SetValue.Limits.DEFAULT);
        }
        assertThat(List.of(encoding(skiplist), encoding(table), encoding(listpackSet), encoding(tableSet)))
                .containsExactly("skiplist", "hashtable", "listpack", "hashtable");
        assertThat(writeOne(skiplist, false)[14]).isEqualTo((byte) Rdb.TYPE_ZSET_2);
        assertThat(writeOne(table, false)[14]).isEqualTo((byte) Rdb.TYPE_HASH);
        assertThat(writeOne(listpackSet, false)[14]).isEqualTo((byte) Rdb.TYPE_SET);
        assertThat(writeOne(tableSet, false)[14]).isEqualTo((byte) Rdb.TYPE_SET);
    }

    @Test
    void aValueTooLargeForItsBlobIsWrittenInThePortableType() throws IOException {
        ZSet small = new ZSet(CONFIG.zsetListpackLimits());
        ZSet large = new ZSet(CONFIG.zsetListpackLimits());
        HashValue hash = new HashValue();
        SetValue ints = SetValue.empty(SetValue.Encoding.INTSET);
        SetValue fewInts = SetValue.empty(SetValue.Encoding.INTSET);
        for (int i = 0; i < 40; i++) {
            large.add(bytes("member" + i), i + 0.5);
            hash.put(Key.of("field" + i), bytes("value" + i), CONFIG.hashListpackLimits());
            ints.add(bytes(String.valueOf(i * 1000)), SetValue.Limits.DEFAULT);
        }
        small.add(bytes("m"), 1);
        fewInts.add(bytes("7"), SetValue.Limits.DEFAULT);
        DataSet d = new DataSet();
        d.put(0, Key.of("large"), large, -1);
        d.put(0, Key.of("small"), small, -1);
        d.put(0, Key.of("hash"), hash, -1);
        d.put(0, Key.of("ints"), ints, -1);
        d.put(0, Key.of("fewInts"), fewInts, -1);
        List<Integer> types = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RdbWriter w = new RdbWriter(out, false, true, 64);
        w.header(Map.of());
        w.selectDb(0, 5, 0);
        d.dbs.get(0).forEach((k, v) -> {
            int at = (int) w.bytesWritten();
            w.entry(k, v.value(), -1);
            w.flush();
            types.add(out.toByteArray()[at] & 0xFF);
        });
        w.finish();
        assertThat(types).containsExactly(Rdb.TYPE_ZSET_2, Rdb.TYPE_ZSET_LISTPACK, Rdb.TYPE_HASH, Rdb.TYPE_SET, Rdb.TYPE_SET_INTSET);
        DataSet back = RdbTestSupport.read(out.toByteArray());
        assertSameData(back, d);
        assertThat(back.dbs.get(0).values()).allSatisfy(v -> assertThat(encoding(v.value())).isIn("listpack", "intset"));
    }

    /** Writing small values reuses the writer's buffers: a few bytes per key at most, none per member. */
    @Test
    void writingSmallValuesAllocatesAlmostNothing() {
        int keys = 30_000;
        List<Key> names = new ArrayList<>();
        List<Value> values = new ArrayList<>();
        Random r = new Random(11);
        for (int i = 0; i < keys; i++) {
            names.add(Key.of("key:" + i));
            switch (i % 3) {
                case 0:
                    values.add(tenMemberZSet(r, i));
                    break;
                case 1: {
                    HashValue h = new HashValue();
                    for (int f = 0; f < 8; f++) {
                        h.put(Key.of("field" + f), bytes(f % 2 == 0 ? String.valueOf(r.nextInt()) : "value" + i),
                                CONFIG.hashListpackLimits());
                    }
                    values.add(h);
                    break;
                }
                default: {
                    SetValue s = SetValue.empty(SetValue.Encoding.INTSET);
                    for (int m = 0; m < 20; m++) {
                        s.add(bytes(String.valueOf(r.nextInt(100_000))), SetValue.Limits.DEFAULT);
                    }
                    values.add(s);
                }
            }
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] perKey = new long[4];
        for (int round = 0; round < perKey.length; round++) {
            RdbWriter w = new RdbWriter(OutputStream.nullOutputStream(), round % 2 == 0, true);
            w.header(Map.of());
            w.selectDb(0, keys, 0);
            w.entry(names.get(0), values.get(0), -1);
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < keys; i++) {
                w.entry(names.get(i), values.get(i), -1);
            }
            perKey[round] = (mx.getCurrentThreadAllocatedBytes() - before) / keys;
            w.finish();
        }
        System.out.println("RDB writer, bytes allocated per small key: " + Arrays.toString(perKey));
        assertThat(perKey[2]).as("bytes per key, compressing, once warm").isLessThan(16);
        assertThat(perKey[3]).as("bytes per key, not compressing, once warm").isLessThan(16);
    }

    /**
     * Prints (never asserts) the size and write time of 100,000 sorted sets of 10 members, written
     * as type 5 (Ordo before) and as type 17 (now), with and without compression. Two data sets:
     * ordo-bench/persistence-benchmark.sh's (members "a" to "j", scores 1 to 10), and a
     * leaderboard's (members "user:N", scores with two decimals, which are written as text).
     */
    @Test
    void smallSortedSetsSizeAndSpeed(@TempDir Path dir) throws IOException {
        int keys = 100_000;
        Random r = new Random(2);
        List<Key> names = new ArrayList<>(keys);
        List<ZSet> benchmark = new ArrayList<>(keys);
        List<ZSet> leaderboard = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            names.add(Key.of("small:" + (i + 1)));
            ZSet z = new ZSet(CONFIG.zsetListpackLimits());
            for (int m = 0; m < 10; m++) {
                z.add(new byte[] {(byte) ('a' + m)}, m + 1);
            }
            benchmark.add(z);
            leaderboard.add(tenMemberZSet(r, i));
        }
        Path f = dir.resolve("small.rdb");
        StringBuilder report = new StringBuilder("RDB, 100,000 sorted sets of 10 members (best of 3 writes):");
        for (List<ZSet> sets : List.of(benchmark, leaderboard)) {
            report.append(sets == benchmark ? "\n  benchmark data (a..j scored 1..10):" : "\n  leaderboard data (user:N, 2-decimal scores):");
            for (int variant = 0; variant < 4; variant++) {
                boolean packed = variant % 2 == 1;
                boolean compress = variant < 2;
                long best = Long.MAX_VALUE;
                for (int round = 0; round < 3; round++) {
                    long t0 = System.nanoTime();
                    try (OutputStream out = Files.newOutputStream(f)) {
                        RdbWriter w = packed ? new RdbWriter(out, compress, true) : new RdbWriter(out, compress, true, 0);
                        w.header(Map.of("redis-ver", "7.0.15"));
                        w.selectDb(0, keys, 0);
                        for (int i = 0; i < keys; i++) {
                            w.entry(names.get(i), sets.get(i), -1);
                        }
                        w.finish();
                    }
                    best = Math.min(best, System.nanoTime() - t0);
                }
                long t1 = System.nanoTime();
                DataSet back = RdbTestSupport.read(f);
                long read = System.nanoTime() - t1;
                assertThat(back.dbs.get(0)).hasSize(keys);
                report.append(String.format("%n    %-18s %-18s %6.2f MB, write %.3f s, read %.3f s",
                        packed ? "type 17 (listpack)" : "type 5 (before)", compress ? "rdbcompression yes" : "rdbcompression no",
                        Files.size(f) / 1e6, best / 1e9, read / 1e9));
            }
        }
        System.out.println(report);
    }

    /** Ten members like "user:1234", scores with two decimals, as a leaderboard holds them. */
    private static ZSet tenMemberZSet(Random r, int i) {
        ZSet z = new ZSet(CONFIG.zsetListpackLimits());
        for (int m = 0; z.size() < 10; m++) {
            z.add(bytes("user:" + (i * 10 + m)), Math.floor(r.nextDouble() * 1e7) / 100);
        }
        return z;
    }

    /** A file with database 0 holding {@code value} under the key "k", no AUX fields, checksummed. */
    private static byte[] writeOne(Value value, boolean compress) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RdbWriter w = new RdbWriter(out, compress, true);
        w.header(Map.of());
        w.selectDb(0, 1, 0);
        w.entry(Key.of("k"), value, -1);
        w.finish();
        return out.toByteArray();
    }

    /** What {@link #writeOne} must produce for a value stored as the blob {@code blob}, uncompressed. */
    private static byte[] expectedFile(int type, byte[] blob) {
        return new RawRdb(Rdb.VERSION).b(0xFE).length(0).b(0xFB).length(1).length(0).entry(type, "k", blob).finish();
    }

    private static byte[] bytes(String latin1) {
        return RdbTestSupport.bytes(latin1);
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
        d.put(0, Key.of("hh"), hash(new Random(7), 600, 20), -1);
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

    private static Value randomValue(Random r) {
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
