package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.Lzf;
import dev.ordo.engine.encoding.Crc64;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.persist.rdb.RdbTestSupport.DataSet;
import dev.ordo.engine.zset.ZSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Damaged files: every truncation, every single-bit flip, random damage behind a valid checksum
 * (so the parser itself must notice), a wrong checksum, absurd lengths, malformed blobs and
 * unsupported content. Each must end in an {@link RdbException} naming an offset inside the file,
 * never another exception, a silent success or an allocation the file cannot justify.
 */
class RdbCorruptionTest {
    private static final Config CONFIG = new Config();

    @Test
    void everyTruncationIsAnError(@TempDir Path dir) throws IOException {
        for (byte[] file : List.of(ordoSample(), blobSample())) {
            Path f = dir.resolve("cut.rdb");
            for (int cut = 0; cut < file.length; cut++) {
                byte[] shorter = java.util.Arrays.copyOf(file, cut);
                RdbException fromStream = expectFailure(shorter, null);
                assertThat(fromStream.offset()).isBetween(0L, (long) cut);
                if (cut % 5 == 0) {
                    Files.write(f, shorter);
                    assertThat(expectFailure(shorter, f).offset()).isBetween(0L, (long) cut);
                }
            }
        }
    }

    @Test
    void everySingleBitFlipIsAnError() {
        for (byte[] file : List.of(ordoSample(), blobSample())) {
            for (int at = 0; at < file.length; at++) {
                byte[] damaged = file.clone();
                damaged[at] ^= (byte) (1 << (at % 8));
                RdbException e = expectFailure(damaged, null);
                assertThat(e.offset()).isBetween(0L, (long) file.length);
            }
        }
    }

    /** Damage with the checksum recomputed: the structure checks alone must reject or survive it cleanly. */
    @Test
    void randomDamageBehindAValidChecksumNeverEscapesAsAnotherException(@TempDir Path dir) throws IOException {
        Random r = new Random(42);
        Path f = dir.resolve("fuzz.rdb");
        int rounds = 0;
        int[] rejected = {0};
        for (byte[] file : List.of(ordoSample(), blobSample())) {
            for (int round = 0; round < 1500; round++) {
                byte[] damaged = file.clone();
                for (int n = 1 + r.nextInt(4); n > 0; n--) {
                    int at = 9 + r.nextInt(damaged.length - 17);
                    damaged[at] = r.nextInt(3) == 0 ? (byte) (0x80 + r.nextInt(4)) : (byte) r.nextInt(256);
                }
                long crc = Crc64.of(damaged, 0, damaged.length - 8);
                for (int i = 0; i < 8; i++) {
                    damaged[damaged.length - 8 + i] = (byte) (crc >>> (8 * i));
                }
                boolean viaFile = round % 10 == 0;
                if (viaFile) {
                    Files.write(f, damaged);
                }
                long allocated = allocatedBy(() -> {
                    try {
                        RdbTestSupport.readLeniently(damaged, viaFile ? f : null);
                    } catch (RdbException e) {
                        assertThat(e.offset()).isBetween(0L, (long) damaged.length);
                        rejected[0]++;
                    }
                });
                assertThat(allocated).as("bytes allocated reading a damaged %d-byte file", damaged.length)
                        .isLessThan(64L << 20);
                rounds++;
            }
        }
        assertThat(rounds).isEqualTo(3000);
        // Much damage lands in member bytes or scores and leaves a valid file; the rest must be caught.
        assertThat(rejected[0]).as("damage the structure checks caught").isGreaterThan(rounds / 5);
    }

    @Test
    void aWrongChecksumIsReportedWhereItIs(@TempDir Path dir) throws IOException {
        byte[] file = ordoSample();
        file[file.length - 3] ^= 0x10;
        Path f = Files.write(dir.resolve("wrong.rdb"), file);
        for (Path via : java.util.Arrays.asList(null, f)) {
            RdbException e = expectFailure(file, via);
            assertThat(e.getMessage()).contains("checksum mismatch").contains("offset " + (file.length - 8));
            assertThat(e.offset()).isEqualTo(file.length - 8);
        }
    }

    /** Read from a file, the checksum is computed on another thread: it still catches every bit flipped. */
    @Test
    void readFromAFile_everyBitFlipped_isCaught(@TempDir Path dir) throws IOException {
        byte[] file = ordoSample();
        Path f = dir.resolve("flipped.rdb");
        for (int at = 9; at < file.length; at += 3) {
            byte[] damaged = file.clone();
            damaged[at] ^= (byte) (1 << (at % 8));
            Files.write(f, damaged);
            assertThat(expectFailure(damaged, f).offset()).isBetween(0L, (long) file.length);
        }
    }

    /** Bytes after the stored checksum are ignored, as by Redis; the checksum still covers what comes before it. */
    @Test
    void bytesAfterTheChecksum_areIgnored_butTheChecksumStillHolds(@TempDir Path dir) throws IOException {
        byte[] file = ordoSample();
        byte[] longer = java.util.Arrays.copyOf(file, file.length + 5);
        Path f = Files.write(dir.resolve("longer.rdb"), longer);
        assertThat(RdbTestSupport.read(f).dbs.get(0).keySet()).isEqualTo(RdbTestSupport.read(file).dbs.get(0).keySet()).isNotEmpty();
        longer[file.length - 3] ^= 0x10;
        Files.write(f, longer);
        assertThat(expectFailure(longer, f).getMessage()).contains("checksum mismatch");
    }

    @Test
    void absurdLengthsFailBeforeAnyLargeAllocation(@TempDir Path dir) throws IOException {
        List<byte[]> files = List.of(
                new RawRdb(10).b(0).string("k").length(1L << 62).finish(),
                new RawRdb(10).b(0).string("k").length(0xFFFF_FFFFL).finish(),
                new RawRdb(10).b(0).string("k").length(1_900_000_000L).raw(new byte[100]).finish(),
                new RawRdb(10).b(Rdb.TYPE_SET).string("k").length(2_000_000_000L).string("a").finish(),
                new RawRdb(10).b(Rdb.TYPE_ZSET_2).string("k").length(1_000_000_000L).string("a").doubleLE(1).finish(),
                new RawRdb(10).b(Rdb.TYPE_HASH).string("k").length(Integer.MAX_VALUE).finish(),
                new RawRdb(10).b(0).string("k").b(0xC3).length(10).length(2_000_000_000L).raw(new byte[10]).finish(),
                new RawRdb(10).b(0).string("k").b(0xC3).length(3).length(264).b(0xE0, 0xFF, 0x00).finish(),
                new RawRdb(10).b(0).string("k").b(0xC3).length(3).length(265).b(0xE0, 0xFF, 0x00).finish(),
                new RawRdb(10).b(0).string("k").b(0xC3).length(3).length(200_000_000).b(0xE0, 0xFF, 0x00).finish());
        Path f = dir.resolve("absurd.rdb");
        for (int i = 0; i < files.size(); i++) {
            byte[] file = files.get(i);
            Files.write(f, file);
            for (boolean viaFile : new boolean[] {false, true}) {
                long allocated = allocatedBy(() -> {
                    try {
                        RdbTestSupport.readLeniently(file, viaFile ? f : null);
                        fail("no error");
                    } catch (RdbException e) {
                        assertThat(e.offset()).isBetween(0L, (long) file.length);
                    }
                });
                assertThat(allocated).as("file %d, via file %s", i, viaFile).isLessThan(16L << 20);
            }
        }
    }

    @Test
    void malformedBlobsNameTheBlob() {
        byte[] lp = RawRdb.listpack("m", 1L);
        List<Object[]> cases = new ArrayList<>();
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, patch(lp, 0, 99), "header says 99 bytes"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, patch(lp, lp.length - 1, 0), "no terminator"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, patch(lp, 4, 3), "declares 3 entries, 2 found"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, patch(lp, 8, 7), "back-length"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, patch(lp, 6, 0x85), "runs past the end"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, patch(lp, 6, 0xF7), "invalid entry encoding 0xf7"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, patch(lp, 6, 0xFF), "terminator before the end"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, new byte[] {7, 0, 0, 0}, "shorter than a header"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, RawRdb.listpack("m"), "a member without a score"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, RawRdb.listpack("m", 1L, "m", 2L), "a member appears twice"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, RawRdb.listpack("m", "nan"), "invalid score 'nan'"));
        cases.add(blob(Rdb.TYPE_ZSET_LISTPACK, RawRdb.listpack("m", "1.5x"), "invalid score '1.5x'"));
        cases.add(blob(Rdb.TYPE_HASH_LISTPACK, RawRdb.listpack("f", "v", "g"), "a field without a value"));
        cases.add(blob(Rdb.TYPE_HASH_LISTPACK, RawRdb.listpack("f", "v", "f", "w"), "a field appears twice"));
        cases.add(blob(Rdb.TYPE_SET_LISTPACK, RawRdb.listpack("a", "a"), "a member appears twice"));
        cases.add(blob(Rdb.TYPE_SET_LISTPACK, RawRdb.listpack(5L, "5"), "a member appears twice"));
        byte[] zl = RawRdb.ziplist("f", "v", "g", 7L);
        cases.add(blob(Rdb.TYPE_HASH_ZIPLIST, patch(zl, 4, 11), "tail offset 11"));
        cases.add(blob(Rdb.TYPE_HASH_ZIPLIST, patch(zl, 13, 5), "previous-entry size 5"));
        cases.add(blob(Rdb.TYPE_HASH_ZIPLIST, patch(zl, 8, 5), "declares 5 entries, 4 found"));
        cases.add(blob(Rdb.TYPE_HASH_ZIPLIST, patch(zl, zl.length - 2, 0xF0), "integer runs past the end"));
        cases.add(blob(Rdb.TYPE_HASH_ZIPLIST, patch(zl, 11, 0xC5), "invalid entry encoding 0xc5"));
        cases.add(blob(Rdb.TYPE_ZSET_ZIPLIST, RawRdb.ziplist("m", 1L, "m", 2L), "a member appears twice"));
        byte[] is = RawRdb.intset(1, 2, 3);
        cases.add(blob(Rdb.TYPE_SET_INTSET, patch(is, 0, 3), "element width 3"));
        cases.add(blob(Rdb.TYPE_SET_INTSET, patch(is, 4, 4), "4 elements of 2 bytes"));
        cases.add(blob(Rdb.TYPE_SET_INTSET, patch(is, 10, 9), "not strictly ascending"));
        cases.add(blob(Rdb.TYPE_SET_INTSET, patch(is, 10, 1), "not strictly ascending"));
        cases.add(blob(Rdb.TYPE_SET_INTSET, new byte[] {2, 0, 0}, "shorter than its header"));
        for (Object[] c : cases) {
            byte[] file = new RawRdb(11).entry(0, "before", "x".getBytes(StandardCharsets.US_ASCII))
                    .entry((Integer) c[0], "key", (byte[]) c[1]).finish();
            int blobAt = 9 + 1 + 7 + 2 + 1 + 4;
            RdbException e = expectFailure(file, null);
            assertThat(e.getMessage()).as("type %s", c[0]).contains((String) c[2]);
            assertThat(e.offset()).as(e.getMessage()).isEqualTo(blobAt);
        }
    }

    @Test
    void unsupportedOrInvalidContentIsNamed() {
        assertMessage(new RawRdb(10).b(18).string("l").length(1).length(3).string("x").finish(),
                "quicklist node container 3 is neither plain nor packed", 14);
        assertMessage(new RawRdb(10).b(18).string("l").length(1).length(2).string("xxxxxxx").finish(), "malformed listpack", 14);
        assertMessage(new RawRdb(10).b(15).string("s").finish(), "unsupported value type 15 (stream)", 9);
        assertMessage(new RawRdb(10).b(7).string("m").finish(), "unsupported value type 7 (module value)", 9);
        assertMessage(new RawRdb(10).b(0x42).finish(), "unsupported value type 66 (unknown)", 9);
        assertMessage(new RawRdb(10).b(0xF7).length(2).finish(), "module data (opcode 0xF7)", 9);
        assertMessage(new RawRdb(10).b(0xF6).finish(), "pre-release format", 9);
        assertMessage(new RawRdb(12).finish(), "RDB version 12 is not supported", 5);
        assertMessage("REDIX0010\u00ff".getBytes(StandardCharsets.ISO_8859_1), "not an RDB file", 0);
        assertMessage("REDIS00a0\u00ff".getBytes(StandardCharsets.ISO_8859_1), "not 4 digits", 5);
        assertMessage(new RawRdb(10).b(0xFE).length(16).finish(), "database 16 does not exist", 9);
        assertMessage(new RawRdb(10).b(0).string("k").b(0xC4).finish(), "unknown string encoding 4", 12);
        assertMessage(new RawRdb(10).b(0).string("k").b(0x82).finish(), "invalid length encoding byte 0x82", 12);
        assertMessage(new RawRdb(10).b(0xFB).b(0xC0).finish(), "expected a length", 10);
        assertMessage(new RawRdb(10).b(Rdb.TYPE_ZSET_2).string("z").length(1).string("m").doubleLE(Double.NaN).finish(),
                "score is NaN", 13);
        assertMessage(new RawRdb(10).b(Rdb.TYPE_ZSET).string("z").length(1).string("m").b(253).finish(), "score is NaN", 13);
        assertMessage(new RawRdb(10).b(Rdb.TYPE_ZSET).string("z").length(1).string("m").b(2).b('x', 'y').finish(),
                "invalid sorted set score 'xy'", 13);
        assertMessage(new RawRdb(10).b(Rdb.TYPE_ZSET_2).string("z").length(2).string("m").doubleLE(1).string("m").doubleLE(2)
                .finish(), "sorted set member appears twice", 23);
        assertMessage(new RawRdb(10).b(Rdb.TYPE_SET).string("s").length(2).string("1").b(0xC0, 1).finish(),
                "set member appears twice", 15);
        assertMessage(new RawRdb(10).b(Rdb.TYPE_HASH).string("h").length(2).string("f").string("1").string("f").string("2")
                .finish(), "hash field appears twice", 17);
    }

    private static void assertMessage(byte[] file, String text, long offset) {
        RdbException e = expectFailure(file, null);
        assertThat(e.getMessage()).contains(text).contains("offset " + offset);
        assertThat(e.offset()).isEqualTo(offset);
    }

    private static Object[] blob(int type, byte[] blob, String message) {
        return new Object[] {type, blob, message};
    }

    private static byte[] patch(byte[] b, int at, int value) {
        byte[] c = b.clone();
        c[at] = (byte) value;
        return c;
    }

    /** Reads from the bytes as a stream (file == null) or from the file; returns the RdbException it must throw. */
    private static RdbException expectFailure(byte[] bytes, Path file) {
        try {
            RdbTestSupport.readLeniently(bytes, file);
        } catch (RdbException e) {
            return e;
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("expected an RdbException, got " + e, e);
        }
        throw new AssertionError("a damaged file of " + bytes.length + " bytes was read without an error");
    }

    interface Action {
        void run() throws IOException;
    }

    /** Bytes the current thread allocated while running {@code action}. */
    private static long allocatedBy(Action action) throws IOException {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(mx.isThreadAllocatedMemoryEnabled()).isTrue();
        long before = mx.getCurrentThreadAllocatedBytes();
        action.run();
        return mx.getCurrentThreadAllocatedBytes() - before;
    }

    /** An Ordo-written file with every type, both encodings of each, LZF strings, expiries, a function, two databases. */
    static byte[] ordoSample() {
        Random r = new Random(5);
        DataSet d = new DataSet();
        d.aux.put("redis-ver", "7.0.15".getBytes(StandardCharsets.UTF_8));
        d.functions.add("#!lua name=x\nredis.register_function('f', function() return 1 end)".getBytes(StandardCharsets.UTF_8));
        d.put(0, Key.of("int"), new StringValue("-123456".getBytes(StandardCharsets.US_ASCII)), -1);
        d.put(0, Key.of("lzf"), new StringValue("hello ".repeat(40).getBytes(StandardCharsets.US_ASCII)), 1_900_000_000_000L);
        d.put(0, Key.of("raw"), new StringValue("no repeats at all, really".getBytes(StandardCharsets.US_ASCII)), -1);
        ZSet small = new ZSet(CONFIG.zsetListpackLimits());
        ZSet big = new ZSet(CONFIG.zsetListpackLimits());
        for (int i = 0; i < 140; i++) {
            big.add(("member" + i).getBytes(StandardCharsets.US_ASCII), r.nextGaussian());
            if (i < 10) {
                small.add(String.valueOf(i * 1000).getBytes(StandardCharsets.US_ASCII), i * 0.5);
            }
        }
        d.put(0, Key.of("zsmall"), small, -1);
        d.put(0, Key.of("zbig"), big, 1_800_000_000_000L);
        HashValue h = new HashValue();
        HashValue hh = new HashValue();
        h.put(Key.of("f"), "v".getBytes(StandardCharsets.US_ASCII), CONFIG.hashListpackLimits());
        hh.put(Key.of("long"), "L".repeat(80).getBytes(StandardCharsets.US_ASCII), CONFIG.hashListpackLimits());
        d.put(3, Key.of("h"), h, -1);
        d.put(3, Key.of("hh"), hh, -1);
        SetValue ints = SetValue.empty(SetValue.Encoding.INTSET);
        SetValue lp = SetValue.empty(SetValue.Encoding.INTSET);
        SetValue ht = SetValue.empty(SetValue.Encoding.INTSET);
        for (int i = 0; i < 20; i++) {
            ints.add(String.valueOf(i * 77 - 500).getBytes(StandardCharsets.US_ASCII), SetValue.Limits.DEFAULT);
            lp.add(("s" + i).getBytes(StandardCharsets.US_ASCII), SetValue.Limits.DEFAULT);
        }
        for (int i = 0; i < 130; i++) {
            ht.add(("t" + i).getBytes(StandardCharsets.US_ASCII), SetValue.Limits.DEFAULT);
        }
        d.put(3, Key.of("ints"), ints, -1);
        d.put(3, Key.of("lp"), lp, -1);
        d.put(3, Key.of("ht"), ht, -1);
        return d.write(true, true);
    }

    /** A hand-built file with every blob type, text scores and an LZF string. */
    static byte[] blobSample() {
        byte[] original = "abcabcabcabcabcabcabcabcabcabcabcabcabcabc".getBytes(StandardCharsets.US_ASCII);
        byte[] compressed = new byte[100];
        int n = new Lzf().compress(original, 0, original.length, compressed, 0, compressed.length);
        return new RawRdb(11)
                .b(0xFA).string("redis-ver").string("7.2.4")
                .b(0xFE).length(1).b(0xFB).length(8).length(1)
                .b(0xFC).int64LE(1_900_000_000_000L)
                .entry(Rdb.TYPE_HASH_LISTPACK, "hl", RawRdb.listpack("a", 1L, "b", "x".repeat(70), "c", -5000L))
                .entry(Rdb.TYPE_ZSET_LISTPACK, "zl", RawRdb.listpack("m", 1L, "n", "2.5", "o", 100000L))
                .entry(Rdb.TYPE_SET_LISTPACK, "sl", RawRdb.listpack("p", 7L, "q"))
                .entry(Rdb.TYPE_HASH_ZIPLIST, "hz", RawRdb.ziplist("a", 1L, "b", "y".repeat(300), "c", 70000L))
                .entry(Rdb.TYPE_ZSET_ZIPLIST, "zz", RawRdb.ziplist("m", 1L, "n", "-2.5", "o", Long.MAX_VALUE))
                .entry(Rdb.TYPE_SET_INTSET, "si", RawRdb.intset(-70000, 3, 5, 1L << 40))
                .b(Rdb.TYPE_ZSET).string("zt").length(2).string("a").b(3).b('1', '.', '5').string("b").b(254)
                .b(0).string("lzf").b(0xC3).length(n).length(original.length).raw(java.util.Arrays.copyOf(compressed, n))
                .finish();
    }
}
