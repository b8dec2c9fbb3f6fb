package dev.ordo.server.compat;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.Redisson;
import org.redisson.api.RMapCache;
import org.redisson.api.RedissonClient;
import org.redisson.api.map.event.EntryCreatedListener;
import org.redisson.api.map.event.EntryExpiredListener;
import org.redisson.api.map.event.EntryRemovedListener;
import org.redisson.api.map.event.EntryUpdatedListener;
import org.springframework.cache.Cache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caches Java applications put in front of Redis, run unchanged against Ordo and against
 * redis-server: Redisson's {@code RMapCache} (per-entry TTLs kept in sorted sets beside the hash,
 * entry events over Pub/Sub, expiry by its own scripted eviction task) and Spring's
 * {@code RedisCacheManager} (SET with PX, GET, DEL, and KEYS with a pattern to clear; the immediate
 * evictIfPresent and invalidate, since evict and clear may act later). Each wait
 * is for an outcome, bounded far above what it needs; none decides by timing.
 */
class CacheClientsTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }


    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    @SuppressWarnings("deprecation") // RMapCache is deprecated for RMapCacheNative (Redis 7.4's field TTLs), which neither server has
    void redissonMapCache_entryTtlsAndEvents(SideBySide.Target target) throws Exception {
        RedissonClient client = target.redisson();
        try {
            RMapCache<String, String> cache = client.getMapCache("mapcache");
            cache.delete();
            BlockingQueue<String> events = new LinkedBlockingQueue<>();
            cache.addListener((EntryCreatedListener<String, String>) e -> events.add("created " + e.getKey() + "=" + e.getValue()));
            cache.addListener((EntryUpdatedListener<String, String>) e -> events.add("updated " + e.getKey() + "=" + e.getValue()));
            cache.addListener((EntryRemovedListener<String, String>) e -> events.add("removed " + e.getKey()));
            cache.addListener((EntryExpiredListener<String, String>) e -> events.add("expired " + e.getKey()));

            cache.put("kept", "1");
            assertThat(events.poll(30, TimeUnit.SECONDS)).isEqualTo("created kept=1");
            cache.put("kept", "2");
            assertThat(events.poll(30, TimeUnit.SECONDS)).isEqualTo("updated kept=2");
            cache.put("brief", "x", 1, TimeUnit.SECONDS);
            assertThat(events.poll(30, TimeUnit.SECONDS)).isEqualTo("created brief=x");
            assertThat(cache.remainTimeToLive("brief")).isBetween(1L, 1000L);
            assertThat(cache.fastPutIfAbsent("idle", "y", 0, TimeUnit.SECONDS, 1, TimeUnit.HOURS)).isTrue();
            assertThat(events.poll(30, TimeUnit.SECONDS)).isEqualTo("created idle=y");
            assertThat(cache.fastRemove("idle")).isEqualTo(1L);
            assertThat(events.poll(30, TimeUnit.SECONDS)).isEqualTo("removed idle");

            assertThat(events.poll(30, TimeUnit.SECONDS)).as("the eviction task expired the entry").isEqualTo("expired brief");
            assertThat(cache.get("brief")).isNull();
            assertThat(cache.readAllMap()).containsOnlyKeys("kept");
            assertThat(cache.size()).isEqualTo(1);
        } finally {
            client.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void springRedisCacheManager_putGetEvictAndClear(SideBySide.Target target) throws InterruptedException {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", target.port()));
        factory.afterPropertiesSet();
        factory.start();
        try {
            RedisCacheManager manager = RedisCacheManager.builder(factory)
                    .cacheDefaults(RedisCacheConfiguration.defaultCacheConfig().entryTtl(Duration.ofMinutes(5))).build();
            manager.afterPropertiesSet();
            Cache books = manager.getCache("books");
            Cache other = manager.getCache("authors");
            assertThat(books).isNotNull();
            assertThat(other).isNotNull();
            books.clear();
            other.clear();
            for (int i = 0; i < 50; i++) {
                books.put("isbn-" + i, "title " + i);
            }
            other.put("a", "kept");
            // Spring's Cache.put may register an entry asynchronously (Spring Data Redis writes it
            // through Lettuce's async API), so a lookup right after may not see it yet.
            assertThat(SideBySide.eventually(() -> books.get("isbn-7") != null)).as("the put reached the server").isTrue();
            assertThat(books.get("isbn-7", String.class)).isEqualTo("title 7");
            assertThat(books.putIfAbsent("isbn-7", "other")).extracting(Cache.ValueWrapper::get).isEqualTo("title 7");
            assertThat(books.evictIfPresent("isbn-7")).isTrue();
            assertThat(books.evictIfPresent("isbn-7")).isFalse();
            assertThat(books.get("isbn-7")).isNull();
            assertThat(books.get("missing", () -> "loaded")).isEqualTo("loaded");
            assertThat(SideBySide.eventually(() -> books.get("missing") != null)).as("the loaded value reached the server").isTrue();
            assertThat(books.get("missing", String.class)).isEqualTo("loaded");
            assertThat(books.invalidate()).isTrue();
            assertThat(books.get("isbn-8")).isNull();
            assertThat(books.get("missing")).isNull();
            assertThat(SideBySide.eventually(() -> other.get("a") != null)).as("clearing one cache leaves the others").isTrue();
            assertThat(other.get("a", String.class)).isEqualTo("kept");
        } finally {
            factory.destroy();
        }
    }
}
