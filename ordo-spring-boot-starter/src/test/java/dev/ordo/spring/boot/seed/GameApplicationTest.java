package dev.ordo.spring.boot.seed;

import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.store.Store;
import dev.ordo.spring.boot.EmbeddedOrdo;
import dev.ordo.spring.boot.test.AutoConfigureOrdo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's test shape (services on StringRedisTemplate, ZSetOperations and DefaultRedisScript,
 * a @SpringBootTest that flushes between tests) on the starter's embedded mode: no Testcontainers,
 * no redis-server, no connection setting.
 */
@SpringBootTest(classes = {GameApplication.class, GameApplicationTest.FixedClock.class})
@AutoConfigureOrdo
class GameApplicationTest {
    @Autowired PointsBoard board;
    @Autowired TicketQueue tickets;
    @Autowired ReminderQueue reminders;
    @Autowired RequestThrottle throttle;
    @Autowired MutableClock clock;
    @Autowired EmbeddedOrdo ordo;
    @Autowired Store store;

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {
        final AtomicLong millis = new AtomicLong(Instant.parse("2026-12-03T12:00:00Z").toEpochMilli());

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        void advance(Duration by) {
            millis.addAndGet(by.toMillis());
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class FixedClock {
        @Bean
        @Primary
        MutableClock mutableClock() {
            return new MutableClock();
        }
    }

    @Test
    void runsOnTheInProcessOrdo() {
        assertThat(store).isInstanceOf(EmbeddedStore.class);
        board.award("alice", 1);
        assertThat(ordo.ordo().engine().config().get("port")).isNotNull();
        try (EmbeddedStore engine = EmbeddedStore.on(ordo.ordo().engine())) {
            assertThat(engine.call(dev.ordo.patterns.store.StoreCommand.of("ZSCORE").key(PointsBoard.KEY).arg("alice")).asString())
                    .isEqualTo("1");
        }
    }

    @Test
    void board_bestFirst_positionsFromOne() {
        board.award("alice", 120);
        board.award("bob", 95);
        assertThat(board.award("bob", 60)).isEqualTo(155);
        assertThat(board.best(2)).containsExactly(new PointsBoard.Standing("bob", 155), new PointsBoard.Standing("alice", 120));
        assertThat(board.position("alice")).contains(2L);
        assertThat(board.position("carol")).isEmpty();
    }

    @Test
    void tickets_mostUrgentFirst() {
        tickets.file("printer jammed", 5);
        tickets.file("site down", 0);
        tickets.file("password reset", 2);
        assertThat(tickets.take()).contains("site down");
        assertThat(tickets.take()).contains("password reset");
        assertThat(tickets.take()).contains("printer jammed");
        assertThat(tickets.take()).isEmpty();
    }

    @Test
    void reminders_takenOnlyOnceDue() {
        reminders.schedule("stand-up", clock.instant().plus(Duration.ofMinutes(10)));
        reminders.schedule("coffee", clock.instant().plus(Duration.ofMinutes(1)));
        assertThat(reminders.takeDue()).isEmpty();
        clock.advance(Duration.ofMinutes(5));
        assertThat(reminders.takeDue()).contains("coffee");
        assertThat(reminders.takeDue()).isEmpty();
        clock.advance(Duration.ofMinutes(5));
        assertThat(reminders.takeDue()).contains("stand-up");
    }

    @Test
    void throttle_refusesPastTheLimit_perClient_andSlides() {
        Duration window = Duration.ofSeconds(10);
        assertThat(throttle.admit("c-1", 3, window)).isTrue();
        clock.advance(Duration.ofSeconds(4));
        assertThat(throttle.admit("c-1", 3, window)).isTrue();
        assertThat(throttle.admit("c-1", 3, window)).isTrue();
        assertThat(throttle.admit("c-1", 3, window)).isFalse();
        assertThat(throttle.admit("c-2", 3, window)).isTrue();
        clock.advance(Duration.ofSeconds(7));
        assertThat(throttle.admit("c-1", 3, window)).as("the first request has left the window").isTrue();
        assertThat(throttle.admit("c-1", 3, window)).isFalse();
    }
}
