package dev.ordo.engine.command;

import java.util.ArrayList;
import java.util.List;

/**
 * The longest common subsequence of two byte strings (LCS), chosen as Redis 7.2 chooses it among
 * equally long ones: a table of the LCS lengths of every pair of prefixes, then a walk back from
 * the ends that takes a byte both strings end with, else drops the last byte of {@code a} when
 * that keeps a strictly longer LCS, else the last byte of {@code b}.
 *
 * <p>Invariants: cell {@code i * (|b| + 1) + j} holds the LCS length of {@code a[0, i)} and
 * {@code b[0, j)}; row 0 and column 0 hold 0. The table has {@code (|a| + 1)(|b| + 1)} four-byte
 * cells ({@link #tableBytes}), which the caller must bound before {@link #find}: O(|a| |b|) time
 * and memory. A match is a run of bytes taken one after the other on the walk; matches are listed
 * in the order the walk meets them, from the strings' ends towards their starts.
 */
final class CommonSubsequence {
    /** The most cells a Java array holds. */
    static final long MAX_CELLS = Integer.MAX_VALUE - 8;

    /** A run of bytes matched consecutively in both strings: inclusive offsets in each. */
    record Match(int aStart, int aEnd, int bStart, int bEnd) {
        /** The number of bytes in the run. */
        int length() {
            return aEnd - aStart + 1;
        }
    }

    private final byte[] sequence;
    private final List<Match> matches;
    private final int length;

    private CommonSubsequence(int length, byte[] sequence, List<Match> matches) {
        this.length = length;
        this.sequence = sequence;
        this.matches = matches;
    }

    /** The bytes the table for strings of these lengths takes, or Long.MAX_VALUE when that does not fit a long. */
    static long tableBytes(long aLength, long bLength) {
        long cells = (aLength + 1) * (bLength + 1);
        return cells > Long.MAX_VALUE / Integer.BYTES ? Long.MAX_VALUE : cells * Integer.BYTES;
    }

    /**
     * The LCS of {@code a[0, aLen)} and {@code b[0, bLen)}: only its length unless {@code walk},
     * which also finds the bytes and the matches. The table must fit ({@link #MAX_CELLS}).
     */
    static CommonSubsequence find(byte[] a, int aLen, byte[] b, int bLen, boolean walk) {
        int width = bLen + 1;
        int[] table = new int[Math.multiplyExact(aLen + 1, width)];
        for (int i = 1; i <= aLen; i++) {
            int row = i * width;
            int above = row - width;
            byte x = a[i - 1];
            for (int j = 1; j <= bLen; j++) {
                table[row + j] = x == b[j - 1] ? table[above + j - 1] + 1 : Math.max(table[above + j], table[row + j - 1]);
            }
        }
        int length = table[aLen * width + bLen];
        if (!walk) {
            return new CommonSubsequence(length, null, List.of());
        }
        byte[] sequence = new byte[length];
        List<Match> matches = new ArrayList<>();
        int next = length;
        int i = aLen;
        int j = bLen;
        int runEndA = -1;
        int runEndB = -1;
        while (i > 0 && j > 0) {
            if (a[i - 1] == b[j - 1]) {
                sequence[--next] = a[i - 1];
                if (runEndA < 0) {
                    runEndA = i - 1;
                    runEndB = j - 1;
                }
                i--;
                j--;
                continue;
            }
            if (runEndA >= 0) {
                matches.add(new Match(i, runEndA, j, runEndB));
                runEndA = -1;
            }
            if (table[(i - 1) * width + j] > table[i * width + j - 1]) {
                i--;
            } else {
                j--;
            }
        }
        if (runEndA >= 0) {
            matches.add(new Match(i, runEndA, j, runEndB));
        }
        return new CommonSubsequence(length, sequence, matches);
    }

    /** The LCS's length. */
    int length() {
        return length;
    }

    /** The LCS's bytes (only after a walk). */
    byte[] sequence() {
        return sequence;
    }

    /** The runs the walk took, ends of the strings first (only after a walk). */
    List<Match> matches() {
        return matches;
    }
}
