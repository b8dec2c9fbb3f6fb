package dev.ordo.spring.boot.test;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/** @AutoConfigureOrdo(flush = NONE) keeps data from one test to the next. */
@SpringBootTest(classes = TestApp.class)
@AutoConfigureOrdo(flush = AutoConfigureOrdo.Flush.NONE)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AutoConfigureOrdoNoFlushTest {
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
