package dev.ordo.engine.list;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ListValueTest {
    private static final ListValue.Limits DEFAULT = ListValue.Limits.DEFAULT;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static ListValue filled(int n, int width, ListValue.Limits limits) {
        ListValue list = new ListValue();
        for (int i = 0; i < n; i++) {
            byte[] v = b(String.format("e%0" + (width - 1) + "d", i));
            list.prepareForAdd(v, limits);
            list.push(v, false);
        }
        return list;
    }

    @Test
    void push_pastEightKilobytes_becomesQuicklist() {
        ListValue list = filled(500, 14, DEFAULT);
        assertThat(list.encoding()).isEqualTo(ListValue.Encoding.LISTPACK);
        list.prepareForAdd(new byte[200], DEFAULT);
        assertThat(list.encoding()).isEqualTo(ListValue.Encoding.QUICKLIST);
        list.checkInvariants();
    }

    @Test
    void prepareForAdds_countsLengthsNotEntrySizes_asRedisDoes() {
        ListValue list = new ListValue();
        list.prepareForAdds(4000 * 2, 4000, DEFAULT);
        for (int i = 0; i < 4000; i++) {
            list.push(b("ab"), true);
        }
        assertThat(list.encoding()).isEqualTo(ListValue.Encoding.LISTPACK);
        assertThat(list.nodeCount()).isEqualTo(1);
        list.checkInvariants();
    }

    @Test
    void compactEncoding_onlyAtHalfTheLimit() {
        ListValue list = filled(1000, 14, DEFAULT);
        assertThat(list.encoding()).isEqualTo(ListValue.Encoding.QUICKLIST);
        list.retain(0, 300);
        list.compactEncoding(DEFAULT);
        assertThat(list.encoding()).isEqualTo(ListValue.Encoding.QUICKLIST);
        list.retain(0, 250);
        list.compactEncoding(DEFAULT);
        assertThat(list.encoding()).isEqualTo(ListValue.Encoding.LISTPACK);
        list.checkInvariants();
        assertThat(new String(list.get(249), StandardCharsets.US_ASCII)).isEqualTo("e0000000000249");
    }

    @Test
    void positiveFill_limitsEntriesPerNode() {
        ListValue.Limits three = new ListValue.Limits(3, 0);
        ListValue list = filled(3, 4, three);
        assertThat(list.encoding()).isEqualTo(ListValue.Encoding.LISTPACK);
        list.prepareForAdd(b("x"), three);
        list.push(b("x"), false);
        assertThat(list.encoding()).isEqualTo(ListValue.Encoding.QUICKLIST);
        assertThat(list.nodeCount()).isEqualTo(2);
        list.checkInvariants();
    }

    @Test
    void largeElement_getsPlainNode() {
        ListValue list = filled(10, 4, DEFAULT);
        byte[] big = new byte[10_000];
        list.prepareForAdd(big, DEFAULT);
        list.push(big, true);
        assertThat(list.isPlain(0)).isTrue();
        assertThat(list.get(0)).isEqualTo(big);
        list.checkInvariants();
    }

    @Test
    void compressDepth_compressesInnerNodesOnly() {
        ListValue.Limits deep = new ListValue.Limits(-1, 1);
        ListValue list = filled(2000, 14, deep);
        list.checkInvariants();
        assertThat(list.isCompressed(0)).isFalse();
        assertThat(list.isCompressed(list.nodeCount() - 1)).isFalse();
        assertThat(list.isCompressed(1)).isTrue();
        assertThat(new String(list.get(1000), StandardCharsets.US_ASCII)).isEqualTo("e0000000001000");
    }

    @Test
    void integers_storedAsIntegerEntries_readBackAsText() {
        ListValue list = new ListValue();
        for (String s : List.of("0", "-1", "127", "-4096", "32767", "8388607", "2147483648", "-9223372036854775808", "007", "-0")) {
            list.prepareForAdd(b(s), DEFAULT);
            list.push(b(s), false);
        }
        List<String> out = new ArrayList<>();
        list.forEach((buf, off, len) -> out.add(new String(buf, off, len, StandardCharsets.US_ASCII)));
        assertThat(out).containsExactly("0", "-1", "127", "-4096", "32767", "8388607", "2147483648",
                "-9223372036854775808", "007", "-0");
        list.checkInvariants();
    }

    @Test
    void positions_rankCountMaxlen() {
        ListValue list = new ListValue();
        for (String s : List.of("a", "b", "c", "1", "2", "3", "c", "c")) {
            list.push(b(s), false);
        }
        assertThat(positions(list, "c", 1, 0, 0)).containsExactly(2L, 6L, 7L);
        assertThat(positions(list, "c", -1, 2, 0)).containsExactly(7L, 6L);
        assertThat(positions(list, "c", 2, 1, 0)).containsExactly(6L);
        assertThat(positions(list, "c", 1, 0, 3)).containsExactly(2L);
        assertThat(positions(list, "3", 1, 0, 0)).containsExactly(5L);
    }

    private static List<Long> positions(ListValue list, String v, long rank, long count, long maxlen) {
        List<Long> out = new ArrayList<>();
        list.positions(b(v), rank, count, maxlen, out::add);
        return out;
    }

    @Test
    void memory_millionFourteenByteElements_atMostRedisFigure() {
        ListValue list = filled(1_000_000, 14, DEFAULT);
        list.checkInvariants();
        // redis-server 7.0.15 reports MEMORY USAGE 16,110,112 for this list (16.11 bytes an element).
        assertThat(list.memoryUsage() / 1_000_000.0).isLessThanOrEqualTo(16.11);
        assertThat(new String(list.get(500_000), StandardCharsets.US_ASCII)).isEqualTo("e0000000500000");
    }

    @Test
    void copy_isIndependent() {
        ListValue list = filled(600, 14, DEFAULT);
        ListValue copy = list.copy();
        list.pop(true);
        copy.checkInvariants();
        assertThat(copy.size()).isEqualTo(600);
        assertThat(copy.memoryUsage()).isGreaterThan(list.memoryUsage() - 100);
    }

    @Test
    void forEach_stringsAroundEachEncodingsLengthLimit_comeBackWhole() {
        ListValue list = new ListValue();
        List<String> pushed = new ArrayList<>();
        for (int length : new int[] {0, 1, 62, 63, 64, 65, 4094, 4095, 4096, 70_000}) {
            String s = "x".repeat(Math.max(0, length - 1)) + (length > 0 ? "y" : "");
            list.prepareForAdd(b(s), DEFAULT);
            list.push(b(s), false);
            pushed.add(s);
            list.prepareForAdd(b("12"), DEFAULT);
            list.push(b("12"), false);
            pushed.add("12");
        }
        List<String> out = new ArrayList<>();
        list.forEach((buf, off, len) -> out.add(new String(buf, off, len, StandardCharsets.US_ASCII)));
        assertThat(out).isEqualTo(pushed);
        list.checkInvariants();
    }
}
