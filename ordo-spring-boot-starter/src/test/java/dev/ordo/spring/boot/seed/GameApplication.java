package dev.ordo.spring.boot.seed;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.time.Clock;

/**
 * A small Spring Boot application shaped like the seed's: a points leaderboard, a support-ticket
 * priority queue, a reminder queue and a request throttle, each a service on StringRedisTemplate
 * with ZSetOperations or a DefaultRedisScript, and nothing of Ordo in its code. With the starter
 * on the class path and no Redis configured, it runs on the in-process Ordo.
 */
@SpringBootApplication
public class GameApplication {
    /** The clock the services read, so tests can hold time still. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
