package dev.ordo.patterns.leaderboard;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

/**
 * A local copy of a hot board's top entries (Caffeine), so that thousands of readers cost one
 * read per interval. A copy's age counts from the moment its read <em>started</em>, and a copy is
 * never served once that age passes {@code maxAge}: a reader then waits for a fresh read. Halfway
 * through its life a copy is refreshed in the background by the first reader that sees it, so a
 * steadily read board rarely makes anyone wait.
 */
public final class CachedTop {
    private record Snapshot(List<Entry<String>> entries, long startedNanos) {
    }

    private final LoadingCache<Boolean, Snapshot> cache;

    /**
     * Caches {@code source} (typically {@code () -> board.top(100)}) for at most {@code maxAge}.
     *
     * @param source reads the entries to cache, e.g. from the board
     * @param maxAge how old a cached read may be before it is read again
     * @return the cache, empty until first read
     */
    public static CachedTop of(Supplier<List<Entry<String>>> source, Duration maxAge) {
        return new CachedTop(source, maxAge, Ticker.systemTicker(), ForkJoinPool.commonPool());
    }

    CachedTop(Supplier<List<Entry<String>>> source, Duration maxAge, Ticker ticker, Executor refresher) {
        Objects.requireNonNull(source, "source");
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("maxAge must be positive, got " + maxAge);
        }
        long maxAgeNanos = maxAge.toNanos();
        this.cache = Caffeine.newBuilder()
                .ticker(ticker)
                .executor(refresher)
                .refreshAfterWrite(Duration.ofNanos(Math.max(1, maxAgeNanos / 2)))
                .expireAfter(new Expiry<Boolean, Snapshot>() {
                    @Override
                    public long expireAfterCreate(Boolean key, Snapshot value, long currentTime) {
                        return Math.max(0, maxAgeNanos - (currentTime - value.startedNanos()));
                    }

                    @Override
                    public long expireAfterUpdate(Boolean key, Snapshot value, long currentTime, long currentDuration) {
                        return expireAfterCreate(key, value, currentTime);
                    }

                    @Override
                    public long expireAfterRead(Boolean key, Snapshot value, long currentTime, long currentDuration) {
                        return currentDuration;
                    }
                })
                .build(key -> {
                    long started = ticker.read();
                    return new Snapshot(List.copyOf(source.get()), started);
                });
    }

    /**
     * The top entries, read at most {@code maxAge} ago.
     *
     * @return the entries as {@code source} last gave them
     */
    public List<Entry<String>> get() {
        return cache.get(Boolean.TRUE).entries();
    }
}
