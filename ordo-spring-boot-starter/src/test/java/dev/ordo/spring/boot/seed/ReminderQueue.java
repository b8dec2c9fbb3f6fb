package dev.ordo.spring.boot.seed;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Service;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Reminders due at a time: the score is the due time in epoch milliseconds; a script takes the first one due. */
@Service
public class ReminderQueue {
    static final String KEY = "reminders:due";

    private static final RedisScript<String> TAKE_DUE = new DefaultRedisScript<>("""
            local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
            if #due == 0 then
              return false
            end
            redis.call('ZREM', KEYS[1], due[1])
            return due[1]
            """, String.class);

    private final StringRedisTemplate redis;
    private final Clock clock;

    ReminderQueue(StringRedisTemplate redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
    }

    /** Schedules {@code reminder} for {@code at}. */
    public void schedule(String reminder, Instant at) {
        redis.opsForZSet().add(KEY, reminder, at.toEpochMilli());
    }

    /** Takes the earliest reminder that is due now, if any. */
    public Optional<String> takeDue() {
        return Optional.ofNullable(redis.execute(TAKE_DUE, List.of(KEY), String.valueOf(clock.millis())));
    }
}
