package dev.ordo.spring.boot.test;

import dev.ordo.spring.boot.EmbeddedOrdo;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * @AutoConfigureOrdo gives an in-process Ordo on a free port that beats a Redis host in the
 * application's properties, and flushes it after each test by default.
 */
@SpringBootTest(classes = TestApp.class, properties = {"spring.data.redis.host=redis.invalid", "spring.data.redis.port=1"})
@AutoConfigureOrdo
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AutoConfigureOrdoTest {
    @Autowired StringRedisTemplate redis;
    @Autowired EmbeddedOrdo ordo;
    @Value("${local.ordo.port}") int port;

    @Test
    @Order(1)
    void first_writesToTheInProcessOrdoOnAFreePort() {
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
