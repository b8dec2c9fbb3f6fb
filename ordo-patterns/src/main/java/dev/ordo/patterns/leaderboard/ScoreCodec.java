package dev.ordo.patterns.leaderboard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Packs several non-negative integer dimensions into one sorted-set score, exactly.
 *
 * <p><b>Layout.</b> Dimensions are declared most significant first; each has a name, a width of
 * 1..52 bits and a {@link Direction}. The last declared dimension occupies the lowest bits, each
 * earlier one sits just above the next: a dimension's {@code shift} is the sum of the widths
 * declared after it. The packed value is {@code sum(stored(v_i) * 2^shift_i)} where
 * {@code stored(v) = v} for {@link Direction#HIGHER_RANKS_FIRST} and
 * {@code stored(v) = 2^bits - 1 - v} for {@link Direction#LOWER_RANKS_FIRST}.
 *
 * <p><b>Invariant.</b> The widths total at most 53 bits, so every packed value is an integer in
 * {@code [0, 2^53)}, and a double holds every such integer exactly (its significand has 53 bits).
 * The score a server stores, returns and compares is therefore the packed value itself, with no
 * rounding. In {@link #replace} a quotient by {@code 2^shift} is exact (only the exponent changes),
 * and its floor, the remainder, the products by {@code 2^shift}, the score with one field cleared
 * and the final sum are integers in {@code [0, 2^53)}, so the same double-only arithmetic in a
 * server-side Lua script is exact too.
 * {@link Builder#build() Building} a layout wider than 53 bits fails instead of rounding silently later.
 *
 * <p><b>Directions.</b> They are relative to a leaderboard read highest score first (ZREVRANGE,
 * ZRANGE ... REV): a higher packed value ranks first. Comparing two scores compares the tuples
 * lexicographically, most significant dimension first, where a {@code HIGHER_RANKS_FIRST}
 * dimension ranks higher values first and a {@code LOWER_RANKS_FIRST} one (an earlier timestamp,
 * fewer attempts) ranks lower values first.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ScoreCodec {
    /** Widest total layout: a double holds every integer in [0, 2^53] exactly. */
    public static final int MAX_TOTAL_BITS = 53;
    /** Widest single dimension. */
    public static final int MAX_DIMENSION_BITS = 52;

    /** Which values of a dimension rank first when the leaderboard is read highest score first. */
    public enum Direction {
        /** A higher value gives a higher score: stored as the value itself. */
        HIGHER_RANKS_FIRST,
        /** A lower value gives a higher score: stored as {@code 2^bits - 1 - value}. */
        LOWER_RANKS_FIRST
    }

    /**
     * One dimension of a layout: values in {@code [0, 2^bits)}, stored in the bits
     * {@code [shift, shift + bits)} of the packed score.
     */
    public record Dimension(String name, int bits, Direction direction, int shift) {
        /**
         * Validates what any layout needs: a non-empty name, 1..52 bits, all below bit 53.
         *
         * @param name the dimension's name, unique in its layout
         * @param bits its width, 1 to {@link #MAX_DIMENSION_BITS}
         * @param direction whether higher or lower values rank first
         * @param shift the position of its lowest bit in the packed score
         */
        public Dimension {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(direction, "direction");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("dimension name is empty");
            }
            if (bits < 1 || bits > MAX_DIMENSION_BITS) {
                throw new IllegalArgumentException("dimension '" + name + "' has " + bits
                        + " bits; a dimension has 1.." + MAX_DIMENSION_BITS + " bits");
            }
            if (shift < 0 || shift + bits > MAX_TOTAL_BITS) {
                throw new IllegalArgumentException("dimension '" + name + "' at shift " + shift
                        + " with " + bits + " bits does not fit below bit " + MAX_TOTAL_BITS);
            }
        }

        /**
         * The largest value this dimension accepts: {@code 2^bits - 1}.
         *
         * @return the largest value
         */
        public long maxValue() {
            return (1L << bits) - 1;
        }

        /**
         * {@code 2^shift} as a double (exact): the weight of this dimension's lowest bit.
         *
         * @return the weight of the lowest bit
         */
        public double multiplier() {
            return (double) (1L << shift);
        }

        /**
         * {@code 2^bits} as a double (exact): the modulus that isolates this field.
         *
         * @return the field's modulus
         */
        public double modulus() {
            return (double) (1L << bits);
        }

        /**
         * The field's bits for {@code value}; its own inverse, so it also maps bits back to a value.
         *
         * @param value a value in the dimension's range, or bits read back
         * @return the bits stored, or the value they hold
         */
        public long stored(long value) {
            checkRange(value);
            return direction == Direction.HIGHER_RANKS_FIRST ? value : maxValue() - value;
        }

        void checkRange(long value) {
            if (value < 0 || value > maxValue()) {
                throw new IllegalArgumentException("dimension '" + name + "' value " + value
                        + " is out of range [0, " + maxValue() + "] (" + bits + " bits)");
            }
        }
    }

    private final List<Dimension> dimensions;
    private final Map<String, Integer> indexByName;
    private final int totalBits;
    private final double limit;

    private ScoreCodec(List<Dimension> dimensions) {
        this.dimensions = List.copyOf(dimensions);
        Map<String, Integer> index = new HashMap<>();
        int total = 0;
        for (int i = 0; i < dimensions.size(); i++) {
            index.put(dimensions.get(i).name(), i);
            total += dimensions.get(i).bits();
        }
        this.indexByName = Map.copyOf(index);
        this.totalBits = total;
        this.limit = (double) (1L << total);
    }

    /**
     * A builder with no dimensions yet.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The sum of all widths, at most 53.
     *
     * @return the packed width in bits
     */
    public int totalBits() {
        return totalBits;
    }

    /**
     * The dimensions, most significant first (immutable).
     *
     * @return the dimensions
     */
    public List<Dimension> dimensions() {
        return dimensions;
    }

    /**
     * The dimension called {@code name}; IllegalArgumentException if there is none.
     *
     * @param name the dimension's name
     * @return that dimension
     */
    public Dimension dimension(String name) {
        return dimensions.get(indexOf(name));
    }

    /**
     * Packs {@code values}, one per dimension in declaration order, into an exact score below 2^53.
     *
     * @param values one value per dimension, each within its range
     * @return the packed score
     */
    public double encode(long... values) {
        Objects.requireNonNull(values, "values");
        if (values.length != dimensions.size()) {
            throw new IllegalArgumentException("expected " + dimensions.size() + " values "
                    + names() + ", got " + values.length);
        }
        long packed = 0;
        for (int i = 0; i < values.length; i++) {
            Dimension d = dimensions.get(i);
            packed |= d.stored(values[i]) << d.shift();
        }
        return (double) packed;
    }

    /**
     * Packs the value of every dimension, by name; a missing or unknown name is rejected.
     *
     * @param values each dimension's value, by its name
     * @return the packed score
     */
    public double encode(Map<String, Long> values) {
        Objects.requireNonNull(values, "values");
        for (String name : values.keySet()) {
            if (!indexByName.containsKey(name)) {
                throw new IllegalArgumentException("unknown dimension '" + name + "'; dimensions are " + names());
            }
        }
        long[] ordered = new long[dimensions.size()];
        for (int i = 0; i < ordered.length; i++) {
            String name = dimensions.get(i).name();
            Long value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException("no value for dimension '" + name + "'");
            }
            ordered[i] = value;
        }
        return encode(ordered);
    }

    /**
     * The values packed in {@code score}, in declaration order; exact inverse of {@link #encode(long...)}.
     *
     * @param score a score {@link #encode(long...)} packed
     * @return one value per dimension
     */
    public long[] decode(double score) {
        long packed = packed(score);
        long[] values = new long[dimensions.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = field(packed, dimensions.get(i));
        }
        return values;
    }

    /**
     * The value of one dimension packed in {@code score}.
     *
     * @param score a score {@link #encode(long...)} packed
     * @param dimension the dimension's name
     * @return its value
     */
    public long decode(double score, String dimension) {
        return field(packed(score), dimensions.get(indexOf(dimension)));
    }

    /**
     * {@code score} with one dimension set to {@code newValue}, computed only with the double
     * operations a Lua script has: {@code old = floor(score / mult) % 2^bits} (with Lua's
     * {@code a % b = a - floor(a / b) * b}), then {@code score - old * mult + stored(new) * mult}.
     * Equals {@code encode} of the changed tuple: every step is exact (see the class comment).
     *
     * @param score a score {@link #encode(long...)} packed
     * @param dimension the name of the dimension to change
     * @param newValue its new value, within the dimension's range
     * @return the packed score with that one value replaced
     */
    public double replace(double score, String dimension, long newValue) {
        packed(score);
        Dimension d = dimensions.get(indexOf(dimension));
        double stored = (double) d.stored(newValue);
        double mult = d.multiplier();
        double modulus = d.modulus();
        double quotient = Math.floor(score / mult);
        double old = quotient - Math.floor(quotient / modulus) * modulus;
        return score - old * mult + stored * mult;
    }

    /**
     * The layout as text, {@code name:bits:higher|lower} per dimension, most significant first,
     * comma-separated ({@code points:20:higher,time:33:lower}); {@link #parse} reads it back. Register
     * a composite board with this text as its {@code dimensions} setting, and the Ordo Console
     * shows its scores' fields.
     *
     * @return the layout's text
     */
    public String spec() {
        StringBuilder s = new StringBuilder();
        for (Dimension d : dimensions) {
            s.append(s.isEmpty() ? "" : ",").append(d.name()).append(':').append(d.bits()).append(':')
                    .append(d.direction() == Direction.HIGHER_RANKS_FIRST ? "higher" : "lower");
        }
        return s.toString();
    }

    /**
     * The layout {@link #spec()} wrote; IllegalArgumentException for anything else, or a layout
     * {@link Builder#build()} refuses.
     *
     * @param spec a layout's text
     * @return its codec
     */
    public static ScoreCodec parse(String spec) {
        Builder b = builder();
        for (String part : spec.split(",")) {
            String[] f = part.trim().split(":");
            if (f.length != 3 || !(f[2].equals("higher") || f[2].equals("lower"))) {
                throw new IllegalArgumentException("'" + part + "' is not a dimension such as points:20:higher or time:33:lower");
            }
            int bits;
            try {
                bits = Integer.parseInt(f[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part + "' gives no number of bits");
            }
            b.dimension(f[0], bits, f[2].equals("higher") ? Direction.HIGHER_RANKS_FIRST : Direction.LOWER_RANKS_FIRST);
        }
        return b.build();
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("ScoreCodec[");
        for (int i = 0; i < dimensions.size(); i++) {
            Dimension d = dimensions.get(i);
            s.append(i == 0 ? "" : ", ").append(d.name()).append(':').append(d.bits())
                    .append(d.direction() == Direction.HIGHER_RANKS_FIRST ? " higher first" : " lower first");
        }
        return s.append(']').toString();
    }

    private long packed(double score) {
        if (!(score >= 0 && score < limit) || score != Math.floor(score)) {
            throw new IllegalArgumentException("score " + score + " is not an integer in [0, 2^"
                    + totalBits + ") and so was not produced by " + this);
        }
        return (long) score;
    }

    private static long field(long packed, Dimension d) {
        return d.stored((packed >>> d.shift()) & d.maxValue());
    }

    private int indexOf(String name) {
        Integer i = indexByName.get(Objects.requireNonNull(name, "dimension"));
        if (i == null) {
            throw new IllegalArgumentException("unknown dimension '" + name + "'; dimensions are " + names());
        }
        return i;
    }

    private List<String> names() {
        List<String> names = new ArrayList<>(dimensions.size());
        for (Dimension d : dimensions) {
            names.add(d.name());
        }
        return names;
    }

    /** Declares dimensions most significant first; {@link #build()} validates the whole layout. */
    public static final class Builder {
        private final List<String> names = new ArrayList<>();
        private final List<Integer> widths = new ArrayList<>();
        private final List<Direction> directions = new ArrayList<>();

        private Builder() {
        }

        /**
         * Appends a dimension below those already declared.
         *
         * @param name the dimension's name, unique in the layout
         * @param bits its width, 1 to {@link ScoreCodec#MAX_DIMENSION_BITS}
         * @param direction whether higher or lower values rank first
         * @return this builder
         */
        public Builder dimension(String name, int bits, Direction direction) {
            names.add(Objects.requireNonNull(name, "name"));
            widths.add(bits);
            directions.add(Objects.requireNonNull(direction, "direction"));
            return this;
        }

        /**
         * The codec; IllegalArgumentException for no dimensions, an empty or repeated name, a width
         * outside 1..52, or a total above 53 bits.
         *
         * @return the codec
         */
        public ScoreCodec build() {
            if (names.isEmpty()) {
                throw new IllegalArgumentException("a layout needs at least one dimension");
            }
            Set<String> seen = new HashSet<>();
            long total = 0;
            StringBuilder sum = new StringBuilder();
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                int bits = widths.get(i);
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("dimension " + (i + 1) + " has an empty name");
                }
                if (!seen.add(name)) {
                    throw new IllegalArgumentException("dimension name '" + name + "' is declared twice");
                }
                if (bits < 1 || bits > MAX_DIMENSION_BITS) {
                    throw new IllegalArgumentException("dimension '" + name + "' has " + bits
                            + " bits; a dimension has 1.." + MAX_DIMENSION_BITS + " bits");
                }
                total += bits;
                sum.append(i == 0 ? "" : " + ").append(name).append(' ').append(bits);
            }
            if (total > MAX_TOTAL_BITS) {
                throw new IllegalArgumentException("dimensions total " + total + " bits (" + sum
                        + "), more than " + MAX_TOTAL_BITS + ": a double holds integers exactly only up to 2^"
                        + MAX_TOTAL_BITS + ", so wider scores would be rounded");
            }
            List<Dimension> dims = new ArrayList<>(names.size());
            int shift = (int) total;
            for (int i = 0; i < names.size(); i++) {
                shift -= widths.get(i);
                dims.add(new Dimension(names.get(i), widths.get(i), directions.get(i), shift));
            }
            return new ScoreCodec(dims);
        }
    }
}
