package dev.ordo.spring.boot.data;

import dev.ordo.spring.boot.test.AutoConfigureOrdo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.annotation.Id;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.core.RedisHash;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.repository.configuration.EnableRedisRepositories;
import org.springframework.data.repository.CrudRepository;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring Data Redis's other front doors, with no setting, on the in-process Ordo: the Redis cache behind @Cacheable, and repositories. */
@SpringBootTest(classes = SpringDataRedisOnEmbeddedTest.App.class, properties = "spring.cache.type=redis")
@AutoConfigureOrdo
class SpringDataRedisOnEmbeddedTest {
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableCaching
    @EnableRedisRepositories(considerNestedRepositories = true)
    static class App {
        @Bean
        PriceService priceService() {
            return new PriceService();
        }
    }

    /** A slow look-up worth caching; counts its real calls. */
    static class PriceService {
        private final AtomicInteger calls = new AtomicInteger();

        /** Real calls so far (a method: the caching proxy's own fields are not the target's). */
        public int calls() {
            return calls.get();
        }

        @Cacheable("prices")
        public String priceOf(String sku) {
            calls.incrementAndGet();
            return sku + ":9.99";
        }
    }

    /** A player profile kept as a Redis hash. */
    @RedisHash("profiles")
    record Profile(@Id String id, String name, int level) {
    }

    interface ProfileRepository extends CrudRepository<Profile, String> {
    }

    @Autowired PriceService prices;
    @Autowired CacheManager cacheManager;
    @Autowired ProfileRepository profiles;
    @Autowired StringRedisTemplate redis;

    @Test
    void cacheable_secondCallServedFromOrdo() throws InterruptedException {
        assertThat(cacheManager).isInstanceOf(RedisCacheManager.class);
        assertThat(prices.priceOf("sku-1")).isEqualTo("sku-1:9.99");
        // Spring's Cache.put may register the entry asynchronously (Spring Data Redis's cache
        // writes it through Lettuce's async API), so a lookup right after may not see it yet:
        // wait until the entry is in Ordo, then the next call must be served from it.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!Boolean.TRUE.equals(redis.hasKey("prices::sku-1")) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(redis.hasKey("prices::sku-1")).as("the cached entry reached Ordo").isTrue();
        assertThat(prices.priceOf("sku-1")).isEqualTo("sku-1:9.99");
        assertThat(prices.calls()).isEqualTo(1);
    }

    @Test
    void repository_savesFindsAndDeletes() {
        profiles.save(new Profile("p1", "alice", 7));
        profiles.save(new Profile("p2", "bob", 3));
        assertThat(profiles.findById("p1")).contains(new Profile("p1", "alice", 7));
        assertThat(profiles.count()).isEqualTo(2);
        assertThat(redis.opsForHash().get("profiles:p1", "name")).isEqualTo("alice");
        profiles.deleteById("p1");
        assertThat(profiles.findById("p1")).isEmpty();
        assertThat(profiles.count()).isEqualTo(1);
    }
}
