package dev.ordo.patterns.ratelimit;

import java.util.concurrent.CompletionStage;

/**
 * Decides whether a caller identified by a key (a user, an IP address, an API token) may go on.
 * Every decision is one script on the server and reads the server's clock (TIME), never the
 * caller's, so any number of application instances agree; all limits of a limiter are checked
 * and charged together, atomically. A key's state expires once the key has been idle for its
 * longest window.
 */
public interface RateLimiter {
    /**
     * Takes {@code permits} for {@code key} if every limit allows it, else takes nothing.
     *
     * @param key what is limited, e.g. a user or an IP address; each key has its own count
     * @param permits how many permits to take at once
     * @return whether they were taken, and when to retry if not
     */
    Decision tryAcquire(String key, long permits);

    /**
     * Takes one permit for {@code key} if every limit allows it.
     *
     * @param key what is limited, e.g. a user or an IP address; each key has its own count
     * @return whether the permit was taken, and when to retry if not
     */
    default Decision tryAcquire(String key) {
        return tryAcquire(key, 1);
    }

    /**
     * {@link #tryAcquire(String, long)}, without blocking; bad arguments are thrown at once.
     *
     * @param key what is limited, e.g. a user or an IP address; each key has its own count
     * @param permits how many permits to take at once
     * @return a stage completing with the decision
     */
    CompletionStage<Decision> tryAcquireAsync(String key, long permits);

    /**
     * {@link #tryAcquire(String)}, without blocking.
     *
     * @param key what is limited, e.g. a user or an IP address; each key has its own count
     * @return a stage completing with the decision
     */
    default CompletionStage<Decision> tryAcquireAsync(String key) {
        return tryAcquireAsync(key, 1);
    }
}
