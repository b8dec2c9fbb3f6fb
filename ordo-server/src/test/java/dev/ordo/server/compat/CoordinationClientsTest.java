package dev.ordo.server.compat;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redisson's coordination objects beyond those in {@code PubSubClientsTest}, run unchanged
 * against Ordo and against redis-server: the read-write lock (a hash of holders and an unlock
 * message), the permit-expirable semaphore (a sorted set of permits by expiry) and the rate
 * limiter (its scripted window over a sorted set and counters). Each wait is for an outcome,
 * bounded far above what it needs; none decides by timing, and the rate limiter's window is far
 * longer than the test.
 */
class CoordinationClientsTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }


    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void readWriteLock_readersShare_aWriterWaitsForThem(SideBySide.Target target) throws Exception {
        RedissonClient client = target.redisson();
        try {
            RReadWriteLock rw = client.getReadWriteLock("rwlock");
            rw.readLock().forceUnlock();
            rw.writeLock().forceUnlock();
            rw.readLock().lock();
            boolean otherReader = CompletableFuture.supplyAsync(() -> {
                boolean got = rw.readLock().tryLock();
                if (got) {
                    rw.readLock().unlock();
                }
                return got;
            }).get(30, TimeUnit.SECONDS);
            assertThat(otherReader).as("a second reader shares the lock").isTrue();
            CompletableFuture<Boolean> writer = CompletableFuture.supplyAsync(() -> {
                try {
                    boolean got = rw.writeLock().tryLock(30, 10, TimeUnit.SECONDS);
                    if (got) {
                        rw.writeLock().unlock();
                    }
                    return got;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            });
            rw.readLock().unlock();
            assertThat(writer.get(30, TimeUnit.SECONDS)).as("the writer got the lock once the reader left").isTrue();
            assertThat(rw.writeLock().isLocked()).isFalse();
            assertThat(rw.readLock().isLocked()).isFalse();
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void permitExpirableSemaphore_acquireReleaseAndLease(SideBySide.Target target) throws Exception {
        RedissonClient client = target.redisson();
        try {
            RPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore("pes");
            semaphore.delete();
            assertThat(semaphore.trySetPermits(2)).isTrue();
            String first = semaphore.acquire();
            String second = semaphore.tryAcquire(30_000, 3_600_000, TimeUnit.MILLISECONDS);
            assertThat(second).isNotNull();
            assertThat(semaphore.availablePermits()).isZero();
            assertThat(semaphore.tryAcquire()).isNull();
            CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return semaphore.tryAcquire(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            });
            semaphore.release(first);
            String third = waiting.get(30, TimeUnit.SECONDS);
            assertThat(third).as("the waiter got the released permit").isNotNull();
            assertThat(semaphore.tryRelease(first)).as("a permit is released once").isFalse();
            semaphore.release(second);
            semaphore.release(third);
            assertThat(semaphore.availablePermits()).isEqualTo(2);
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void rateLimiter_grantsTheRateAndRefusesTheRest(SideBySide.Target target) {
        RedissonClient client = target.redisson();
        try {
            RRateLimiter limiter = client.getRateLimiter("limiter");
            limiter.delete();
            assertThat(limiter.trySetRate(RateType.OVERALL, 5, Duration.ofHours(1))).isTrue();
            for (int i = 0; i < 5; i++) {
                assertThat(limiter.tryAcquire()).as("permit %d of 5", i + 1).isTrue();
            }
            assertThat(limiter.tryAcquire()).as("the sixth in the window").isFalse();
            assertThat(limiter.availablePermits()).isZero();
            assertThat(limiter.getConfig().getRate()).isEqualTo(5L);
        } finally {
            client.shutdown();
        }
    }
}
