package dev.ordo.samples;

import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.spring.boot.EmbeddedOrdo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The running application, driven over HTTP as a client would: add scores and read the boards,
 * queue emails and reminders and see the workers deliver them (and dead-letter what cannot be
 * delivered), and get throttled with 429. Each test is a different user ({@code X-User}), so
 * their rate-limit budgets and board entries do not mix.
 */
// Closed after the class, so the application stops before SampleBackend's exit hook stops its
// redis-server (two exit hooks run at once: a worker blocked on a server gone away held the exit).
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ordo.rate-limits.api.limits=12/1h",
        "ordo.queues.reminders.backoff.kind=fixed",
        "ordo.queues.reminders.backoff.delay=0s"})
class SampleHttpTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private final String user = "user-" + UUID.randomUUID();

    @LocalServerPort int port;
    @Autowired ApplicationContext context;
    @Autowired Store store;
    @Autowired @Qualifier("emails") DelayedJobQueue<String> emails;

    @DynamicPropertySource
    static void backend(DynamicPropertyRegistry registry) throws Exception {
        SampleBackend.register(registry);
    }

    @Test
    void backend_isTheOneThisRunAskedFor() {
        assertThat(context.getBeanProvider(EmbeddedOrdo.class).getIfAvailable()).as("an in-process Ordo")
                .matches(ordo -> SampleBackend.onRedisServer() == (ordo == null));
        String server = store.call(StoreCommand.of("INFO").arg("server")).asString();
        assertThat(server.contains("monotonic_clock:System.nanoTime")).as("Ordo's INFO, not redis-server's: %s", server)
                .isEqualTo(!SampleBackend.onRedisServer());
    }

    @Test
    void leaderboard_addPointsThenTopAndMyRank_onEveryBoard() throws Exception {
        String alice = user + "-alice";
        String bob = user + "-bob";
        String carol = user + "-carol";
        assertThat(post("/api/game/players/" + alice + "/points", "{\"points\": 30}").statusCode()).isEqualTo(200);
        assertThat(post("/api/game/players/" + bob + "/points", "{\"points\": 50}").statusCode()).isEqualTo(200);
        HttpResponse<String> carolAdded = post("/api/game/players/" + carol + "/points", "{\"points\": 40}");
        assertThat(carolAdded.body()).contains("\"daily\"", "\"weekly\"", "\"all-time\"");

        for (String board : new String[] {"daily", "weekly", "all-time"}) {
            String top = get("/api/game/boards/" + board + "/top?n=100").body();
            assertThat(top.indexOf(bob)).as(board).isLessThan(top.indexOf(carol));
            assertThat(top.indexOf(carol)).as(board).isLessThan(top.indexOf(alice));
        }
        HttpResponse<String> mine = get("/api/game/boards/weekly/players/" + alice + "?around=3");
        assertThat(mine.statusCode()).isEqualTo(200);
        assertThat(mine.body()).contains("\"score\":30.0").contains(carol);
        assertThat(get("/api/game/boards/weekly/players/" + user + "-nobody").statusCode()).isEqualTo(404);
        assertThat(get("/api/game/boards/yearly/top").statusCode()).isEqualTo(404);
    }

    @Test
    void emails_queuedThenSentByTheWorker() throws Exception {
        String to = user + "@example.com";
        assertThat(post("/api/emails", "{\"to\": \"" + to + "\", \"subject\": \"weekly digest\"}").statusCode()).isEqualTo(202);
        assertThat(post("/api/emails", "{\"to\": \"" + to + "\", \"subject\": \"password reset\", \"urgent\": true}").statusCode())
                .isEqualTo(202);
        eventually(() -> read("/api/emails/sent"), body -> body.contains(to + ": weekly digest") && body.contains(to + ": password reset"));
        assertThat(post("/api/emails", "{\"subject\": \"nobody\"}").statusCode()).isEqualTo(400);
    }

    @Test
    void emails_urgentOneQueuedLast_isClaimedFirst() throws Exception {
        SmartLifecycle workers = context.getBean("ordoJobWorkerRegistry", SmartLifecycle.class);
        workers.stop(); // so the queue's order, not two workers racing, decides what goes first
        try {
            String to = user + "@example.com";
            for (String subject : new String[] {"newsletter", "invoice", "password reset"}) {
                String urgent = subject.equals("password reset") ? ", \"urgent\": true" : "";
                assertThat(post("/api/emails", "{\"to\": \"" + to + "\", \"subject\": \"" + subject + "\"" + urgent + "}").statusCode())
                        .isEqualTo(202);
            }
            List<ClaimedJob<String>> claimed = emails.claim(100);
            try {
                assertThat(claimed).extracting(ClaimedJob::payload).filteredOn(p -> p.startsWith(to))
                        .containsExactly(to + "\npassword reset", to + "\nnewsletter", to + "\ninvoice");
            } finally {
                emails.releaseAll(claimed);
            }
        } finally {
            workers.start();
        }
        eventually(() -> read("/api/emails/sent"), body -> body.contains(user + "@example.com: invoice"));
    }

    @Test
    void reminders_deliveredWhenDue_sameIdRefusedWhilePending_unreachableOnesRetriedThenDeadLettered() throws Exception {
        String ok = user + "-ok";
        String later = user + "-later";
        String doomed = user + "-doomed";
        assertThat(post("/api/reminders", "{\"id\": \"" + later + "\", \"text\": \"renew passport\", \"delaySeconds\": 3600}").statusCode())
                .isEqualTo(202);
        assertThat(post("/api/reminders", "{\"id\": \"" + later + "\", \"text\": \"renew passport\", \"delaySeconds\": 3600}").statusCode())
                .isEqualTo(409);
        assertThat(post("/api/reminders", "{\"id\": \"" + ok + "\", \"text\": \"stand up\", \"delaySeconds\": 0}").statusCode()).isEqualTo(202);
        assertThat(post("/api/reminders", "{\"id\": \"" + doomed + "\", \"text\": \"unreachable phone\", \"delaySeconds\": 0}").statusCode())
                .isEqualTo(202);
        eventually(() -> read("/api/reminders/sent"), body -> body.contains("reminder " + ok + ": stand up"));
        eventually(() -> read("/api/reminders/dead"), body -> body.contains(doomed));
        String dead = read("/api/reminders/dead");
        assertThat(dead).contains("recipient unreachable (attempt 3)").doesNotContain(ok);
        assertThat(read("/api/reminders/sent")).doesNotContain(later).doesNotContain(doomed);
    }

    @Test
    void api_overTheUsersLimit_429WithRetryAfter_otherUsersUnaffected() throws Exception {
        HttpResponse<String> last = null;
        for (int i = 0; i < 12; i++) {
            last = get("/api/game/boards/daily/top");
            assertThat(last.statusCode()).as("request %d of the user's 12", i + 1).isEqualTo(200);
        }
        assertThat(last.headers().firstValue("RateLimit")).hasValueSatisfying(v -> assertThat(v).contains("r=0"));
        HttpResponse<String> refused = get("/api/game/boards/daily/top");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
        assertThat(refused.headers().firstValue("RateLimit-Policy")).isPresent();

        HttpResponse<String> someoneElse = http.send(HttpRequest.newBuilder(uri("/api/game/boards/daily/top"))
                .header("X-User", user + "-other").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(someoneElse.statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("X-User", user).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Reads as a user of its own, so polling does not spend this test's rate-limit budget. */
    private String read(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("X-User", "poller-" + UUID.randomUUID()).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("X-User", user).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** Waits up to 20 s for what the workers do in the background. */
    private static void eventually(ThrowingSupplier<String> read, Predicate<String> done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String last = read.get();
        while (!done.test(last)) {
            assertThat(System.nanoTime()).as("still waiting; last read: %s", last).isLessThan(deadline);
            Thread.sleep(50);
            last = read.get();
        }
    }

    @FunctionalInterface
    interface ThrowingSupplier<T> {
        T get() throws Exception;
    }
}
