package dev.ordo.spring.boot.seed;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Service;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * A sliding-log throttle: each client's requests in the window are a sorted set scored by time;
 * a script drops the ones that left the window, counts the rest and admits or refuses in one step.
 */
@Service
public class RequestThrottle {
    private static final RedisScript<Long> ADMIT = new DefaultRedisScript<>("""
            local now = tonumber(ARGV[1])
            local window = tonumber(ARGV[2])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
            if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
              return 0
            end
            redis.call('ZADD', KEYS[1], now, ARGV[4])
            redis.call('PEXPIRE', KEYS[1], window)
            return 1
            """, Long.class);

    private final StringRedisTemplate redis;
    private final Clock clock;

    RequestThrottle(StringRedisTemplate redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
    }

    /** Admits one request of {@code client} if fewer than {@code max} were admitted in the last {@code window}. */
    public boolean admit(String client, int max, Duration window) {
        Long admitted = redis.execute(ADMIT, List.of("throttle:" + client), String.valueOf(clock.millis()),
                String.valueOf(window.toMillis()), String.valueOf(max), UUID.randomUUID().toString());
        return admitted != null && admitted == 1;
    }
}
