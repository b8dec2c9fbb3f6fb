package dev.ordo.spring.boot.seed;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

import java.util.Optional;

/** Support tickets by urgency: the score is the urgency (0 most urgent), taken with ZPOPMIN. */
@Service
public class TicketQueue {
    static final String KEY = "support:tickets";

    private final StringRedisTemplate redis;

    TicketQueue(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** Files {@code ticket} at {@code urgency}. */
    public void file(String ticket, int urgency) {
        redis.opsForZSet().add(KEY, ticket, urgency);
    }

    /** Takes the most urgent ticket, if any. */
    public Optional<String> take() {
        return Optional.ofNullable(redis.opsForZSet().popMin(KEY)).map(t -> t.getValue());
    }
}
