package dev.ordo.server.compat;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RList;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.connection.RedisListCommands.Direction;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ListOperations;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Java's clients build on lists, run unchanged against Ordo and against redis-server:
 * Redisson's {@code RList}, {@code RBlockingQueue} (a consumer blocked in {@code take} or
 * {@code poll} gets what a producer offers, nothing lost or duplicated), {@code RDelayedQueue}
 * (an element offered with a delay reaches the destination queue) and Spring Data Redis's
 * {@code opsForList}, blocking pops with a timeout included. Each waits for an outcome with a
 * timeout far above what it needs; none decides by timing.
 */
class ListClientsTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }


    /** An interruptible action run on another thread. */
    @FunctionalInterface
    private interface Blocking<T> {
        T get() throws InterruptedException;
    }

    private static <T> CompletableFuture<T> onAnotherThread(Blocking<T> action) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return action.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    private static <T> T within30s(CompletableFuture<T> future) throws InterruptedException, ExecutionException, TimeoutException {
        return future.get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void redissonList_readsAndWritesByIndexAndValue(SideBySide.Target target) {
        RedissonClient client = target.redisson();
        try {
            RList<String> list = client.getList("rlist");
            list.delete();
            assertThat(list.addAll(List.of("a", "b", "c", "b"))).isTrue();
            assertThat(list.add("d")).isTrue();
            assertThat(list.size()).isEqualTo(5);
            assertThat(list.get(1)).isEqualTo("b");
            assertThat(list.get(4)).isEqualTo("d");
            assertThat(list.set(0, "A")).isEqualTo("a");
            assertThat(list.indexOf("b")).isEqualTo(1);
            assertThat(list.lastIndexOf("b")).isEqualTo(3);
            assertThat(list.contains("c")).isTrue();
            list.add(1, "ins");
            assertThat(list.readAll()).containsExactly("A", "ins", "b", "c", "b", "d");
            assertThat(list.remove("b")).isTrue();
            assertThat(list.remove(0)).isEqualTo("A");
            assertThat(list.range(1, 2)).containsExactly("c", "b");
            assertThat(list.addAfter("c", "after-c")).isEqualTo(5);
            assertThat(list.addBefore("c", "before-c")).isEqualTo(6);
            list.trim(1, 4);
            assertThat(list.readAll()).containsExactly("before-c", "c", "after-c", "b");
            assertThat(list.removeAll(List.of("c", "b"))).isTrue();
            assertThat(list.readAll()).containsExactly("before-c", "after-c");
            assertThat(list.range(0, -1)).containsExactly("before-c", "after-c");
            list.clear();
            assertThat(list.isExists()).isFalse();
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void redissonBlockingQueue_blockedConsumersGetEveryOfferedElementOnce(SideBySide.Target target) throws Exception {
        RedissonClient client = target.redisson();
        try {
            RBlockingQueue<String> queue = client.getBlockingQueue("rbq");
            queue.delete();
            CompletableFuture<String> taker = onAnotherThread(queue::take);
            CompletableFuture<String> poller = onAnotherThread(() -> queue.poll(30, TimeUnit.SECONDS));
            assertThat(queue.poll(200, TimeUnit.MILLISECONDS)).as("nothing offered yet").isNull();
            assertThat(queue.offer("job-1")).isTrue();
            assertThat(queue.offer("job-2")).isTrue();
            assertThat(Set.of(within30s(taker), within30s(poller))).containsExactlyInAnyOrder("job-1", "job-2");

            int n = 200;
            CompletableFuture<List<String>> consumer = onAnotherThread(() -> {
                List<String> got = new ArrayList<>();
                while (got.size() < n) {
                    String e = queue.poll(30, TimeUnit.SECONDS);
                    if (e == null) {
                        break;
                    }
                    got.add(e);
                }
                return got;
            });
            for (int i = 0; i < n; i++) {
                queue.put("e" + i);
            }
            List<String> got = within30s(consumer);
            assertThat(got).hasSize(n);
            assertThat(new HashSet<>(got)).hasSize(n);
            assertThat(got.get(0)).isEqualTo("e0");
            assertThat(queue.size()).isZero();
            assertThat(queue.drainTo(new ArrayList<>())).isZero();
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    @SuppressWarnings("deprecation") // RDelayedQueue is deprecated for RReliableQueue, and still what most code calls
    void redissonDelayedQueue_offeredElementArrivesInTheDestinationQueue(SideBySide.Target target) throws Exception {
        RedissonClient client = target.redisson();
        try {
            RBlockingQueue<String> destination = client.getBlockingQueue("rdq:destination");
            destination.delete();
            RDelayedQueue<String> delayed = client.getDelayedQueue(destination);
            try {
                delayed.offer("later", 1, TimeUnit.SECONDS);
                delayed.offer("much-later", 1, TimeUnit.HOURS);
                assertThat(delayed.size()).isEqualTo(2);
                assertThat(destination.poll(30, TimeUnit.SECONDS)).isEqualTo("later");
                assertThat(delayed.readAll()).containsExactly("much-later");
                assertThat(delayed.remove("much-later")).isTrue();
                assertThat(delayed.size()).isZero();
            } finally {
                delayed.destroy();
            }
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void springOpsForList_pushPopRangeTrimIndexMoveAndBlockingPop(SideBySide.Target target) throws Exception {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", target.port()));
        factory.afterPropertiesSet();
        factory.start();
        try {
            StringRedisTemplate template = new StringRedisTemplate(factory);
            template.delete(List.of("jobs", "done", "empty"));
            ListOperations<String, String> ops = template.opsForList();
            assertThat(ops.leftPush("jobs", "a")).isEqualTo(1L);
            assertThat(ops.leftPushAll("jobs", "b", "c")).isEqualTo(3L);
            assertThat(ops.rightPush("jobs", "z")).isEqualTo(4L);
            assertThat(ops.range("jobs", 0, -1)).containsExactly("c", "b", "a", "z");
            assertThat(ops.index("jobs", 1)).isEqualTo("b");
            assertThat(ops.index("jobs", -1)).isEqualTo("z");
            assertThat(ops.index("jobs", 10)).isNull();
            assertThat(ops.indexOf("jobs", "a")).isEqualTo(2L);
            assertThat(ops.rightPop("jobs")).isEqualTo("z");
            ops.trim("jobs", 0, 1);
            assertThat(ops.range("jobs", 0, -1)).containsExactly("c", "b");
            assertThat(ops.move("jobs", Direction.LEFT, "done", Direction.RIGHT)).isEqualTo("c");
            assertThat(ops.range("done", 0, -1)).containsExactly("c");
            assertThat(ops.size("jobs")).isEqualTo(1L);
            ops.set("jobs", 0, "B");
            assertThat(ops.remove("jobs", 0, "B")).isEqualTo(1L);
            assertThat(template.hasKey("jobs")).isFalse();

            assertThat(ops.rightPop("empty", Duration.ofMillis(200))).as("a timed out BRPOP").isNull();
            assertThat(ops.move("empty", Direction.RIGHT, "done", Direction.LEFT, Duration.ofMillis(200)))
                    .as("a timed out BLMOVE").isNull();

            StringRedisTemplate other = new StringRedisTemplate(factory);
            CompletableFuture<String> blocked = CompletableFuture.supplyAsync(() -> ops.rightPop("jobs", Duration.ofSeconds(30)));
            other.opsForList().leftPush("jobs", "wake");
            assertThat(within30s(blocked)).isEqualTo("wake");
            CompletableFuture<String> mover = CompletableFuture.supplyAsync(
                    () -> ops.move("jobs", Direction.RIGHT, "done", Direction.LEFT, Duration.ofSeconds(30)));
            other.opsForList().rightPush("jobs", "moved");
            assertThat(within30s(mover)).isEqualTo("moved");
            assertThat(ops.range("done", 0, -1)).containsExactly("moved", "c");
        } finally {
            factory.destroy();
        }
    }
}
