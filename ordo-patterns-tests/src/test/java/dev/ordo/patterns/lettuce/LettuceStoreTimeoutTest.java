package dev.ordo.patterns.lettuce;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.patterns.Plain;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.StoreException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The store's command timeout, against a real redis-server: a command to a server that stops
 * answering (paused by {@code CLIENT PAUSE} from another connection) fails with a
 * {@link StoreException} after about the URI's timeout, not after the pause; a blocking command
 * gets its block time on top, so a worker's wait on an empty queue longer than the timeout ends
 * empty rather than failing, and a command blocking for ever is never timed out.
 */
class LettuceStoreTimeoutTest {
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    private static RedisServer redis;
    private static ClientResources resources;

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServer.start();
        resources = ClientResources.create();
    }

    @AfterAll
    static void stop() throws Exception {
        resources.shutdown();
        redis.close();
    }

    private static LettuceStore connect() {
        return LettuceStore.connect(resources, RedisURI.builder().withHost("127.0.0.1").withPort(redis.port()).withTimeout(TIMEOUT).build(), null);
    }

    /** Pauses every client of the server for {@code millis}, from a connection of its own. */
    private static void pauseServer(long millis) {
        try (LettuceStore admin = LettuceStore.connect("redis://127.0.0.1:" + redis.port())) {
            assertThat(Plain.of(admin.call(StoreCommand.of("CLIENT").arg("PAUSE").arg(millis).arg("ALL")))).isEqualTo("OK");
        }
    }

    /** Waits until the server answers again (the pause is over), so one test's pause does not reach the next. */
    private static void awaitUnpaused(Store store) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            try {
                assertThat(Plain.of(store.call(StoreCommand.of("PING")))).isEqualTo("PONG");
                return;
            } catch (StoreException e) {
                assertThat(System.nanoTime()).as("waiting for the pause to end").isLessThan(deadline);
                Thread.sleep(50);
            }
        }
    }

    @Test
    void pausedServer_callAndCallAsyncFailWithinAboutTheTimeout_notAfterThePause() throws Exception {
        try (LettuceStore store = connect()) {
            assertThat(Plain.of(store.call(StoreCommand.of("PING")))).isEqualTo("PONG");
            pauseServer(8000); // long enough for both calls below to fail inside it, even on a slow machine
            try {
                failsFast(store);
            } finally {
                awaitUnpaused(store);
            }
        }
    }

    /** A call and an asynchronous call to the paused server both fail after about the timeout. */
    private static void failsFast(LettuceStore store) {
        long start = System.nanoTime();
        Throwable failure = catchThrowable(() -> store.call(StoreCommand.of("SET").key("k").arg("v")));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(failure).isInstanceOf(StoreException.class).hasMessageContaining("SET timed out").hasMessageContaining("300 ms");
        assertThat(elapsedMillis).as("failed after about the 300 ms timeout, not the 8 s pause").isBetween(250L, 3500L);

        start = System.nanoTime();
        CompletableFuture<Reply> async = store.callAsync(StoreCommand.of("GET").key("k")).toCompletableFuture();
        Throwable asyncFailure = catchThrowable(() -> async.get(10, TimeUnit.SECONDS));
        elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(asyncFailure).isInstanceOf(ExecutionException.class);
        assertThat(asyncFailure.getCause()).isInstanceOf(StoreException.class).hasMessageContaining("GET timed out");
        assertThat(elapsedMillis).as("the stage failed after about the timeout, not the pause").isLessThan(3500L);
    }

    @Test
    void blockingClaimLongerThanTheTimeout_endsEmpty_andStillTakesJobs() {
        try (LettuceStore store = connect()) {
            DelayedJobQueue<String> queue = DelayedJobQueue.create(store, "timeout-claims");
            try (DelayedJobQueue<String>.Worker worker = queue.worker()) {
                long start = System.nanoTime();
                assertThat(worker.claim(1, Duration.ofSeconds(1))).as("nothing due: an empty claim, not a timeout").isEmpty();
                assertThat((System.nanoTime() - start) / 1_000_000).as("it did wait, longer than the 300 ms timeout").isGreaterThanOrEqualTo(900L);

                queue.schedule("j1", "payload", Due.now());
                assertThat(worker.claim(1, Duration.ofSeconds(1))).extracting(job -> job.payload()).containsExactly("payload");
            }
        }
    }

    @Test
    void blockingCommandsGetTheirBlockTimeOnTop_blockingForEverIsNotTimedOut() throws Exception {
        try (LettuceStore store = connect(); Store dedicated = store.dedicated()) {
            long start = System.nanoTime();
            assertThat(dedicated.call(StoreCommand.of("BZPOPMIN").key("empty").arg("1"))).isEqualTo(Reply.Nil.NIL);
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(900L);

            // Blocks until data arrive: still waiting well past the timeout, then answered by the ZADD.
            CompletableFuture<Reply> forever = dedicated.callAsync(StoreCommand.of("BZPOPMIN").key("later").arg("0")).toCompletableFuture();
            Thread.sleep(1000);
            assertThat(forever).as("not timed out after more than three times the timeout").isNotDone();
            store.call(StoreCommand.of("ZADD").key("later").arg(1).arg("m"));
            List<Reply> popped = forever.get(10, TimeUnit.SECONDS).asList();
            assertThat(popped).extracting(Plain::of).containsExactly("later", "m", "1");
        }
    }

    @Test
    void blockTimes_fromEachBlockingCommandsSyntax() {
        assertThat(LettuceStore.blockNanos(StoreCommand.of("BZPOPMIN").key("a").key("b").arg("1.5"))).isEqualTo(1_500_000_000L);
        assertThat(LettuceStore.blockNanos(StoreCommand.of("blmove").key("a").key("b").arg("LEFT").arg("RIGHT").arg("0"))).isZero();
        assertThat(LettuceStore.blockNanos(StoreCommand.of("BZMPOP").arg("2").arg(1).key("a").arg("MIN"))).isEqualTo(2_000_000_000L);
        assertThat(LettuceStore.blockNanos(StoreCommand.of("XREAD").arg("COUNT").arg(1).arg("BLOCK").arg(250).arg("STREAMS").key("s").arg("$")))
                .isEqualTo(250_000_000L);
        assertThat(LettuceStore.blockNanos(StoreCommand.of("XREAD").arg("STREAMS").key("s").arg("$"))).isEqualTo(-1);
        assertThat(LettuceStore.blockNanos(StoreCommand.of("XREADGROUP").arg("GROUP").arg("BLOCK").arg("COUNT").arg("BLOCK").arg(5000)
                .arg("STREAMS").key("s").arg(">"))).as("a group and a consumer named like options").isEqualTo(5_000_000_000L);
        assertThat(LettuceStore.blockNanos(StoreCommand.of("ZPOPMIN").key("a").arg(1))).isEqualTo(-1);
        assertThat(LettuceStore.blockNanos(StoreCommand.of("BLPOP").key("a").arg("soon"))).as("refused by the server at once").isEqualTo(-1);
    }
}
