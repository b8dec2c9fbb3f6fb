package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.leaderboard.ScoreCodec.Dimension;
import dev.ordo.patterns.leaderboard.ScoreCodec.Direction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.ordo.patterns.leaderboard.ScoreCodec.Direction.HIGHER_RANKS_FIRST;
import static dev.ordo.patterns.leaderboard.ScoreCodec.Direction.LOWER_RANKS_FIRST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScoreCodecTest {
    private static final double TWO_POW_53 = 0x1p53;

    // ---- the seed article's "method two", copied as written: 33 + 1 + 29 bits in a long ----

    private static final int SEED_SIZE1 = 33;
    private static final int SEED_SIZE2 = 1;
    private static final int SEED_SIZE3 = 29;
    private static final int SEED_MAX_SECOND = 1861891200; // 2029-01-01
    private static final long SEED_TS = 1571819021259L;     // rows A..D
    private static final long SEED_TS_E = 1571810001259L;   // row E

    private static long seedMaxBySize(int len) {
        long r = 0;
        while (len-- > 0) {
            r = ((r << 1) | 1);
        }
        return r;
    }

    private static long seedGenScore(long d1, long d2, long d3) {
        return ((d1 & seedMaxBySize(SEED_SIZE1)) << (SEED_SIZE2 + SEED_SIZE3))
                | ((d2 & seedMaxBySize(SEED_SIZE2)) << SEED_SIZE3)
                | (d3 & seedMaxBySize(SEED_SIZE3));
    }

    private static long seedSts(long ts) {
        return SEED_MAX_SECOND - (int) (ts / 1000);
    }

    /** What a server does with a ZADD score argument: parse the text into a double (strtod). */
    private static double asServerScore(long seedScore) {
        return Double.parseDouble(Long.toString(seedScore));
    }

    @Test
    void seedGenScore_seedExampleRows_matchArticleAndStayExactBecausePointsAreSmall() {
        assertThat(seedSts(SEED_TS)).isEqualTo(290072179L);
        assertThat(seedGenScore(200, 1, seedSts(SEED_TS))).isEqualTo(215575307891L);
        assertThat(seedGenScore(200, 1, seedSts(SEED_TS_E))).isEqualTo(215575316911L);
        // The article's own rows use only 38 of the 63 bits: their demo cannot show the rounding.
        for (long points : new long[] {100, 200, 400}) {
            long seedScore = seedGenScore(points, 1, seedSts(SEED_TS));
            assertThat(seedScore).isLessThan(1L << 53);
            assertThat((long) asServerScore(seedScore)).isEqualTo(seedScore);
        }
    }

    @Test
    void seedGenScore_pointsFromTwoPow23_doNotSurviveConversionToDouble() {
        // 2^23 - 1 points is the last value below 2^53: exact. 2^23 points is within the seed's
        // 33-bit field (up to 2^33 - 1), and the same player's score no longer survives.
        long exact = seedGenScore((1L << 23) - 1, 1, seedSts(SEED_TS));
        assertThat((long) asServerScore(exact)).isEqualTo(exact);

        long seedScore = seedGenScore(1L << 23, 1, seedSts(SEED_TS));
        assertThat(seedScore).isEqualTo(9007200081684083L);
        long back = (long) asServerScore(seedScore);
        assertThat(back).isEqualTo(9007200081684084L).isNotEqualTo(seedScore);
        assertThat(back & seedMaxBySize(SEED_SIZE3)).as("decoded sts").isEqualTo(290072180L);
    }

    @Test
    void seedGenScore_maxPointsOfSeedLayout_twoPlayersCollapseAndTimeIsOffBy397Seconds() {
        long maxPoints = seedMaxBySize(SEED_SIZE1);
        long earlier = seedGenScore(maxPoints, 1, seedSts(SEED_TS));
        long oneSecondLater = seedGenScore(maxPoints, 1, seedSts(SEED_TS + 1000));
        assertThat(earlier).isNotEqualTo(oneSecondLater);
        // Stored as doubles the two players tie: the earlier one no longer ranks first.
        assertThat(asServerScore(earlier)).isEqualTo(asServerScore(oneSecondLater));

        long back = (long) asServerScore(earlier);
        assertThat(back).isEqualTo(9223372036607977472L).isNotEqualTo(earlier);
        long decodedSts = back & seedMaxBySize(SEED_SIZE3);
        assertThat(decodedSts).isEqualTo(290072576L);
        assertThat(decodedSts - seedSts(SEED_TS)).isEqualTo(397L);
        // Reading the reply as bytes (the article's zscoreBytes) cannot help: the server's double
        // already is the rounded value, and its shortest text parses back to that same double.
        assertThat(Double.parseDouble(Double.toString(asServerScore(earlier))))
                .isEqualTo(asServerScore(earlier));
    }

    @Test
    void build_seedLayout33Plus1Plus29_rejectsWithTotalAndTwoPow53() {
        ScoreCodec.Builder seed = ScoreCodec.builder()
                .dimension("points", SEED_SIZE1, HIGHER_RANKS_FIRST)
                .dimension("paid", SEED_SIZE2, HIGHER_RANKS_FIRST)
                .dimension("time", SEED_SIZE3, LOWER_RANKS_FIRST);
        assertThatThrownBy(seed::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("63 bits")
                .hasMessageContaining("points 33 + paid 1 + time 29")
                .hasMessageContaining("integers exactly only up to 2^53");
    }

    // ---- the seed's dimensions in 53 bits: points 23 + paid 1 + time 29 ----

    private static final long EPOCH_SECOND = 1_500_000_000L; // 2017-07-14; 29 bits last until 2034

    private static ScoreCodec seedIn53Bits() {
        return ScoreCodec.builder()
                .dimension("points", 23, HIGHER_RANKS_FIRST)
                .dimension("paid", 1, HIGHER_RANKS_FIRST)
                .dimension("time", 29, LOWER_RANKS_FIRST)
                .build();
    }

    @Test
    void dimensions_seedDimensionsIn53Bits_shiftsAndMultipliers() {
        ScoreCodec codec = seedIn53Bits();
        assertThat(codec.totalBits()).isEqualTo(53);
        assertThat(codec.dimensions()).containsExactly(
                new Dimension("points", 23, HIGHER_RANKS_FIRST, 30),
                new Dimension("paid", 1, HIGHER_RANKS_FIRST, 29),
                new Dimension("time", 29, LOWER_RANKS_FIRST, 0));
        assertThat(codec.dimension("points").multiplier()).isEqualTo(0x1p30);
        assertThat(codec.dimension("paid").multiplier()).isEqualTo(0x1p29);
        assertThat(codec.dimension("time").multiplier()).isEqualTo(1.0);
        assertThat(codec.dimension("time").modulus()).isEqualTo(0x1p29);
        assertThat(codec.dimension("time").stored(0)).isEqualTo((1L << 29) - 1);
    }

    @Test
    void encode_seedRowsIn53BitLayout_rankAsTheArticleIntends() {
        ScoreCodec codec = seedIn53Bits();
        record Row(String player, long points, long paid, long ts) {
        }
        List<Row> rows = List.of(
                new Row("A", 100, 1, SEED_TS),
                new Row("B", 200, 0, SEED_TS),
                new Row("C", 200, 1, SEED_TS),
                new Row("D", 400, 0, SEED_TS),
                new Row("E", 200, 1, SEED_TS_E));
        Map<String, Double> scores = new LinkedHashMap<>();
        for (Row r : rows) {
            scores.put(r.player(), codec.encode(r.points(), r.paid(), r.ts() / 1000 - EPOCH_SECOND));
        }
        List<String> highestFirst = new ArrayList<>(scores.keySet());
        highestFirst.sort(Comparator.comparing(scores::get, Comparator.reverseOrder()));
        // 400 first; among 200s the paid players, the earlier E before C; then unpaid B; then A.
        assertThat(highestFirst).containsExactly("D", "E", "C", "B", "A");
        assertThat(codec.decode(scores.get("E"))).containsExactly(200, 1, SEED_TS_E / 1000 - EPOCH_SECOND);
    }

    // ---- round trips ----

    @Property(tries = 200)
    void encodeDecode_everyWidthInA53BitLayout_roundTrips(
            @ForAll Direction first, @ForAll Direction second, @ForAll("unitFractions") double f1,
            @ForAll("unitFractions") double f2) {
        for (int bits = 1; bits <= 52; bits++) {
            ScoreCodec codec = ScoreCodec.builder()
                    .dimension("a", bits, first)
                    .dimension("b", 53 - bits, second)
                    .build();
            long a = valueAt(f1, bits);
            long b = valueAt(f2, 53 - bits);
            double score = codec.encode(a, b);
            assertExactInteger(score);
            assertThat(codec.decode(score)).as("bits %d", bits).containsExactly(a, b);
            assertThat(codec.decode(score, "a")).isEqualTo(a);
            assertThat(codec.decode(score, "b")).isEqualTo(b);
            ScoreCodec single = ScoreCodec.builder().dimension("only", bits, first).build();
            assertThat(single.decode(single.encode(a))).containsExactly(a);
        }
    }

    @Property(tries = 300)
    void encodeDecode_randomLayoutsAndValues_roundTrip(@ForAll("cases") Case c) {
        double score = c.codec().encode(c.values());
        assertExactInteger(score);
        assertThat(score).isLessThan(Math.scalb(1.0, c.codec().totalBits()));
        assertThat(c.codec().decode(score)).containsExactly(c.values());
        Map<String, Long> byName = new LinkedHashMap<>();
        for (int i = 0; i < c.values().length; i++) {
            byName.put(c.codec().dimensions().get(i).name(), c.values()[i]);
        }
        assertThat(c.codec().encode(byName)).isEqualTo(score);
    }

    @Test
    void encodeDecode_all53BitsSet_isTwoPow53MinusOneAndRoundTrips() {
        ScoreCodec codec = ScoreCodec.builder()
                .dimension("high", 52, HIGHER_RANKS_FIRST)
                .dimension("low", 1, LOWER_RANKS_FIRST)
                .build();
        double score = codec.encode((1L << 52) - 1, 0);
        assertThat(score).isEqualTo(TWO_POW_53 - 1);
        assertThat(codec.decode(score)).containsExactly((1L << 52) - 1, 0);
        assertThat(codec.encode(0, 1)).isEqualTo(0.0);
    }

    // ---- ordering ----

    @Property(tries = 500)
    void encode_twoTuples_scoreOrderIsLexicographicWithDirections(@ForAll("pairs") Pair p) {
        int byScore = Integer.signum(Double.compare(p.codec().encode(p.a()), p.codec().encode(p.b())));
        int expected = 0;
        for (int i = 0; i < p.a().length && expected == 0; i++) {
            int cmp = Long.compare(p.a()[i], p.b()[i]);
            expected = p.codec().dimensions().get(i).direction() == HIGHER_RANKS_FIRST ? cmp : -cmp;
        }
        assertThat(byScore).isEqualTo(Integer.signum(expected));
    }

    // ---- replace: the Lua script's double-only arithmetic ----

    @Property(tries = 500)
    void replace_randomInputs_equalsEncodeOfChangedTuple(@ForAll("pairs") Pair p, @ForAll("indexFractions") double pick) {
        ScoreCodec codec = p.codec();
        int index = (int) (pick * codec.dimensions().size());
        String name = codec.dimensions().get(index).name();
        long[] changed = p.a().clone();
        changed[index] = p.b()[index];
        double replaced = codec.replace(codec.encode(p.a()), name, p.b()[index]);
        assertThat(replaced).isEqualTo(codec.encode(changed));
        assertThat(codec.decode(replaced)).containsExactly(changed);
    }

    @Test
    void replace_53BitLayoutAtExtremes_isExact() {
        ScoreCodec codec = ScoreCodec.builder()
                .dimension("high", 1, HIGHER_RANKS_FIRST)
                .dimension("mid", 51, LOWER_RANKS_FIRST)
                .dimension("low", 1, HIGHER_RANKS_FIRST)
                .build();
        long maxMid = (1L << 51) - 1;
        double top = codec.encode(1, 0, 1);
        assertThat(top).isEqualTo(TWO_POW_53 - 1);
        assertThat(codec.replace(top, "mid", maxMid)).isEqualTo(codec.encode(1, maxMid, 1));
        assertThat(codec.replace(top, "low", 0)).isEqualTo(TWO_POW_53 - 2);
        assertThat(codec.replace(top, "high", 0)).isEqualTo(0x1p52 - 1);
        assertThat(codec.replace(0.0, "mid", 0)).isEqualTo(codec.encode(0, 0, 0));
    }

    // ---- rejections ----

    @Test
    void encode_valueOutOfRange_rejectsNamingDimensionValueAndRange() {
        ScoreCodec codec = seedIn53Bits();
        assertThatThrownBy(() -> codec.encode(1L << 23, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'points'")
                .hasMessageContaining("8388608")
                .hasMessageContaining("[0, 8388607]");
        assertThatThrownBy(() -> codec.encode(0, -1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'paid'")
                .hasMessageContaining("-1")
                .hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> codec.encode(Map.of("points", 1L, "paid", 2L, "time", 0L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'paid' value 2");
        assertThatThrownBy(() -> codec.replace(0.0, "time", 1L << 29))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'time' value 536870912");
    }

    @Test
    void encode_wrongValueCountOrNames_rejects() {
        ScoreCodec codec = seedIn53Bits();
        assertThatThrownBy(() -> codec.encode(1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 3 values");
        assertThatThrownBy(() -> codec.encode(Map.of("points", 1L, "paid", 1L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no value for dimension 'time'");
        assertThatThrownBy(() -> codec.encode(Map.of("points", 1L, "paid", 1L, "time", 1L, "level", 1L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown dimension 'level'");
        assertThatThrownBy(() -> codec.decode(0.0, "level"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown dimension 'level'");
    }

    @Test
    void decode_scoreNotAnIntegerInRange_rejects() {
        ScoreCodec codec = ScoreCodec.builder().dimension("a", 10, HIGHER_RANKS_FIRST).build();
        for (double bad : new double[] {-1, 0.5, 1023.5, 1024, Double.NaN, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, TWO_POW_53}) {
            assertThatThrownBy(() -> codec.decode(bad))
                    .as("score %s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not an integer in [0, 2^10)");
            assertThatThrownBy(() -> codec.replace(bad, "a", 0)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(codec.decode(1023)).containsExactly(1023);
    }

    @Test
    void build_badWidthsNamesOrNoDimensions_rejects() {
        assertThatThrownBy(() -> ScoreCodec.builder().dimension("a", 0, HIGHER_RANKS_FIRST).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..52");
        assertThatThrownBy(() -> ScoreCodec.builder().dimension("a", 53, HIGHER_RANKS_FIRST).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..52");
        assertThatThrownBy(() -> ScoreCodec.builder().dimension("", 3, HIGHER_RANKS_FIRST).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty name");
        assertThatThrownBy(() -> ScoreCodec.builder()
                .dimension("a", 3, HIGHER_RANKS_FIRST)
                .dimension("a", 3, LOWER_RANKS_FIRST).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'a' is declared twice");
        assertThatThrownBy(() -> ScoreCodec.builder().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one dimension");
        assertThatThrownBy(() -> ScoreCodec.builder()
                .dimension("a", 52, HIGHER_RANKS_FIRST)
                .dimension("b", 2, HIGHER_RANKS_FIRST).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("54 bits");
    }

    // ---- generators ----

    record Case(ScoreCodec codec, long[] values) {
        @Override
        public String toString() {
            return codec + " " + Arrays.toString(values);
        }
    }

    record Pair(ScoreCodec codec, long[] a, long[] b) {
        @Override
        public String toString() {
            return codec + " " + Arrays.toString(a) + " vs " + Arrays.toString(b);
        }
    }

    @Provide
    Arbitrary<Double> unitFractions() {
        return Arbitraries.doubles().between(0, 1);
    }

    @Provide
    Arbitrary<Double> indexFractions() {
        return Arbitraries.doubles().between(0, 1).filter(d -> d < 1);
    }

    /** Layouts of 1..7 dimensions, often filled up to exactly 53 bits. */
    @Provide
    Arbitrary<ScoreCodec> layouts() {
        Arbitrary<List<Integer>> widths = Arbitraries.integers().between(1, 52).list().ofMinSize(1).ofMaxSize(6);
        Arbitrary<List<Direction>> directions = Arbitraries.of(Direction.class).list().ofSize(7);
        return Combinators.combine(widths, directions, Arbitraries.of(true, false)).as((ws, ds, fill) -> {
            ScoreCodec.Builder b = ScoreCodec.builder();
            int total = 0;
            int n = 0;
            for (int w : ws) {
                if (total + w > 53) {
                    break;
                }
                b.dimension("d" + n, w, ds.get(n));
                total += w;
                n++;
            }
            if (fill && total < 53) {
                b.dimension("d" + n, 53 - total, ds.get(n));
            }
            return b.build();
        });
    }

    @Provide
    Arbitrary<Case> cases() {
        return layouts().flatMap(codec -> values(codec).map(v -> new Case(codec, v)));
    }

    /** Two tuples for one layout; each field of the second equals the first's about half the time. */
    @Provide
    Arbitrary<Pair> pairs() {
        return layouts().flatMap(codec -> {
            int n = codec.dimensions().size();
            return Combinators.combine(values(codec), values(codec), Arbitraries.of(true, false).list().ofSize(n))
                    .as((a, r, keep) -> {
                        long[] b = new long[n];
                        for (int i = 0; i < n; i++) {
                            b[i] = keep.get(i) ? a[i] : r[i];
                        }
                        return new Pair(codec, a, b);
                    });
        });
    }

    private static Arbitrary<long[]> values(ScoreCodec codec) {
        List<Arbitrary<Long>> perDimension = new ArrayList<>();
        for (Dimension d : codec.dimensions()) {
            perDimension.add(Arbitraries.longs().between(0, d.maxValue()));
        }
        return Combinators.combine(perDimension).as(list -> list.stream().mapToLong(Long::longValue).toArray());
    }

    private static long valueAt(double fraction, int bits) {
        long max = (1L << bits) - 1;
        return Math.min(max, (long) (fraction * (max + 1.0)));
    }

    private static void assertExactInteger(double score) {
        assertThat(score).isGreaterThanOrEqualTo(0.0).isLessThan(TWO_POW_53);
        assertThat((double) (long) score).isEqualTo(score);
    }

    @Test
    void spec_parsesBackToTheSameLayout() {
        ScoreCodec codec = ScoreCodec.builder().dimension("wins", 20, HIGHER_RANKS_FIRST).dimension("at", 33, LOWER_RANKS_FIRST).build();

        assertThat(codec.spec()).isEqualTo("wins:20:higher,at:33:lower");
        assertThat(ScoreCodec.parse(codec.spec()).dimensions()).isEqualTo(codec.dimensions());
        assertThatThrownBy(() -> ScoreCodec.parse("wins:20")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("points:20:higher");
        assertThatThrownBy(() -> ScoreCodec.parse("wins:x:higher")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ScoreCodec.parse("a:30:higher,b:30:lower")).isInstanceOf(IllegalArgumentException.class);
    }
}
