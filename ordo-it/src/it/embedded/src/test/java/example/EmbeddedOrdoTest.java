package example;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Ordo inside the test's own JVM, through the published server library, over a port it opens, and under the patterns. */
class EmbeddedOrdoTest {
    @Test
    void embedded_zaddThenZrevrange_ordersByScore() {
        try (Ordo ordo = Ordo.embedded()) {
            EmbeddedClient client = ordo.client();
            assertEquals(3L, client.call("ZADD", "board", "120", "alice", "95", "bob", "150", "carol"));
            client.call("ZINCRBY", "board", "60", "bob");

            List<?> top = (List<?>) client.call("ZREVRANGE", "board", "0", "2");
            assertEquals(List.of("bob", "carol", "alice"),
                    top.stream().map(bulk -> new String((byte[]) bulk, StandardCharsets.UTF_8)).toList());
        }
    }

    @Test
    void embedded_openPort_answersPingOverResp() throws IOException {
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openPort(0);
            try (Socket socket = new Socket("127.0.0.1", port)) {
                OutputStream out = socket.getOutputStream();
                out.write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                byte[] reply = in.readNBytes("+PONG\r\n".length());
                assertEquals("+PONG\r\n", new String(reply, StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void leaderboard_onEmbeddedStore_ranksHighestFirst() {
        try (Ordo ordo = Ordo.embedded()) {
            Leaderboard board = Leaderboard.create(EmbeddedStore.on(ordo.engine()), "board", BoardOptions.highestFirst());
            board.addPoints("alice", 120);
            board.addPoints("bob", 95);
            board.addPoints("carol", 150);
            board.addPoints("bob", 60);

            assertEquals(List.of("bob", "carol", "alice"), board.top(3).stream().map(Entry::member).toList());
        }
    }
}
