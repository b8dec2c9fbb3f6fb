package dev.ordo.console;

import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.store.Store;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The console over real HTTP (Netty): the page's files, the live feed as server-sent events, the
 * gate's 401, and the limits a client cannot push past (body, request line, live feeds), after
 * each of which the server still answers.
 */
class ConsoleServerTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private Ordo ordo;
    private EmbeddedStore store;
    private Console console;
    private ConsoleServer server;

    @BeforeEach
    void start() throws Exception {
        ordo = Ordo.embedded();
        store = EmbeddedStore.on(ordo.engine());
        console = new Console(store, "test", ConsoleOptions.readOnly().withSampleEvery(java.time.Duration.ofMillis(100)));
        ConsoleHttp pages = new ConsoleHttp(console);
        server = ConsoleServer.start("127.0.0.1", 0, (user, password) -> "intruder".equals(user) ? null : pages);
    }

    @AfterEach
    void stop() {
        server.close();
        console.close();
        store.close();
        ordo.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    @Test
    void theChartLibrary_isServedFromItsWebJar() throws Exception {
        HttpResponse<String> uplot = get("/vendor/uplot/uPlot.iife.min.js");

        assertThat(uplot.statusCode()).isEqualTo(200);
        assertThat(uplot.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(uplot.body()).contains("uPlot");
        assertThat(get("/vendor/uplot/..%2F..%2F..%2Fpom.properties").statusCode()).isEqualTo(404);
    }

    @Test
    void liveFeed_sendsOneEventPerReading() throws Exception {
        HttpResponse<InputStream> live = http.send(HttpRequest.newBuilder(uri(ConsoleHttp.LIVE_PATH)).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader events = new BufferedReader(new InputStreamReader(live.body(), StandardCharsets.UTF_8))) {
            assertThat(live.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
            List<String> data = new ArrayList<>();
            while (data.size() < 2) {
                String line = events.readLine();
                if (line.startsWith("data: ")) {
                    data.add(line);
                }
            }
            assertThat(data).allSatisfy(d -> assertThat(d).contains("\"opsPerSec\"").contains("\"keys\""));
        }
    }

    @Test
    void gate_refusingTheUser_answers401WithABasicChallenge() throws Exception {
        String auth = "Basic " + java.util.Base64.getEncoder().encodeToString("intruder:x".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> refused = http.send(HttpRequest.newBuilder(uri("/api/about")).header("Authorization", auth).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm="));
    }

    @Test
    void oversizedBodyAndRequestLine_areRefused_andTheServerGoesOn() throws Exception {
        HttpResponse<String> body = http.send(HttpRequest.newBuilder(uri("/api/boards/x/members/y")).header(ConsoleHttp.WRITE_HEADER, "1")
                .PUT(HttpRequest.BodyPublishers.ofString("x".repeat(ConsoleHttp.MAX_BODY + 1))).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> line = get("/api/keys?match=" + "a".repeat(9000));

        assertThat(body.statusCode()).isEqualTo(413);
        assertThat(line.statusCode()).isBetween(400, 431);
        assertThat(get("/api/about").statusCode()).isEqualTo(200);
    }

    @Test
    void liveFeeds_beyondTheLimit_areAnswered503() throws Exception {
        List<InputStream> open = new ArrayList<>();
        try {
            for (int i = 0; i < ConsoleHttp.MAX_STREAMS; i++) {
                HttpResponse<InputStream> live = http.send(HttpRequest.newBuilder(uri(ConsoleHttp.LIVE_PATH)).build(), HttpResponse.BodyHandlers.ofInputStream());
                assertThat(live.statusCode()).isEqualTo(200);
                open.add(live.body());
            }
            HttpResponse<String> refused = get(ConsoleHttp.LIVE_PATH);

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(get("/api/about").statusCode()).isEqualTo(200);
        } finally {
            for (InputStream in : open) {
                in.close();
            }
        }
    }

    /** One raw HTTP/1.1 GET naming {@code host}; the status line and headers that come back. */
    private String rawGet(String path, String host) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return reply.substring(0, reply.indexOf("\r\n\r\n"));
        }
    }

    @Test
    void onLoopback_onlyLocalhostNamesAreAnswered_andNoPageMayBeFramed() throws Exception {
        assertThat(rawGet("/api/about", "attacker.example:" + server.port())).as("a rebound name").startsWith("HTTP/1.1 421");
        assertThat(rawGet("/api/about", "localhost:" + server.port())).startsWith("HTTP/1.1 200");
        assertThat(rawGet("/api/about", "127.0.0.1")).startsWith("HTTP/1.1 200");
        assertThat(rawGet("/api/about", "[::1]:" + server.port())).startsWith("HTTP/1.1 200");

        HttpResponse<String> page = get("/");
        assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue("frame-ancestors 'none'");
    }

    @Test
    void liveFeed_endsWhenItsConsoleCloses() throws Exception {
        HttpResponse<InputStream> live = http.send(HttpRequest.newBuilder(uri(ConsoleHttp.LIVE_PATH)).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader events = new BufferedReader(new InputStreamReader(live.body(), StandardCharsets.UTF_8))) {
            assertThat(events.readLine()).startsWith("data: ");

            console.close();

            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                while (events.readLine() != null) {
                    // the events sent before the close
                }
            }, "the stream ends with its console");
        }
    }

    @Test
    void aRequestThatFailsUnexpectedly_isAnswered500_andTheServerGoesOn() throws Exception {
        // a store that fails in a way no route expects
        Store broken = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, method, args) -> {
            if (method.getName().equals("clustered")) {
                return false;
            }
            throw new UnsupportedOperationException("broken store");
        });
        try (Console failing = new Console(broken, "broken", ConsoleOptions.readOnly());
             ConsoleServer other = ConsoleServer.start("127.0.0.1", 0, (user, password) -> new ConsoleHttp(failing))) {
            URI patterns = URI.create("http://127.0.0.1:" + other.port() + "/api/patterns");

            HttpResponse<String> failed = http.send(HttpRequest.newBuilder(patterns).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(failed.body()).contains("broken store");
            assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + other.port() + "/")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
    }
}
