package dev.ordo.engine.zset;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;

import java.util.Arrays;

/**
 * A member interval as ZRANGEBYLEX and friends take it: {@code [x} inclusive, {@code (x}
 * exclusive, {@code -} below everything and {@code +} above everything, members compared as
 * unsigned bytes. Meaningful when every member has the same score, as Redis documents; with mixed
 * scores the result is unspecified (but never an error).
 */
public final class LexRange {
    private final Item min;
    private final Item max;
    final RankTree.Bound belowMin;
    final RankTree.Bound notAboveMax;

    private LexRange(Item min, Item max) {
        this.min = min;
        this.max = max;
        this.belowMin = new LexBound(min, min.exclusive);
        this.notAboveMax = new LexBound(max, !max.exclusive);
    }

    /** Parses Redis's lex bound syntax; throws {@code ERR min or max not valid string range item}. */
    public static LexRange parse(byte[] min, byte[] max) {
        return new LexRange(Item.parse(min), Item.parse(max));
    }

    /** Whether {@code member} lies in the interval. */
    public boolean contains(byte[] member) {
        return !belowMin.below(0, member, 0, member.length) && notAboveMax.below(0, member, 0, member.length);
    }

    /**
     * One bound: minus or plus infinity, or a member value. Redis checks {@code -} and {@code +}
     * as C strings, so a byte 0 right after the sign still counts as the bare sign.
     */
    private record Item(int infinity, byte[] value, boolean exclusive) {
        static Item parse(byte[] s) {
            if (s.length > 0) {
                boolean bare = s.length == 1 || s[1] == 0;
                switch (s[0]) {
                    case '-':
                        if (bare) {
                            return new Item(-1, null, false);
                        }
                        break;
                    case '+':
                        if (bare) {
                            return new Item(1, null, false);
                        }
                        break;
                    case '(':
                        return new Item(0, Arrays.copyOfRange(s, 1, s.length), true);
                    case '[':
                        return new Item(0, Arrays.copyOfRange(s, 1, s.length), false);
                    default:
                        break;
                }
            }
            throw new ErrorReply(Errors.MIN_MAX_NOT_STRING_RANGE);
        }

        /** Compares a member with this bound. */
        int compareMember(byte[] m, int off, int len) {
            if (infinity != 0) {
                return -infinity;
            }
            return Arrays.compareUnsigned(m, off, off + len, value, 0, value.length);
        }

        int compareMember(int addr, MemberArena arena) {
            if (infinity != 0) {
                return -infinity;
            }
            return arena.compareMember(addr, value, 0, value.length);
        }
    }

    /** Holds for members below the item, or at most the item when {@code inclusive}. */
    private record LexBound(Item item, boolean inclusive) implements RankTree.Bound {
        @Override
        public boolean below(double score, byte[] member, int off, int len) {
            int c = item.compareMember(member, off, len);
            return inclusive ? c <= 0 : c < 0;
        }

        @Override
        public boolean below(double score, int addr, MemberArena arena) {
            int c = item.compareMember(addr, arena);
            return inclusive ? c <= 0 : c < 0;
        }
    }

    @Override
    public String toString() {
        return "LexRange[" + min + ", " + max + "]";
    }
}
