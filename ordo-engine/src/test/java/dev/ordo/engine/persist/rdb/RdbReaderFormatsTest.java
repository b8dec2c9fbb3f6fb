package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.Lzf;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.persist.rdb.RdbTestSupport.DataSet;
import dev.ordo.engine.persist.rdb.RdbTestSupport.Stored;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.ordo.engine.persist.rdb.RdbTestSupport.content;
import static dev.ordo.engine.persist.rdb.RdbTestSupport.encoding;
import static dev.ordo.engine.persist.rdb.RdbTestSupport.order;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forms Redis writes that Ordo's writer never does, built by hand from the format description:
 * packed blobs (intset, listpack, ziplist) of every entry encoding, text scores, second-based
 * expiries, eviction hints, encoded strings, old versions without a checksum.
 */
class RdbReaderFormatsTest {
    private static final String LONG_63 = "x".repeat(63);
    private static final String LONG_4000 = "y".repeat(4000);
    private static final String LONG_20000 = "z".repeat(20000);

    @Test
    void listpackHashSetAndSortedSetWithEveryEntryEncoding() throws IOException {
        Object[] ints = {0L, 127L, -1L, 4095L, -4096L, 32767L, -32768L, 8388607L, -8388608L, 2147483647L, -2147483648L,
            Long.MAX_VALUE, Long.MIN_VALUE};
        List<Object> hash = new ArrayList<>();
        for (int i = 0; i < ints.length; i++) {
            hash.add("f" + i);
            hash.add(ints[i]);
        }
        hash.addAll(List.of("s63", LONG_63, "s4000", LONG_4000, "s20000", LONG_20000, "bin\0", "v\0\u00ff"));
        List<Object> zset = new ArrayList<>();
        for (int i = 0; i < ints.length; i++) {
            zset.add(ints[i]);
            zset.add((long) i);
        }
        zset.addAll(List.of("half", "1.5", "inf", "inf", "neg", "-inf", "tiny", "1e-300", "negzero", "-0"));
        byte[] file = new RawRdb(11)
                .entry(Rdb.TYPE_HASH_LISTPACK, "h", RawRdb.listpack(hash.toArray()))
                .entry(Rdb.TYPE_SET_LISTPACK, "s", RawRdb.listpack("b", 5L, "a", -70000L))
                .entry(Rdb.TYPE_ZSET_LISTPACK, "z", RawRdb.listpack(zset.toArray()))
                .finish();
        Map<Key, Stored> db = RdbTestSupport.read(file).dbs.get(0);

        Map<String, String> h = new TreeMap<>();
        for (int i = 0; i < ints.length; i++) {
            h.put("f" + i, ints[i].toString());
        }
        h.put("s63", LONG_63);
        h.put("s4000", LONG_4000);
        h.put("s20000", LONG_20000);
        h.put("bin\0", "v\0\u00ff");
        assertThat(content(db.get(Key.of("h")).value())).isEqualTo(h);
        assertThat(encoding(db.get(Key.of("h")).value())).as("a packed hash keeps its listpack whatever its value sizes")
                .isEqualTo("listpack");
        assertThat(order(db.get(Key.of("h")).value()).get(0)).isEqualTo("f0");

        assertThat(order(db.get(Key.of("s")).value())).containsExactly("b", "5", "a", "-70000");
        assertThat(encoding(db.get(Key.of("s")).value())).isEqualTo("listpack");

        Object z = db.get(Key.of("z")).value();
        assertThat(encoding(z)).isEqualTo("listpack");
        @SuppressWarnings("unchecked")
        List<String> entries = (List<String>) content(z);
        assertThat(entries).startsWith("neg -Infinity", "0 0.0", "negzero -0.0", "tiny 1.0E-300", "127 1.0", "half 1.5")
                .endsWith(Long.MIN_VALUE + " 12.0", "inf Infinity");
    }

    @Test
    void ziplistHashAndSortedSetIncludingLongEntriesAndLargePreviousLengths() throws IOException {
        Object[] ints = {0L, 12L, 13L, -1L, 127L, -128L, 32767L, -32768L, 8388607L, -8388608L, 2147483647L, -2147483648L,
            Long.MAX_VALUE, Long.MIN_VALUE};
        List<Object> hash = new ArrayList<>();
        for (int i = 0; i < ints.length; i++) {
            hash.add("f" + i);
            hash.add(ints[i]);
        }
        hash.addAll(List.of("long300", "q".repeat(300), "after", "x", "huge", LONG_20000, "end", "y"));
        List<Object> zset = new ArrayList<>();
        for (int i = 0; i < ints.length; i++) {
            zset.add(ints[i]);
            zset.add((long) -i);
        }
        zset.addAll(List.of("a", "2.25"));
        byte[] file = new RawRdb(9)
                .entry(Rdb.TYPE_HASH_ZIPLIST, "h", RawRdb.ziplist(hash.toArray()))
                .entry(Rdb.TYPE_ZSET_ZIPLIST, "z", RawRdb.ziplist(zset.toArray()))
                .finish();
        Map<Key, Stored> db = RdbTestSupport.read(file).dbs.get(0);
        @SuppressWarnings("unchecked")
        Map<String, String> h = (Map<String, String>) content(db.get(Key.of("h")).value());
        assertThat(h).hasSize(ints.length + 4).containsEntry("f13", String.valueOf(Long.MIN_VALUE)).containsEntry("f1", "12")
                .containsEntry("after", "x").containsEntry("huge", LONG_20000).containsEntry("end", "y");
        assertThat(encoding(db.get(Key.of("h")).value())).isEqualTo("listpack");
        @SuppressWarnings("unchecked")
        List<String> z = (List<String>) content(db.get(Key.of("z")).value());
        assertThat(z).hasSize(ints.length + 1).startsWith(Long.MIN_VALUE + " -13.0").endsWith("0 0.0", "a 2.25");
    }

    @Test
    void intsetsOfEveryWidth() throws IOException {
        byte[] file = new RawRdb(10)
                .entry(Rdb.TYPE_SET_INTSET, "s16", RawRdb.intset(3, -32768, 32767))
                .entry(Rdb.TYPE_SET_INTSET, "s32", RawRdb.intset(1, 70000, -2147483648L))
                .entry(Rdb.TYPE_SET_INTSET, "s64", RawRdb.intset(Long.MIN_VALUE, 0, Long.MAX_VALUE))
                .finish();
        Map<Key, Stored> db = RdbTestSupport.read(file).dbs.get(0);
        assertThat(order(db.get(Key.of("s16")).value())).containsExactly("-32768", "3", "32767");
        assertThat(order(db.get(Key.of("s32")).value())).containsExactly("-2147483648", "1", "70000");
        assertThat(order(db.get(Key.of("s64")).value())).containsExactly(String.valueOf(Long.MIN_VALUE), "0",
                String.valueOf(Long.MAX_VALUE));
        db.values().forEach(s -> assertThat(encoding(s.value())).isEqualTo("intset"));
    }

    @Test
    void packedValuesPastTheEntryLimitsConvertAsInRedis() throws IOException {
        long[] many = new long[600];
        for (int i = 0; i < many.length; i++) {
            many[i] = i * 3L;
        }
        List<Object> pairs = new ArrayList<>();
        for (int i = 0; i < 600; i++) { // past both entry limits: 128 members, 512 fields
            pairs.add("m" + i);
            pairs.add((long) i);
        }
        byte[] file = new RawRdb(11)
                .entry(Rdb.TYPE_SET_INTSET, "bigIntset", RawRdb.intset(many))
                .entry(Rdb.TYPE_SET_LISTPACK, "bigListpackSet", RawRdb.listpack(RawRdb.longs(0, 200)))
                .entry(Rdb.TYPE_ZSET_LISTPACK, "bigZset", RawRdb.listpack(pairs.toArray()))
                .entry(Rdb.TYPE_HASH_LISTPACK, "bigHash", RawRdb.listpack(pairs.toArray()))
                .entry(Rdb.TYPE_ZSET_LISTPACK, "longMember", RawRdb.listpack("m".repeat(65), 1L))
                .finish();
        Map<Key, Stored> db = RdbTestSupport.read(file).dbs.get(0);
        assertThat(encoding(db.get(Key.of("bigIntset")).value())).isEqualTo("hashtable");
        assertThat(((TreeSet<?>) content(db.get(Key.of("bigIntset")).value()))).hasSize(600);
        assertThat(encoding(db.get(Key.of("bigListpackSet")).value())).isEqualTo("hashtable");
        assertThat(encoding(db.get(Key.of("bigZset")).value())).isEqualTo("skiplist");
        assertThat(encoding(db.get(Key.of("bigHash")).value())).isEqualTo("hashtable");
        assertThat(encoding(db.get(Key.of("longMember")).value())).isEqualTo("skiplist");
    }

    @Test
    void textScoresSecondExpiriesEvictionHintsAndEncodedStrings() throws IOException {
        byte[] compressed = new byte[100];
        byte[] original = "abcabcabcabcabcabcabcabcabcabcabcabc".getBytes(StandardCharsets.US_ASCII);
        int n = new Lzf().compress(original, 0, original.length, compressed, 0, compressed.length);
        RawRdb raw = new RawRdb(10)
                .b(0xFA).string("redis-ver").string("7.0.15")
                .b(0xFE).length(2).b(0xFB).length(5).length(1)
                .b(0xFD).b(0x00, 0x94, 0x35, 0x77) // 2_000_000_000 s
                .b(0xF8).length(1234) // IDLE
                .b(0x03).string("z").length(4)
                .string("nan-free").b(3).b('1', '.', '5')
                .string("plus").b(254)
                .string("minus").b(255)
                .string("big").b(5).b('1', 'e', '+', '1', '0')
                .b(0xF9).b(7) // FREQ
                .b(0x00).string("i8").b(0xC0, 0xF6)
                .b(0x00).string("i16").b(0xC1, 0x39, 0x30)
                .b(0x00).string("i32").b(0xC2, 0xFF, 0xFF, 0xFF, 0x7F)
                .b(0x00).string("lzf").b(0xC3).length(n).length(original.length);
        raw.raw(Arrays.copyOf(compressed, n));
        raw.b(0x04).string("h").length(2).string("a").string("1").string("b").b(0xC0, 2);
        raw.b(0x02).string("s").length(3).b(0xC0, 1).string("x").b(0xC1, 0, 1);
        DataSet d = RdbTestSupport.read(raw.finish());
        assertThat(new String(d.aux.get("redis-ver"), StandardCharsets.US_ASCII)).isEqualTo("7.0.15");
        Map<Key, Stored> db = d.dbs.get(2);
        assertThat(db.get(Key.of("z")).expireAt()).isEqualTo(2_000_000_000_000L);
        assertThat(content(db.get(Key.of("z")).value()))
                .isEqualTo(List.of("minus -Infinity", "nan-free 1.5", "big 1.0E10", "plus Infinity"));
        assertThat(db.get(Key.of("i8")).expireAt()).isEqualTo(-1);
        assertThat(content(db.get(Key.of("i8")).value())).isEqualTo("-10");
        assertThat(encoding(db.get(Key.of("i8")).value())).isEqualTo("int");
        assertThat(content(db.get(Key.of("i16")).value())).isEqualTo("12345");
        assertThat(content(db.get(Key.of("i32")).value())).isEqualTo("2147483647");
        assertThat(content(db.get(Key.of("lzf")).value())).isEqualTo(new String(original, StandardCharsets.US_ASCII));
        assertThat(encoding(db.get(Key.of("lzf")).value())).isEqualTo("embstr");
        assertThat(content(db.get(Key.of("h")).value())).isEqualTo(Map.of("a", "1", "b", "2"));
        assertThat(order(db.get(Key.of("s")).value())).containsExactly("1", "x", "256");
        assertThat(encoding(db.get(Key.of("s")).value())).isEqualTo("listpack");
    }

    @Test
    void oldVersionsWithoutChecksumAndFilesWithAZeroChecksum() throws IOException {
        byte[] v4 = new RawRdb(4).entry(0, "k", "v".getBytes(StandardCharsets.US_ASCII)).finishWithoutChecksum();
        assertThat(content(RdbTestSupport.read(v4).dbs.get(0).get(Key.of("k")).value())).isEqualTo("v");
        byte[] v10 = new RawRdb(10).entry(0, "k", "v".getBytes(StandardCharsets.US_ASCII)).finish();
        Arrays.fill(v10, v10.length - 8, v10.length, (byte) 0);
        assertThat(content(RdbTestSupport.read(v10).dbs.get(0).get(Key.of("k")).value())).isEqualTo("v");
    }

    @Test
    void emptyCollectionsAreSkippedAsRedisSkipsThem() throws IOException {
        byte[] file = new RawRdb(10)
                .b(Rdb.TYPE_SET).string("s").length(0)
                .b(Rdb.TYPE_ZSET_2).string("z").length(0)
                .b(Rdb.TYPE_HASH).string("h").length(0)
                .entry(Rdb.TYPE_ZSET_LISTPACK, "zl", RawRdb.listpack())
                .entry(Rdb.TYPE_SET_INTSET, "si", RawRdb.intset())
                .entry(0, "kept", new byte[0])
                .finish();
        DataSet d = RdbTestSupport.read(file);
        assertThat(d.dbs.get(0).keySet()).containsExactly(Key.of("kept"));
    }
}
