package dev.ordo.engine.list;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random operation sequences against {@link ArrayList} as the model, with random node limits
 * (sizes and counts, small enough for constant conversions, splits and plain nodes) and
 * compression depths. After every step the invariants hold and the content equals the model's.
 */
class ListValuePropertiesTest {
    sealed interface Op permits Push, Pop, Set, Insert, Remove, Trim, RemoveRange {
    }

    record Push(byte[] v, boolean head) implements Op {
    }

    record Pop(boolean head) implements Op {
    }

    record Set(long index, byte[] v) implements Op {
    }

    record Insert(byte[] pivot, byte[] v, boolean after) implements Op {
    }

    record Remove(byte[] v, long count) implements Op {
    }

    record Trim(long start, long count) implements Op {
    }

    record RemoveRange(long start, long count) implements Op {
    }

    @Property(tries = 300)
    void randomOperations_matchModel(@ForAll("operations") List<Op> ops, @ForAll @IntRange(min = -5, max = 12) int fill,
                                     @ForAll @IntRange(min = 0, max = 3) int depth) {
        ListValue.Limits limits = new ListValue.Limits(fill, depth);
        ListValue list = new ListValue();
        List<String> model = new ArrayList<>();
        for (Op op : ops) {
            apply(op, list, model, limits);
            list.checkInvariants();
            assertThat(contents(list)).as("after %s", op).isEqualTo(model);
            assertThat(list.size()).isEqualTo(model.size());
            if (!model.isEmpty()) {
                int i = model.size() / 2;
                assertThat(str(list.get(i))).isEqualTo(model.get(i));
                assertThat(str(list.get(-1))).isEqualTo(model.get(model.size() - 1));
            }
        }
        boolean compressed = false;
        boolean plain = false;
        for (int i = 0; i < list.nodeCount(); i++) {
            compressed |= list.isCompressed(i);
            plain |= list.isPlain(i);
        }
        Statistics.label("compressed node").collect(compressed);
        Statistics.label("plain node").collect(plain);
        Statistics.label("quicklist").collect(list.encoding() == ListValue.Encoding.QUICKLIST);
        Statistics.label("compressed node").coverage(c -> c.check(true).count(n -> n > 0));
        Statistics.label("plain node").coverage(c -> c.check(true).count(n -> n > 0));
        Statistics.label("quicklist").coverage(c -> c.check(false).count(n -> n > 0));
        for (String v : new java.util.TreeSet<>(model)) {
            List<Long> found = new ArrayList<>();
            list.positions(bytes(v), -1, 0, 0, found::add);
            List<Long> expected = new ArrayList<>();
            for (int i = model.size() - 1; i >= 0; i--) {
                if (model.get(i).equals(v)) {
                    expected.add((long) i);
                }
            }
            assertThat(found).isEqualTo(expected);
        }
    }

    /**
     * Staged head pushes ({@link ListValue}'s class comment) change nothing but when node 0's
     * shift happens: a list whose staged entries are flushed after every operation (each public
     * read flushes) and one left to stage across runs of operations end with the same nodes, byte
     * for byte, the same counts, flags and memory. The staged state is checked after every step.
     */
    @Property(tries = 300)
    void stagedHeadPushes_leaveTheNodesOfOneAtATime(@ForAll("headHeavyOperations") List<Op> ops,
                                                     @ForAll @IntRange(min = -5, max = 12) int fill,
                                                     @ForAll @IntRange(min = 0, max = 3) int depth,
                                                     @ForAll @IntRange(min = 1, max = 40) int compareEvery) {
        ListValue.Limits limits = new ListValue.Limits(fill, depth);
        ListValue flushed = new ListValue();
        ListValue staged = new ListValue();
        List<String> model = new ArrayList<>();
        List<String> stagedModel = new ArrayList<>();
        for (int k = 0; k < ops.size(); k++) {
            apply(ops.get(k), flushed, model, limits);
            flushed.nodeCount();
            apply(ops.get(k), staged, stagedModel, limits);
            staged.checkInvariants();
            assertThat(staged.size()).isEqualTo(flushed.size());
            assertThat(staged.memoryUsage()).isEqualTo(flushed.memoryUsage());
            if ((k + 1) % compareEvery == 0 || k == ops.size() - 1) {
                assertSameNodes(staged, flushed);
                assertThat(contents(staged)).isEqualTo(model);
            }
        }
    }

    private static void assertSameNodes(ListValue actual, ListValue expected) {
        assertThat(actual.nodeCount()).isEqualTo(expected.nodeCount());
        assertThat(actual.encoding()).isEqualTo(expected.encoding());
        for (int i = 0; i < expected.nodeCount(); i++) {
            assertThat(actual.countOf(i)).as("count of node %d", i).isEqualTo(expected.countOf(i));
            assertThat(actual.isPlain(i)).as("node %d plain", i).isEqualTo(expected.isPlain(i));
            assertThat(actual.isCompressed(i)).as("node %d compressed", i).isEqualTo(expected.isCompressed(i));
            int bytes = expected.rawSize(i);
            assertThat(actual.rawSize(i)).as("bytes of node %d", i).isEqualTo(bytes);
            assertThat(Arrays.copyOf(actual.rawNode(i), bytes)).as("node %d", i).isEqualTo(Arrays.copyOf(expected.rawNode(i), bytes));
        }
        actual.checkInvariants();
    }

    private static void apply(Op op, ListValue list, List<String> model, ListValue.Limits limits) {
        if (op instanceof Push p) {
            list.prepareForAdd(p.v(), limits);
            list.push(p.v(), p.head());
            model.add(p.head() ? 0 : model.size(), str(p.v()));
        } else if (op instanceof Pop p) {
            byte[] v = list.pop(p.head());
            String expected = model.isEmpty() ? null : model.remove(p.head() ? 0 : model.size() - 1);
            assertThat(v == null ? null : str(v)).isEqualTo(expected);
            list.compactEncoding(limits);
        } else if (op instanceof Set s) {
            if (model.isEmpty()) {
                return;
            }
            int i = Math.floorMod(s.index(), model.size());
            list.prepareForAdd(s.v(), limits);
            list.set(i, s.v());
            model.set(i, str(s.v()));
            list.compactEncoding(limits);
        } else if (op instanceof Insert ins) {
            list.prepareForAdd(ins.v(), limits);
            int at = model.indexOf(str(ins.pivot()));
            assertThat(list.insert(ins.pivot(), ins.v(), ins.after())).isEqualTo(at >= 0);
            if (at >= 0) {
                model.add(ins.after() ? at + 1 : at, str(ins.v()));
            }
        } else if (op instanceof Remove r) {
            long expected = removeFromModel(model, str(r.v()), r.count());
            assertThat(list.remove(r.v(), r.count())).isEqualTo(expected);
            list.compactEncoding(limits);
        } else if (op instanceof Trim t) {
            int start = (int) Math.min(t.start(), model.size());
            int count = (int) Math.min(t.count(), model.size() - start);
            list.retain(start, count);
            List<String> kept = new ArrayList<>(model.subList(start, start + count));
            model.clear();
            model.addAll(kept);
            list.compactEncoding(limits);
        } else if (op instanceof RemoveRange rr) {
            int start = (int) Math.min(rr.start(), model.size());
            int count = (int) Math.min(rr.count(), model.size() - start);
            list.removeRange(start, count);
            model.subList(start, start + count).clear();
            list.compactEncoding(limits);
        }
    }

    private static long removeFromModel(List<String> model, String v, long count) {
        long removed = 0;
        long wanted = count == 0 ? Long.MAX_VALUE : Math.abs(count);
        if (count >= 0) {
            for (int i = 0; i < model.size() && removed < wanted; ) {
                if (model.get(i).equals(v)) {
                    model.remove(i);
                    removed++;
                } else {
                    i++;
                }
            }
        } else {
            for (int i = model.size() - 1; i >= 0 && removed < wanted; i--) {
                if (model.get(i).equals(v)) {
                    model.remove(i);
                    removed++;
                }
            }
        }
        return removed;
    }

    static List<String> contents(ListValue list) {
        List<String> out = new ArrayList<>();
        list.forEach((b, off, len) -> out.add(new String(b, off, len, StandardCharsets.ISO_8859_1)));
        return out;
    }

    static String str(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        return operations(6, 6, 160);
    }

    /** Long runs of head pushes (queues, LPUSH-heavy feeds) between the other operations. */
    @Provide
    Arbitrary<List<Op>> headHeavyOperations() {
        return operations(40, 4, 400);
    }

    private static Arbitrary<List<Op>> operations(int headPushes, int tailPushes, int maxSize) {
        Arbitrary<byte[]> value = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(10, Arbitraries.of("a", "b", "c", "0", "1", "-1", "127", "128", "-4096", "4096", "70000", "-9000000",
                        "9000000000", "-9223372036854775808", "9223372036854775807", "01", "-0", "+5", "")
                        .map(ListValuePropertiesTest::bytes)),
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0, 60).map(n -> repeat('x', n))),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(60, 9000).map(n -> repeat('y', n))));
        Arbitrary<Long> index = Arbitraries.longs().between(0, 300);
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(headPushes, value.map(v -> new Push(v, true))),
                net.jqwik.api.Tuple.of(tailPushes, value.map(v -> new Push(v, false))),
                net.jqwik.api.Tuple.of(2, Arbitraries.of(true, false).map(Pop::new)),
                net.jqwik.api.Tuple.of(2, Combinators.combine(index, value).as(Set::new)),
                net.jqwik.api.Tuple.of(2, Combinators.combine(value, value, Arbitraries.of(true, false)).as(Insert::new)),
                net.jqwik.api.Tuple.of(1, Combinators.combine(value, Arbitraries.longs().between(-3, 3)).as(Remove::new)),
                net.jqwik.api.Tuple.of(1, Combinators.combine(Arbitraries.longs().between(0, 5), Arbitraries.longs().between(0, 200)).as(Trim::new)),
                net.jqwik.api.Tuple.of(1, Combinators.combine(index, Arbitraries.longs().between(0, 40)).as(RemoveRange::new)));
        return op.list().ofMaxSize(maxSize);
    }

    private static byte[] repeat(char c, int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) c);
        return b;
    }

}
