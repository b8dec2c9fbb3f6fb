package dev.ordo.patterns.leaderboard;

import com.github.benmanes.caffeine.cache.Ticker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The cached top on a fake clock: time passes only when a test (or the fake source, to play a
 * slow read) moves the ticker, and refreshes run on the calling thread, so no timing decides an
 * outcome.
 */
class CachedTopTest {
    private static final Duration MAX_AGE = Duration.ofSeconds(10);
    private static final long MAX_AGE_NANOS = MAX_AGE.toNanos();

    /**
     * A source whose every load returns one entry naming the load (its number) with the ticker
     * reading at the load's start as the score, then advances the ticker by the next queued
     * duration (none: an instant read).
     */
    private static final class FakeSource implements Supplier<List<Entry<String>>> {
        final AtomicLong nanos = new AtomicLong();
        final AtomicInteger loads = new AtomicInteger();
        final Deque<Long> durations = new ArrayDeque<>();

        @Override
        public List<Entry<String>> get() {
            int n = loads.incrementAndGet();
            long started = nanos.get();
            Long took = durations.poll();
            if (took != null) {
                nanos.addAndGet(took);
            }
            return List.of(new Entry<>("load" + n, started, 1, Map.of()));
        }

        Ticker ticker() {
            return nanos::get;
        }

        void advance(Duration d) {
            nanos.addAndGet(d.toNanos());
        }

        void advanceNanos(long n) {
            nanos.addAndGet(n);
        }
    }

    private static CachedTop cached(FakeSource source) {
        return new CachedTop(source, MAX_AGE, source.ticker(), Runnable::run);
    }

    private static String loadOf(List<Entry<String>> top) {
        return top.get(0).member();
    }

    /** The ticker reading at which the returned copy's load started. */
    private static long startedAt(List<Entry<String>> top) {
        return (long) top.get(0).score();
    }

    @Test
    void get_secondGetBeforeHalfMaxAge_servesTheCopyWithoutCallingTheSource() {
        FakeSource source = new FakeSource();
        CachedTop top = cached(source);
        List<Entry<String>> first = top.get();
        assertThat(loadOf(first)).isEqualTo("load1");
        source.advance(Duration.ofSeconds(2));
        assertThat(top.get()).isSameAs(first);
        source.advanceNanos(MAX_AGE_NANOS / 2 - Duration.ofSeconds(2).toNanos() - 1);
        assertThat(top.get()).isSameAs(first);
        assertThat(source.loads).hasValue(1);
    }

    @Test
    void get_afterHalfMaxAge_refreshesTheCopy() {
        FakeSource source = new FakeSource();
        CachedTop top = cached(source);
        top.get();
        source.advanceNanos(MAX_AGE_NANOS / 2 + 1);
        top.get();
        assertThat(source.loads).hasValue(2);
        // The refreshed copy is now served, with no further read.
        List<Entry<String>> after = top.get();
        assertThat(loadOf(after)).isEqualTo("load2");
        assertThat(startedAt(after)).isEqualTo(MAX_AGE_NANOS / 2 + 1);
        assertThat(source.loads).hasValue(2);
    }

    @Test
    void get_pastMaxAgeWithoutAnEarlierGet_neverServesTheExpiredCopy() {
        FakeSource source = new FakeSource();
        CachedTop top = cached(source);
        top.get();
        source.advanceNanos(MAX_AGE_NANOS + 1);
        List<Entry<String>> next = top.get();
        assertThat(loadOf(next)).isEqualTo("load2");
        assertThat(startedAt(next)).isEqualTo(MAX_AGE_NANOS + 1);
    }

    @Test
    void get_slowLoad_copyAgesFromWhenItsLoadStartedNotEnded() {
        FakeSource source = new FakeSource();
        source.durations.add(Duration.ofSeconds(8).toNanos());
        CachedTop top = cached(source);
        List<Entry<String>> first = top.get();
        assertThat(loadOf(first)).isEqualTo("load1");
        assertThat(startedAt(first)).isZero();
        assertThat(source.nanos).hasValue(Duration.ofSeconds(8).toNanos());

        // Just past ten seconds after the slow load started (two after it ended) the copy is
        // stale: a cache timing from the end of the load would serve it for eight more seconds.
        source.advanceNanos(Duration.ofSeconds(2).toNanos() + 1);
        List<Entry<String>> next = top.get();
        assertThat(loadOf(next)).isNotEqualTo("load1");
        assertThat(startedAt(next)).isEqualTo(MAX_AGE_NANOS + 1);
    }

    @Test
    void get_loadSlowerThanMaxAge_staleCopyIsReloadedByTheNextGet() {
        FakeSource source = new FakeSource();
        source.durations.add(Duration.ofSeconds(12).toNanos());
        CachedTop top = cached(source);
        // The get that waited for the read gets it: its load started when the get did.
        assertThat(loadOf(top.get())).isEqualTo("load1");

        List<Entry<String>> next = top.get();
        assertThat(loadOf(next)).isEqualTo("load2");
        assertThat(startedAt(next)).isEqualTo(Duration.ofSeconds(12).toNanos());
        assertThat(top.get()).isSameAs(next);
        assertThat(source.loads).hasValue(2);
    }

    @Test
    void get_slowRefresh_refreshedCopyAgesFromTheRefreshStart() {
        FakeSource source = new FakeSource();
        CachedTop top = cached(source);
        top.get();
        // The refresh triggered at 6 s takes 2 s: its copy is already 2 s old when it lands at 8 s.
        source.advance(Duration.ofSeconds(6));
        source.durations.add(Duration.ofSeconds(2).toNanos());
        top.get();
        assertThat(source.loads).hasValue(2);
        List<Entry<String>> refreshed = top.get();
        assertThat(loadOf(refreshed)).isEqualTo("load2");
        assertThat(startedAt(refreshed)).isEqualTo(Duration.ofSeconds(6).toNanos());
        assertThat(source.loads).hasValue(2);

        // Just past 16 s (10 s after the refresh started, 8 after it landed) it is stale.
        source.advanceNanos(Duration.ofSeconds(8).toNanos() + 1);
        List<Entry<String>> later = top.get();
        assertThat(loadOf(later)).isEqualTo("load3");
        assertThat(startedAt(later)).isEqualTo(Duration.ofSeconds(16).toNanos() + 1);
    }

    @Test
    void get_refreshLandingPastHalfItsLife_isRefreshedAgainByTheNextGet() {
        FakeSource source = new FakeSource();
        CachedTop top = cached(source);
        top.get();
        // The refresh triggered at 6 s takes 7 s: at 13 s its copy is 7 s old, past half its life.
        source.advance(Duration.ofSeconds(6));
        source.durations.add(Duration.ofSeconds(7).toNanos());
        top.get();
        assertThat(source.loads).hasValue(2);
        List<Entry<String>> next = top.get();
        assertThat(source.loads).hasValue(3);
        assertThat(loadOf(next)).isEqualTo("load3");
        assertThat(startedAt(next)).isEqualTo(Duration.ofSeconds(13).toNanos());
    }

    @Test
    void get_randomReadsAndLoadTimes_neverReturnsACopyWhoseLoadStartedMoreThanMaxAgeBeforeTheGet() {
        Random random = new Random(20261201);
        FakeSource source = new FakeSource();
        CachedTop top = cached(source);
        for (int i = 0; i < 5_000; i++) {
            // Steps and loads from instant to one and a half maximum ages, often near the edges.
            source.advanceNanos(randomSpan(random));
            if (random.nextInt(3) == 0) {
                source.durations.clear();
                source.durations.add(randomSpan(random));
            }
            long getStarted = source.nanos.get();
            List<Entry<String>> got = top.get();
            assertThat(getStarted - startedAt(got)).as("age of %s at get %d", loadOf(got), i)
                    .isBetween(0L, MAX_AGE_NANOS);
        }
        assertThat(source.loads.get()).isBetween(100, 5_000);
    }

    private static long randomSpan(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> MAX_AGE_NANOS / 2 + random.nextInt(3) - 1;
            case 2 -> MAX_AGE_NANOS + random.nextInt(3) - 1;
            case 3 -> random.nextInt(1000);
            default -> (long) (random.nextDouble() * 1.5 * MAX_AGE_NANOS);
        };
    }

    @Test
    void constructor_nonPositiveMaxAgeOrNoSource_rejects() {
        FakeSource source = new FakeSource();
        assertThatThrownBy(() -> new CachedTop(source, Duration.ZERO, source.ticker(), Runnable::run))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CachedTop(source, Duration.ofNanos(-1), source.ticker(), Runnable::run))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CachedTop.of(null, MAX_AGE)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void get_sourceReturnsMutableList_servedCopyIsImmutable() {
        FakeSource source = new FakeSource();
        CachedTop top = new CachedTop(() -> new java.util.ArrayList<>(source.get()), MAX_AGE, source.ticker(), Runnable::run);
        assertThatThrownBy(() -> top.get().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
