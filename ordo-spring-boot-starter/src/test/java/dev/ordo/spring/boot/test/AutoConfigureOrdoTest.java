package dev.ordo.spring.boot.test;

import dev.ordo.spring.boot.EmbeddedOrdo;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/** @AutoConfigureOrdo: an in-process Ordo that beats a configured Redis host, and flushing between tests as asked. */
class AutoConfigureOrdoTest {
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
    }

    /** Flushes after each test by default, even where the application's properties name a Redis host. */
    @Nested
    @SpringBootTest(classes = App.class, properties = {"spring.data.redis.host=redis.invalid", "spring.data.redis.port=1"})
    @AutoConfigureOrdo
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class FlushAfterEach {
        @Autowired StringRedisTemplate redis;
        @Autowired EmbeddedOrdo ordo;
        @Value("${local.ordo.port}") int port;

        @Test
        @Order(1)
        void first_writes() {
            assertThat(port).isEqualTo(ordo.port()).isPositive();
            redis.opsForValue().set("left-behind", "1");
            assertThat(redis.hasKey("left-behind")).isTrue();
        }

        @Test
        @Order(2)
        void second_seesAnEmptyDatabase() {
            assertThat(redis.hasKey("left-behind")).isFalse();
        }
    }

    /** Keeps data between tests when told not to flush. */
    @Nested
    @SpringBootTest(classes = App.class)
    @AutoConfigureOrdo(flush = AutoConfigureOrdo.Flush.NONE)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class NoFlush {
        @Autowired StringRedisTemplate redis;

        @Test
        @Order(1)
        void first_writes() {
            redis.opsForValue().set("kept", "1");
        }

        @Test
        @Order(2)
        void second_seesIt() {
            assertThat(redis.opsForValue().get("kept")).isEqualTo("1");
        }
    }
}
