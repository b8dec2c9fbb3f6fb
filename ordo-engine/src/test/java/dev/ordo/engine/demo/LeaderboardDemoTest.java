package dev.ordo.engine.demo;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class LeaderboardDemoTest {

    @Test
    void run_seedExample_printsTopThreeAndAlicesRank() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LeaderboardDemo.run(new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8).lines())
                .containsExactly("Top 3:", "1. bob 155", "2. carol 150", "3. alice 120", "alice's rank: 3");
    }
}
