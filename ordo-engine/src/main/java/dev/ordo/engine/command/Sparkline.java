package dev.ordo.engine.command;

import java.util.List;

/**
 * LATENCY GRAPH's ASCII chart, laid out as Redis lays it out: one column per sample, oldest on the
 * left, in blocks of {@link #COLUMNS} columns. Each block is {@link #ROWS} rows of bars, a blank
 * row, then the samples' labels written downwards, one character per row. A bar's height is its
 * value's place between the lowest and highest value in {@code ROWS * 3} steps: each row shows a
 * step as {@code _}, {@code o} or {@code #}, and {@code |} below the top of a taller bar. Every row
 * is exactly as wide as its block and ends with a newline; blocks are separated by an empty line.
 */
final class Sparkline {
    /** Columns per block, as Redis draws them. */
    static final int COLUMNS = 80;
    private static final int ROWS = 4;
    private static final String LEVELS = "_o#";

    /** One column: its value and the label written under it. */
    record Point(long value, String label) {
    }

    private Sparkline() {
    }

    /** Appends the chart of {@code points} to {@code out}. */
    static void render(StringBuilder out, List<Point> points) {
        long min = points.stream().mapToLong(Point::value).min().orElse(0);
        long max = points.stream().mapToLong(Point::value).max().orElse(0);
        for (int from = 0; from < points.size(); from += COLUMNS) {
            if (from > 0) {
                out.append('\n');
            }
            renderBlock(out, points.subList(from, Math.min(points.size(), from + COLUMNS)), min, max);
        }
    }

    private static void renderBlock(StringBuilder out, List<Point> block, long min, long max) {
        int steps = ROWS * LEVELS.length();
        double range = max == min ? 1 : max - min;
        int[] heights = new int[block.size()];
        for (int j = 0; j < heights.length; j++) {
            heights[j] = Math.max(0, Math.min(steps - 1, (int) ((block.get(j).value() - min) * steps / range)));
        }
        char[] line = new char[block.size()];
        for (int row = 0; row < ROWS; row++) {
            for (int j = 0; j < line.length; j++) {
                int level = heights[j] - (ROWS - row - 1) * LEVELS.length();
                line[j] = level < 0 ? ' ' : level < LEVELS.length() ? LEVELS.charAt(level) : '|';
            }
            out.append(line).append('\n');
        }
        int longest = block.stream().mapToInt(p -> p.label().length()).max().orElse(0);
        out.append(" ".repeat(block.size())).append('\n');
        for (int k = 0; k < longest; k++) {
            for (int j = 0; j < line.length; j++) {
                String label = block.get(j).label();
                line[j] = k < label.length() ? label.charAt(k) : ' ';
            }
            out.append(line).append('\n');
        }
    }
}
