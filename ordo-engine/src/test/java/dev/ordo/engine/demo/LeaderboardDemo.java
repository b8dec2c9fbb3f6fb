package dev.ordo.engine.demo;

import dev.ordo.engine.number.Doubles;
import dev.ordo.engine.zset.ZEntry;
import dev.ordo.engine.zset.ZSet;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A small example of the ZSet API: replays the seeds' leaderboard example on the embedded
 * sorted set (ZADD alice 120, bob 95, carol 150; ZINCRBY bob 60) and prints the top three with
 * their scores and alice's 1-based rank.
 */
public final class LeaderboardDemo {
    private LeaderboardDemo() {
    }

    /** Runs the demo on standard output. */
    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the demo, printing to {@code out}. */
    public static void run(PrintStream out) {
        ZSet board = new ZSet();
        board.add(bytes("alice"), 120);
        board.add(bytes("bob"), 95);
        board.add(bytes("carol"), 150);
        board.increment(bytes("bob"), 60);

        out.println("Top 3:");
        List<ZEntry> top = ZEntry.collect(v -> board.range(0, 2, true, v));
        for (int i = 0; i < top.size(); i++) {
            ZEntry e = top.get(i);
            out.println((i + 1) + ". " + e.memberAsString() + " " + Doubles.format(e.score()));
        }
        out.println("alice's rank: " + (board.reverseRank(bytes("alice")) + 1));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
