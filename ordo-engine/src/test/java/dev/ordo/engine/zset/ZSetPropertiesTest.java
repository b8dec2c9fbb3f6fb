package dev.ordo.engine.zset;

import dev.ordo.engine.error.ErrorReply;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random operation sequences against {@link SortedListModel}, on the listpack encoding (with
 * limits low enough to convert mid-sequence), the skiplist encoding with tiny nodes and chunks
 * (deep trees, constant splits, merges and arena compaction) and the default skiplist shape.
 * After every step: every invariant holds and the whole content equals the model's.
 */
class ZSetPropertiesTest {
    private static final TreeShape TINY = new TreeShape(4, 4, 128);

    enum Config {
        LISTPACK_THEN_SKIPLIST(ListpackLimits.of(24, 2), TreeShape.DEFAULT),
        SKIPLIST_TINY_NODES(ListpackLimits.of(0, 0), TINY),
        SKIPLIST_DEFAULT(ListpackLimits.of(0, 0), TreeShape.DEFAULT);

        final ListpackLimits limits;
        final TreeShape shape;

        Config(ListpackLimits limits, TreeShape shape) {
            this.limits = limits;
            this.shape = shape;
        }

        ZSet newSet() {
            return new ZSet(limits, shape);
        }
    }

    sealed interface Op permits Add, Incr, Remove, RemoveRank, RemoveScore, Pop, Query {
    }

    record Add(byte[] m, double s, ZAddOptions o) implements Op {
    }

    record Incr(byte[] m, double d, ZAddOptions o) implements Op {
    }

    record Remove(byte[] m) implements Op {
    }

    record RemoveRank(long start, long stop) implements Op {
    }

    record RemoveScore(ScoreRange r) implements Op {
    }

    record Pop(long count, boolean max) implements Op {
    }

    record Query(byte[] m, ScoreRange r, long start, long stop, boolean reverse, long offset, long count) implements Op {
    }

    @Property(tries = 120)
    void randomOperations_matchModel(@ForAll Config config, @ForAll("operations") List<Op> ops) {
        ZSet z = config.newSet();
        SortedListModel model = new SortedListModel();
        for (Op op : ops) {
            apply(op, z, model);
            if (z.encoding() == Encoding.LISTPACK) {
                model.packZeros();
            }
            z.checkInvariants();
            assertThat(ZEntry.collect(z::forEachEntry)).as("after %s", op).isEqualTo(model.entries());
            assertThat(z.size()).isEqualTo(model.size());
        }
    }

    @Property(tries = 60)
    void lexOperations_onEqualScores_matchModel(@ForAll Config config, @ForAll("lexOperations") List<Tuple.Tuple4<byte[], byte[], byte[], Integer>> ops) {
        ZSet z = config.newSet();
        SortedListModel model = new SortedListModel();
        for (var op : ops) {
            z.add(op.get1(), 0);
            model.add(op.get1(), 0, ZAddOptions.NONE);
            LexRange range;
            try {
                range = LexRange.parse(op.get2(), op.get3());
            } catch (ErrorReply e) {
                continue;
            }
            int mode = op.get4();
            long offset = mode % 3 - 1;
            long count = mode % 5 - 1;
            boolean reverse = mode % 2 == 0;
            assertThat(ZEntry.collect(v -> z.rangeByLex(range, reverse, offset, count, v)))
                    .isEqualTo(model.rangeByLex(range, reverse, offset, count));
            assertThat(z.lexCount(range)).isEqualTo(model.rangeByLex(range, false, 0, -1).size());
            if (mode % 7 == 0) {
                long expected = model.removeWhere(e -> range.contains(e.member()));
                assertThat(z.removeRangeByLex(range)).isEqualTo(expected);
            }
            z.checkInvariants();
            assertThat(ZEntry.collect(z::forEachEntry)).isEqualTo(model.entries());
        }
    }

    private static void apply(Op op, ZSet z, SortedListModel model) {
        if (op instanceof Add a) {
            assertThat(z.add(a.m, a.s, a.o)).isEqualTo(model.add(a.m, a.s, a.o));
        } else if (op instanceof Incr i) {
            Double next = model.increment(i.m, i.d, i.o);
            if (next == null) {
                assertThatThrownBy(() -> z.increment(i.m, i.d, i.o)).isInstanceOf(ErrorReply.class)
                        .hasMessage("ERR resulting score is not a number (NaN)");
            } else {
                assertThat(z.increment(i.m, i.d, i.o)).isEqualTo(next);
            }
        } else if (op instanceof Remove r) {
            assertThat(z.remove(r.m)).isEqualTo(model.remove(r.m));
        } else if (op instanceof RemoveRank rr) {
            int[] span = model.indexSpan(rr.start, rr.stop);
            long expected = span == null ? 0 : span[1] - span[0];
            if (span != null) {
                model.entries().subList(span[0], span[1]).clear();
            }
            assertThat(z.removeRange(rr.start, rr.stop)).isEqualTo(expected);
        } else if (op instanceof RemoveScore rs) {
            long expected = model.removeWhere(e -> rs.r.contains(e.score()));
            assertThat(z.removeRangeByScore(rs.r)).isEqualTo(expected);
        } else if (op instanceof Pop p) {
            List<ZEntry> popped = ZEntry.collect(v -> {
                if (p.max) {
                    z.popMax(p.count, v);
                } else {
                    z.popMin(p.count, v);
                }
            });
            assertThat(popped).isEqualTo(model.pop(p.count, p.max));
        } else if (op instanceof Query q) {
            int i = model.indexOf(q.m);
            assertThat(z.rank(q.m)).isEqualTo(i);
            assertThat(z.reverseRank(q.m)).isEqualTo(i < 0 ? -1 : model.size() - 1 - i);
            assertThat(Double.doubleToRawLongBits(z.score(q.m))).isEqualTo(Double.doubleToRawLongBits(model.score(q.m)));
            assertThat(ZEntry.collect(v -> z.range(q.start, q.stop, q.reverse, v)))
                    .isEqualTo(model.range(q.start, q.stop, q.reverse));
            assertThat(ZEntry.collect(v -> z.rangeByScore(q.r, q.reverse, q.offset, q.count, v)))
                    .isEqualTo(model.rangeByScore(q.r, q.reverse, q.offset, q.count));
            assertThat(z.count(q.r)).isEqualTo(model.rangeByScore(q.r, false, 0, -1).size());
        }
    }

    // ------------------------------------------------------------------ generators

    static Arbitrary<byte[]> members() {
        Arbitrary<Byte> alphabet = Arbitraries.of((byte) 0, (byte) 1, (byte) 'a', (byte) 0x7F, (byte) 0x80, (byte) 0xFF);
        return alphabet.array(byte[].class).ofMaxSize(4);
    }

    static Arbitrary<Double> scores() {
        return Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.integers().between(-4, 4).map(Integer::doubleValue)),
                Tuple.of(1, Arbitraries.of(-0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)),
                Tuple.of(2, Arbitraries.doubles().between(-1e6, 1e6)),
                Tuple.of(1, Arbitraries.of(Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, 1e300)));
    }

    static Arbitrary<ZAddOptions> options() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(ZAddOptions.NONE)),
                Tuple.of(1, Arbitraries.just(ZAddOptions.NONE.nx())),
                Tuple.of(1, Arbitraries.just(ZAddOptions.NONE.xx())),
                Tuple.of(1, Arbitraries.just(ZAddOptions.NONE.gt())),
                Tuple.of(1, Arbitraries.just(ZAddOptions.NONE.lt())),
                Tuple.of(1, Arbitraries.just(ZAddOptions.NONE.xx().gt())),
                Tuple.of(1, Arbitraries.just(ZAddOptions.NONE.xx().lt())),
                Tuple.of(1, Arbitraries.just(ZAddOptions.NONE.incr().gt())));
    }

    static Arbitrary<ScoreRange> scoreRanges() {
        return Combinators.combine(scores(), Arbitraries.of(true, false), scores(), Arbitraries.of(true, false))
                .as((a, ax, b, bx) -> ScoreRange.of(Math.min(a, b), ax, Math.max(a, b), bx));
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<Long> index = Arbitraries.longs().between(-40, 40);
        Arbitrary<Op> add = Combinators.combine(members(), scores(), options()).as(Add::new);
        Arbitrary<Op> incr = Combinators.combine(members(), scores(), options()).as((m, d, o) -> new Incr(m, d, o.incr()));
        Arbitrary<Op> remove = members().map(Remove::new);
        Arbitrary<Op> removeRank = Combinators.combine(index, index).as(RemoveRank::new);
        Arbitrary<Op> removeScore = scoreRanges().map(RemoveScore::new);
        Arbitrary<Op> pop = Combinators.combine(Arbitraries.longs().between(-1, 5), Arbitraries.of(true, false)).as(Pop::new);
        Arbitrary<Op> query = Combinators.combine(members(), scoreRanges(), index, index, Arbitraries.of(true, false),
                Arbitraries.longs().between(-1, 10), Arbitraries.longs().between(-2, 30)).as(Query::new);
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(30, add), Tuple.of(8, incr), Tuple.of(10, remove), Tuple.of(1, removeRank),
                Tuple.of(1, removeScore), Tuple.of(2, pop), Tuple.of(8, query));
        return op.list().ofMinSize(1).ofMaxSize(400);
    }

    @Provide
    Arbitrary<List<Tuple.Tuple4<byte[], byte[], byte[], Integer>>> lexOperations() {
        Arbitrary<byte[]> bound = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(new byte[] {'-'})),
                Tuple.of(1, Arbitraries.just(new byte[] {'+'})),
                Tuple.of(4, members().map(m -> prefixed('[', m))),
                Tuple.of(4, members().map(m -> prefixed('(', m))),
                Tuple.of(1, members()));
        return Combinators.combine(members(), bound, bound, Arbitraries.integers().between(0, 1000))
                .as(Tuple::of).list().ofMinSize(1).ofMaxSize(300);
    }

    private static byte[] prefixed(char c, byte[] m) {
        byte[] out = new byte[m.length + 1];
        out[0] = (byte) c;
        System.arraycopy(m, 0, out, 1, m.length);
        return out;
    }
}
