package dev.ordo.server.compat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.Redisson;
import org.redisson.api.RCountDownLatch;
import org.redisson.api.RLock;
import org.redisson.api.RSemaphore;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Java's clients build on Pub/Sub, run unchanged against Ordo and against redis-server:
 * Redisson's lock (its unlock script ends in PUBLISH, and a contended {@code tryLock} waits for
 * that message), semaphore, count-down latch and topic; Lettuce's Pub/Sub connection; Spring
 * Data Redis's listener container with {@code convertAndSend}. Each waits for an outcome with a
 * timeout far above what it needs; none decides by timing.
 */
class PubSubClientsTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }

    /** An interruptible wait run on another thread; an interrupt counts as not getting it. */
    @FunctionalInterface
    private interface Wait {
        boolean get() throws InterruptedException;
    }

    private static CompletableFuture<Boolean> waitFor(Wait wait) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return wait.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }


    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void redissonLockUnlocksAndAContendedTryLockGetsItOnTheUnlockMessage(SideBySide.Target target) throws Exception {
        RedissonClient client = target.redisson();
        try {
            RLock lock = client.getLock("lock:" + target.name().replace(' ', '-'));
            lock.lock();
            CompletableFuture<Boolean> waiter = waitFor(() -> lock.tryLock(30, 10, TimeUnit.SECONDS));
            Thread.sleep(200); // let the waiter subscribe and wait; the outcome does not depend on it
            lock.unlock();
            assertThat(waiter.get(30, TimeUnit.SECONDS)).as("the waiter got the lock").isTrue();
            assertThat(lock.isLocked()).isTrue();
            lock.forceUnlock();
            assertThat(lock.isLocked()).isFalse();
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void redissonSemaphoreLatchAndTopicWork(SideBySide.Target target) throws Exception {
        RedissonClient client = target.redisson();
        String prefix = target.name().replace(' ', '-') + ":";
        try {
            RSemaphore semaphore = client.getSemaphore(prefix + "sem");
            semaphore.delete();
            assertThat(semaphore.trySetPermits(1)).isTrue();
            semaphore.acquire();
            CompletableFuture<Boolean> second = waitFor(() -> semaphore.tryAcquire(java.time.Duration.ofSeconds(30)));
            semaphore.release();
            assertThat(second.get(30, TimeUnit.SECONDS)).isTrue();

            RCountDownLatch latch = client.getCountDownLatch(prefix + "latch");
            latch.delete();
            assertThat(latch.trySetCount(1)).isTrue();
            CompletableFuture<Boolean> awaiting = waitFor(() -> latch.await(30, TimeUnit.SECONDS));
            latch.countDown();
            assertThat(awaiting.get(30, TimeUnit.SECONDS)).isTrue();

            RTopic topic = client.getTopic(prefix + "topic");
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            topic.addListener(String.class, (channel, message) -> got.add(message));
            assertThat(topic.publish("hello")).isEqualTo(1L);
            assertThat(got.poll(30, TimeUnit.SECONDS)).isEqualTo("hello");
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void lettucePubSubConnectionReceivesChannelAndPatternMessages(SideBySide.Target target) throws Exception {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + target.port());
        try (StatefulRedisPubSubConnection<String, String> sub = client.connectPubSub();
             var pub = client.connect()) {
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            sub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    got.add(channel + "=" + message);
                }

                @Override
                public void message(String pattern, String channel, String message) {
                    got.add(pattern + ":" + channel + "=" + message);
                }
            });
            sub.sync().subscribe("news");
            sub.sync().psubscribe("new*");
            assertThat(pub.sync().publish("news", "x")).isEqualTo(2L);
            assertThat(List.of(got.poll(30, TimeUnit.SECONDS), got.poll(30, TimeUnit.SECONDS)))
                    .containsExactlyInAnyOrder("news=x", "new*:news=x");
            assertThat(pub.sync().pubsubNumsub("news")).containsEntry("news", 1L);
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void springListenerContainerReceivesConvertAndSend(SideBySide.Target target) throws Exception {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", target.port()));
        factory.afterPropertiesSet();
        factory.start();
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        try {
            container.setConnectionFactory(factory);
            BlockingQueue<String> got = new LinkedBlockingQueue<>();
            container.addMessageListener((message, pattern) -> got.add(new String(message.getBody(), StandardCharsets.UTF_8)),
                    new ChannelTopic("orders"));
            container.afterPropertiesSet();
            container.start();
            StringRedisTemplate template = new StringRedisTemplate(factory);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // The container subscribes in the background: publish until a subscriber counts.
            while (template.convertAndSend("orders", "order-1") == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(got.poll(30, TimeUnit.SECONDS)).isEqualTo("order-1");
        } finally {
            container.stop();
            container.destroy();
            factory.destroy();
        }
    }
}
