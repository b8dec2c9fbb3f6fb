package dev.ordo.patterns.leaderboard;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderedNamesTest {
    /** How a sorted set orders equal-score members: memcmp of the bytes, a shorter prefix first. */
    private static int memcmp(String x, String y) {
        return Integer.signum(Arrays.compareUnsigned(
                x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)));
    }

    private static final Comparator<String> MEMBER_ORDER = OrderedNamesTest::memcmp;

    @Property(tries = 1000)
    void encodeLong_randomLongs_byteOrderEqualsNumericOrder(@ForAll long a, @ForAll long b) {
        assertThat(memcmp(OrderedNames.encodeLong(a), OrderedNames.encodeLong(b)))
                .isEqualTo(Integer.signum(Long.compare(a, b)));
    }

    @Property(tries = 1000)
    void encodeLongDescending_randomLongs_byteOrderIsReverseNumericOrder(@ForAll long a, @ForAll long b) {
        assertThat(memcmp(OrderedNames.encodeLongDescending(a), OrderedNames.encodeLongDescending(b)))
                .isEqualTo(-Integer.signum(Long.compare(a, b)));
    }

    @Property(tries = 1000)
    void encodeLong_neighbours_orderedAcrossSignAndByteBoundaries(@ForAll long a) {
        if (a != Long.MAX_VALUE) {
            assertThat(memcmp(OrderedNames.encodeLong(a), OrderedNames.encodeLong(a + 1))).isEqualTo(-1);
            assertThat(memcmp(OrderedNames.encodeLongDescending(a), OrderedNames.encodeLongDescending(a + 1)))
                    .isEqualTo(1);
        }
    }

    @Property(tries = 1000)
    void decodeLong_anyLong_roundTripsAtFixedWidth(@ForAll long v) {
        String up = OrderedNames.encodeLong(v);
        String down = OrderedNames.encodeLongDescending(v);
        assertThat(up).hasSize(OrderedNames.WIDTH).matches("[0-9a-f]{16}");
        assertThat(down).hasSize(OrderedNames.WIDTH).matches("[0-9a-f]{16}");
        assertThat(OrderedNames.decodeLong(up)).isEqualTo(v);
        assertThat(OrderedNames.decodeLongDescending(down)).isEqualTo(v);
    }

    @Test
    void encodeLong_extremes_areTheSmallestAndLargestTexts() {
        assertThat(OrderedNames.encodeLong(Long.MIN_VALUE)).isEqualTo("0000000000000000");
        assertThat(OrderedNames.encodeLong(-1)).isEqualTo("7fffffffffffffff");
        assertThat(OrderedNames.encodeLong(0)).isEqualTo("8000000000000000");
        assertThat(OrderedNames.encodeLong(Long.MAX_VALUE)).isEqualTo("ffffffffffffffff");
        assertThat(OrderedNames.encodeLongDescending(Long.MAX_VALUE)).isEqualTo("0000000000000000");
        assertThat(OrderedNames.encodeLongDescending(Long.MIN_VALUE)).isEqualTo("ffffffffffffffff");
    }

    @Test
    void decodeLong_malformedText_rejects() {
        for (String bad : new String[] {"", "800000000000000", "80000000000000000", "8000000000000OOO",
                "800000000000000A", "80000000000000-0"}) {
            assertThatThrownBy(() -> OrderedNames.decodeLong(bad))
                    .as("'%s'", bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Property(tries = 500)
    void idOf_joinedNameWithAnyId_returnsIdAndFields(@ForAll("ids") String id, @ForAll List<Long> values) {
        String[] fields = values.stream().map(OrderedNames::encodeLong).toArray(String[]::new);
        String name = OrderedNames.join(id, fields);
        assertThat(OrderedNames.idOf(name, fields.length)).isEqualTo(id);
        for (int i = 0; i < fields.length; i++) {
            assertThat(OrderedNames.decodeLong(OrderedNames.fieldOf(name, fields.length, i))).isEqualTo(values.get(i));
        }
    }

    @Test
    void idOf_idsContainingSeparatorOrEmpty_parsesFromTheLeft() {
        String f = OrderedNames.encodeLong(7);
        for (String id : new String[] {"-", "a-b-c", "-" + f, f + "-" + f, "", "玩家-1"}) {
            String name = OrderedNames.join(id, f, f);
            assertThat(OrderedNames.idOf(name, 2)).as(name).isEqualTo(id);
            assertThat(OrderedNames.fieldOf(name, 2, 1)).isEqualTo(f);
        }
        assertThat(OrderedNames.join("a-b", f)).isEqualTo("8000000000000007-a-b");
        assertThat(OrderedNames.idOf("no-fields", 0)).isEqualTo("no-fields");
    }

    @Test
    void idOf_nameNotBuiltWithThatFieldCount_rejects() {
        String name = OrderedNames.join("alice", OrderedNames.encodeLong(1));
        assertThatThrownBy(() -> OrderedNames.idOf(name, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderedNames.idOf("alice", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderedNames.idOf(name.replace('-', '+'), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderedNames.fieldOf(name, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderedNames.join("alice", "7")).isInstanceOf(IllegalArgumentException.class);
    }

    @Property(tries = 1000)
    void join_differentFields_orderFollowsFieldsWhateverTheIds(
            @ForAll long a1, @ForAll long a2, @ForAll long b1, @ForAll long b2,
            @ForAll("ids") String id1, @ForAll("ids") String id2) {
        String x = OrderedNames.join(id1, OrderedNames.encodeLong(a1), OrderedNames.encodeLongDescending(b1));
        String y = OrderedNames.join(id2, OrderedNames.encodeLong(a2), OrderedNames.encodeLongDescending(b2));
        int expected = a1 != a2 ? Long.compare(a1, a2) : b1 != b2 ? Long.compare(b2, b1) : memcmp(id1, id2);
        assertThat(memcmp(x, y)).isEqualTo(Integer.signum(expected));
    }

    /**
     * The seed article's five players all at one score, read highest first as ZREVRANGE does
     * (reverse member order). Fields first: paid players before unpaid, then the earlier first;
     * only A and C, equal in both fields, fall back to the id.
     */
    @Test
    void join_seedRowsAtEqualScore_reverseMemberOrderRanksPaidThenEarlier() {
        record Row(String player, long paid, long ts) {
        }
        List<Row> rows = List.of(
                new Row("A", 1, 1571819021259L),
                new Row("B", 0, 1571819021259L),
                new Row("C", 1, 1571819021259L),
                new Row("0", 1, 1571810001259L)); // the article's E, under an id that sorts first
        List<String> names = new ArrayList<>();
        for (Row r : rows) {
            names.add(OrderedNames.join(r.player(),
                    OrderedNames.encodeLong(r.paid()), OrderedNames.encodeLongDescending(r.ts())));
        }
        names.sort(MEMBER_ORDER.reversed());
        assertThat(names.stream().map(n -> OrderedNames.idOf(n, 2))).containsExactly("0", "C", "A", "B");
    }

    /** The article's names put the id first, so ties break by id: here E ("0") lands last, not first. */
    @Test
    void seedNames_idFirst_tiesBreakByIdNotByDimensions() {
        List<String> names = new ArrayList<>(List.of(
                "A-1-" + (9999999999999L - 1571819021259L),
                "B-0-" + (9999999999999L - 1571819021259L),
                "C-1-" + (9999999999999L - 1571819021259L),
                "0-1-" + (9999999999999L - 1571810001259L)));
        names.sort(MEMBER_ORDER.reversed());
        assertThat(names.stream().map(n -> n.substring(0, 1))).containsExactly("C", "B", "A", "0");
    }

    @Provide
    Arbitrary<String> ids() {
        return Arbitraries.oneOf(List.of(
                Arbitraries.strings().withChars("-0123456789abcdef").ofMaxLength(40),
                Arbitraries.strings().ofMaxLength(20)));
    }
}
