package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Store;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Periodic board families on every back end, with an injected clock, and the pure arithmetic of
 * {@link Period}. Every clock in a back-end test lies in the 2030s, after the servers' real time,
 * so that PEXPIREAT (which the server compares with its own clock) never deletes a key at once.
 */
class PeriodicLeaderboardTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final Duration RETENTION = Duration.ofDays(2);

    /** A family of daily, weekly and monthly boards plus all-time, in Berlin, on a settable clock. */
    private static PeriodicLeaderboard family(Backend backend, String name, AtomicReference<Instant> now) {
        return PeriodicLeaderboard.builder(backend.store(), name)
                .period(Period.daily())
                .period(Period.weekly())
                .period(Period.monthly())
                .allTime()
                .zone(BERLIN)
                .retention(RETENTION)
                .clock(now::get)
                .build();
    }

    private static long pexpiretime(Store store, String key) {
        return store.call(StoreCommand.of("PEXPIRETIME").key(key)).asLong();
    }

    private static Map<String, Double> scores(Leaderboard board) {
        Map<String, Double> out = new HashMap<>();
        board.top(Leaderboard.MAX_WINDOW).forEach(e -> out.put(e.member(), e.score()));
        return out;
    }

    // ---- back-end tests -------------------------------------------------------------------

    @OnEveryBackend
    void addPoints_familyOfFourBoards_onePlacementPerBoardPeriodsInDeclarationOrderThenAllTime(Backend backend) {
        // 2031-03-30 is the last Sunday of March (DST starts in Berlin) and ends ISO week 13.
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2031-03-30T10:00:00Z"));
        PeriodicLeaderboard f = family(backend, Backend.uniqueName("periodic"), now);
        f.addPointsAll("carol", 40);
        assertThat(f.addPointsAll("alice", 10)).containsExactly(
                new Placement<>("alice", 10, 2), new Placement<>("alice", 10, 2),
                new Placement<>("alice", 10, 2), new Placement<>("alice", 10, 2));

        // Monday 2031-03-31: a new day and a new ISO week (W14), still March.
        now.set(Instant.parse("2031-03-31T10:00:00Z"));
        assertThat(f.addPointsAll("alice", 25)).containsExactly(
                new Placement<>("alice", 25, 1),   // day 2031-03-31: alone
                new Placement<>("alice", 25, 1),   // week 2031-W14: alone
                new Placement<>("alice", 35, 2),   // month 2031-03: behind carol's 40
                new Placement<>("alice", 35, 2));  // all time

        // Tuesday 2031-04-01: a new day and a new month, same week.
        now.set(Instant.parse("2031-04-01T10:00:00Z"));
        assertThat(f.addPointsAll("alice", 1)).containsExactly(
                new Placement<>("alice", 1, 1),
                new Placement<>("alice", 26, 1),
                new Placement<>("alice", 1, 1),
                new Placement<>("alice", 36, 2));
    }

    @OnEveryBackend
    void addPoints_clockPassesMidnightInZone_newDailyBoardWhileWeeklyAndAllTimeAccumulate(Backend backend) {
        String name = Backend.uniqueName("periodic");
        // 2031-03-12 23:59:59 in Berlin (UTC+1), a Wednesday.
        Instant beforeMidnight = Instant.parse("2031-03-12T22:59:59Z");
        AtomicReference<Instant> now = new AtomicReference<>(beforeMidnight);
        PeriodicLeaderboard f = family(backend, name, now);
        f.addPointsAll("alice", 10);
        f.addPointsAll("bob", 7);
        Leaderboard firstDay = f.current(Period.daily());
        assertThat(firstDay.key()).isEqualTo("{" + name + "}:day:2031-03-12");

        // Midnight in Berlin is 23:00 UTC: the UTC date is still the 12th, Berlin's is the 13th.
        now.set(Instant.parse("2031-03-12T23:00:00Z"));
        List<Placement<String>> placements = f.addPointsAll("alice", 5);
        assertThat(placements).extracting(Placement::score).containsExactly(5.0, 15.0, 15.0, 15.0);

        Leaderboard secondDay = f.current(Period.daily());
        assertThat(secondDay.key()).isEqualTo("{" + name + "}:day:2031-03-13");
        assertThat(scores(secondDay)).isEqualTo(Map.of("alice", 5.0));
        assertThat(scores(f.current(Period.weekly()))).isEqualTo(Map.of("alice", 15.0, "bob", 7.0));
        assertThat(scores(f.current(Period.monthly()))).isEqualTo(Map.of("alice", 15.0, "bob", 7.0));
        assertThat(scores(f.allTime())).isEqualTo(Map.of("alice", 15.0, "bob", 7.0));
        assertThat(f.current(Period.weekly()).key()).isEqualTo("{" + name + "}:week:2031-W11");
        assertThat(f.current(Period.monthly()).key()).isEqualTo("{" + name + "}:month:2031-03");
        assertThat(f.allTime().key()).isEqualTo("{" + name + "}:all");

        // The past day stays readable, by any instant inside it.
        Leaderboard past = f.at(Period.daily(), Instant.parse("2031-03-11T23:00:00Z"));
        assertThat(past.key()).isEqualTo(firstDay.key());
        assertThat(scores(past)).isEqualTo(Map.of("alice", 10.0, "bob", 7.0));
        assertThat(past.rank("bob")).hasValue(2);
        assertThat(f.at(Period.daily(), beforeMidnight).top(2)).extracting(Entry::member).containsExactly("alice", "bob");
    }

    @OnEveryBackend
    void addPoints_periodBoards_expireAtPeriodEndPlusRetentionAndAllTimeNever(Backend backend) {
        // Wednesday 2031-03-12, 12:00 in Berlin (UTC+1). The month ends after DST began (UTC+2).
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2031-03-12T11:00:00Z"));
        PeriodicLeaderboard f = family(backend, Backend.uniqueName("periodic"), now);
        f.addPointsAll("alice", 1);
        Store store = backend.store();
        Duration r = RETENTION;
        assertThat(pexpiretime(store, f.current(Period.daily()).key()))
                .isEqualTo(Instant.parse("2031-03-12T23:00:00Z").plus(r).toEpochMilli());
        assertThat(pexpiretime(store, f.current(Period.weekly()).key()))
                .isEqualTo(Instant.parse("2031-03-16T23:00:00Z").plus(r).toEpochMilli());
        assertThat(pexpiretime(store, f.current(Period.monthly()).key()))
                .isEqualTo(Instant.parse("2031-03-31T22:00:00Z").plus(r).toEpochMilli());
        assertThat(pexpiretime(store, f.allTime().key())).isEqualTo(-1L);

        // A later write in the same periods keeps the same deadlines.
        now.set(Instant.parse("2031-03-12T22:59:59.999Z"));
        f.addPointsAll("bob", 1);
        assertThat(pexpiretime(store, f.current(Period.daily()).key()))
                .isEqualTo(Instant.parse("2031-03-12T23:00:00Z").plus(r).toEpochMilli());
    }

    @OnEveryBackend
    void write_allKeysOfFamily_shareOneHashTagSoTheScriptRunsOnACluster(Backend backend) {
        String name = Backend.uniqueName("periodic");
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2031-06-15T12:00:00Z"));
        PeriodicLeaderboard f = PeriodicLeaderboard.builder(backend.store(), name)
                .period(Period.daily())
                .period(Period.weekly())
                .period(Period.monthly())
                .period(Period.every(Duration.ofHours(6), Instant.parse("2031-01-01T00:00:00Z")))
                .allTime()
                .zone(BERLIN)
                .options(BoardOptions.highestFirst().withTieRule(TieRule.DENSE))
                .clock(now::get)
                .build();
        // DENSE keeps two helper keys per board: 1 + 5 * 4 keys in one script.
        assertThat(f.setScoreAll("alice", 3)).hasSize(5).allSatisfy(p -> assertThat(p.rank()).isEqualTo(1));
        assertThat(f.keepBestAll("alice", 2)).extracting(Placement::score).containsOnly(3.0);

        List<String> keys = List.of(
                f.current(Period.daily()).key(), f.current(Period.weekly()).key(), f.current(Period.monthly()).key(),
                f.current(Period.every(Duration.ofHours(6), Instant.parse("2031-01-01T00:00:00Z"))).key(),
                f.allTime().key());
        assertThat(keys).allSatisfy(k -> assertThat(k).startsWith("{" + name + "}:"));
        assertThat(keys.get(3)).isEqualTo("{" + name + "}:every:PT6H:" + Instant.parse("2031-01-01T00:00:00Z").plus(Duration.ofHours(6).multipliedBy((31 + 28 + 31 + 30 + 31 + 14) * 4 + 2)));
        Set<Long> slots = new HashSet<>();
        if (backend == Backend.REDIS_CLUSTER) {
            for (String k : keys) {
                slots.add(backend.nodes().get(0).call(StoreCommand.of("CLUSTER").arg("KEYSLOT").arg(k)).asLong());
            }
            slots.add(backend.nodes().get(0).call(StoreCommand.of("CLUSTER").arg("KEYSLOT").arg("{" + name + "}:meta")).asLong());
            assertThat(slots).hasSize(1);
        }
        for (String k : keys) {
            assertThat(backend.store().call(StoreCommand.of("EXISTS").key(k)).asLong()).as(k).isEqualTo(1L);
        }
    }

    @OnEveryBackend
    void builderNameWithHashTag_keysKeepThatTag(Backend backend) {
        String tag = Backend.uniqueName("tagged");
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2031-06-15T12:00:00Z"));
        PeriodicLeaderboard f = PeriodicLeaderboard.builder(backend.store(), "game{" + tag + "}")
                .period(Period.daily()).allTime().clock(now::get).build();
        assertThat(f.addPointsAll("alice", 2)).extracting(Placement::score).containsExactly(2.0, 2.0);
        assertThat(f.current(Period.daily()).key()).isEqualTo("game{" + tag + "}:day:2031-06-15");
        assertThat(f.allTime().key()).isEqualTo("game{" + tag + "}:all");
    }

    @OnEveryBackend
    void remove_throughPeriodBoard_leavesOtherBoardsOfFamily(Backend backend) {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2031-06-15T12:00:00Z"));
        PeriodicLeaderboard f = family(backend, Backend.uniqueName("periodic"), now);
        f.addPointsAll("alice", 4);
        assertThat(f.current(Period.daily()).remove("alice")).isTrue();
        assertThat(f.current(Period.daily()).count()).isZero();
        assertThat(f.current(Period.weekly()).score("alice")).hasValue(4);
        assertThat(f.allTime().score("alice")).hasValue(4);
    }

    @OnEveryBackend
    void remove_periodBoardKeepsSharedMetadata_familyRemoveDropsEverything(Backend backend) {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2031-06-15T12:00:00Z"));
        PeriodicLeaderboard f = family(backend, Backend.uniqueName("periodic"), now);
        f.addPointsAll("alice", 4);
        f.setMetadata("alice", Map.of("name", "Alice"));
        f.current(Period.daily()).remove("alice");
        assertThat(f.allTime().metadata("alice")).as("metadata is the family's").containsEntry("name", "Alice");
        assertThat(f.remove("alice")).isTrue();
        assertThat(f.current(Period.weekly()).score("alice")).isEmpty();
        assertThat(f.allTime().score("alice")).isEmpty();
        assertThat(f.allTime().metadata("alice")).isEmpty();
        assertThat(f.remove("alice")).isFalse();
    }

    @OnEveryBackend
    void writeThroughPeriodBoard_keepsTheFamilysExpiry(Backend backend) {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2031-06-15T12:00:00Z"));
        PeriodicLeaderboard f = family(backend, Backend.uniqueName("periodic"), now);
        Leaderboard daily = f.current(Period.daily());
        daily.addPoints("bob", 1);
        long expected = Instant.parse("2031-06-15T22:00:00Z").plus(RETENTION).toEpochMilli();
        assertThat(pexpiretime(backend.store(), daily.key())).isEqualTo(expected);
        assertThat(pexpiretime(backend.store(), f.allTime().key())).isEqualTo(-2);
    }

    // ---- Period, pure -----------------------------------------------------------------------

    @Test
    void weeklyId_aroundYearBoundary_followsIsoWeekBasedYear() {
        Period week = Period.weekly();
        // Checked against java.time: 2026-12-31 (Thursday) and 2027-01-01 (Friday) are both in
        // 2026-W53, the week 2026-12-28 (Monday) .. 2027-01-03 (Sunday); 2027-01-04 starts 2027-W01.
        assertThat(week.id(Instant.parse("2026-12-27T22:59:59Z"), BERLIN)).isEqualTo("week:2026-W52");
        assertThat(week.id(Instant.parse("2026-12-27T23:00:00Z"), BERLIN)).isEqualTo("week:2026-W53");
        assertThat(week.id(Instant.parse("2026-12-31T12:00:00Z"), BERLIN)).isEqualTo("week:2026-W53");
        assertThat(week.id(Instant.parse("2027-01-01T12:00:00Z"), BERLIN)).isEqualTo("week:2026-W53");
        assertThat(week.id(Instant.parse("2027-01-03T22:59:59Z"), BERLIN)).isEqualTo("week:2026-W53");
        assertThat(week.id(Instant.parse("2027-01-03T23:00:00Z"), BERLIN)).isEqualTo("week:2027-W01");
        // The same instant is still Sunday in UTC.
        assertThat(week.id(Instant.parse("2027-01-03T23:00:00Z"), ZoneOffset.UTC)).isEqualTo("week:2026-W53");
        assertThat(week.id(Instant.parse("2020-12-31T12:00:00Z"), ZoneOffset.UTC)).isEqualTo("week:2020-W53");
        assertThat(week.id(Instant.parse("2021-01-04T12:00:00Z"), ZoneOffset.UTC)).isEqualTo("week:2021-W01");
    }

    @Test
    void weeklyEnd_aroundYearBoundary_isTheNextMondayMidnightInZone() {
        Period week = Period.weekly();
        Instant end = Instant.parse("2027-01-03T23:00:00Z");
        assertThat(week.end(Instant.parse("2026-12-31T12:00:00Z"), BERLIN)).isEqualTo(end);
        assertThat(week.end(Instant.parse("2027-01-01T12:00:00Z"), BERLIN)).isEqualTo(end);
        assertThat(week.end(Instant.parse("2026-12-27T23:00:00Z"), BERLIN)).isEqualTo(end);
        assertThat(week.end(end, BERLIN)).isEqualTo(Instant.parse("2027-01-10T23:00:00Z"));
        assertThat(week.end(Instant.parse("2027-01-03T23:00:00Z"), ZoneOffset.UTC)).isEqualTo(Instant.parse("2027-01-04T00:00:00Z"));
    }

    @Test
    void dailyAndMonthly_idsAndEnds_followTheZoneAndItsDaylightSavingTime() {
        Period day = Period.daily();
        Period month = Period.monthly();
        assertThat(day.id(Instant.parse("2026-12-31T22:59:59Z"), BERLIN)).isEqualTo("day:2026-12-31");
        assertThat(day.id(Instant.parse("2026-12-31T23:00:00Z"), BERLIN)).isEqualTo("day:2027-01-01");
        assertThat(month.id(Instant.parse("2026-12-31T23:00:00Z"), BERLIN)).isEqualTo("month:2027-01");
        assertThat(month.id(Instant.parse("2026-12-31T22:59:59Z"), BERLIN)).isEqualTo("month:2026-12");
        assertThat(month.end(Instant.parse("2026-12-15T00:00:00Z"), BERLIN)).isEqualTo(Instant.parse("2026-12-31T23:00:00Z"));
        // 2031-03-30 lasts 23 hours in Berlin: it starts at UTC+1 and ends at UTC+2.
        assertThat(day.end(Instant.parse("2031-03-30T10:00:00Z"), BERLIN)).isEqualTo(Instant.parse("2031-03-30T22:00:00Z"));
        assertThat(month.end(Instant.parse("2031-03-01T00:00:00Z"), BERLIN)).isEqualTo(Instant.parse("2031-03-31T22:00:00Z"));
        // 2031-10-26 lasts 25 hours.
        assertThat(day.end(Instant.parse("2031-10-25T22:00:00Z"), BERLIN)).isEqualTo(Instant.parse("2031-10-26T23:00:00Z"));
    }

    @Test
    void ids_defaultLocaleWithNonLatinDigits_stayAsciiSoEveryClientNamesTheSameKey() {
        Locale saved = Locale.getDefault(Locale.Category.FORMAT);
        try {
            // String.format without a locale would write these digits as ٢٠٢٧ and ٠١.
            Locale.setDefault(Locale.Category.FORMAT, Locale.forLanguageTag("ar-SA"));
            Instant at = Instant.parse("2027-01-04T12:00:00Z");
            assertThat(Period.weekly().id(at, ZoneOffset.UTC)).isEqualTo("week:2027-W01");
            assertThat(Period.monthly().id(at, ZoneOffset.UTC)).isEqualTo("month:2027-01");
            assertThat(Period.daily().id(at, ZoneOffset.UTC)).isEqualTo("day:2027-01-04");
            assertThat(Period.every(Duration.ofDays(1), Instant.EPOCH).id(at, ZoneOffset.UTC)).isEqualTo("every:PT24H:2027-01-04T00:00:00Z");
        } finally {
            Locale.setDefault(Locale.Category.FORMAT, saved);
        }
    }

    @Test
    void every_idsAndEnds_countWholeLengthsFromTheAnchorInAnyZone() {
        Instant anchor = Instant.parse("2031-01-01T03:00:00Z");
        Period sixHours = Period.every(Duration.ofHours(6), anchor);
        assertThat(sixHours.id(anchor, BERLIN)).isEqualTo("every:PT6H:2031-01-01T03:00:00Z");
        assertThat(sixHours.end(anchor, BERLIN)).isEqualTo(Instant.parse("2031-01-01T09:00:00Z"));
        Instant lastMilli = Instant.parse("2031-01-01T08:59:59.999Z");
        assertThat(sixHours.id(lastMilli, BERLIN)).isEqualTo("every:PT6H:2031-01-01T03:00:00Z");
        assertThat(sixHours.end(lastMilli, BERLIN)).isEqualTo(Instant.parse("2031-01-01T09:00:00Z"));
        assertThat(sixHours.id(Instant.parse("2031-01-01T09:00:00Z"), BERLIN)).isEqualTo("every:PT6H:2031-01-01T09:00:00Z");
        assertThat(sixHours.end(Instant.parse("2031-01-01T09:00:00Z"), BERLIN)).isEqualTo(Instant.parse("2031-01-01T15:00:00Z"));
        assertThat(sixHours.id(Instant.parse("2031-01-03T02:59:59Z"), BERLIN)).isEqualTo("every:PT6H:2031-01-02T21:00:00Z");
        // Zones do not apply.
        assertThat(sixHours.id(Instant.parse("2031-01-03T02:59:59Z"), ZoneId.of("Pacific/Kiritimati"))).isEqualTo("every:PT6H:2031-01-02T21:00:00Z");
        // Before the anchor the index is negative and the period still ends on the grid.
        Instant before = Instant.parse("2031-01-01T02:59:59.999Z");
        assertThat(sixHours.id(before, BERLIN)).isEqualTo("every:PT6H:2030-12-31T21:00:00Z");
        assertThat(sixHours.end(before, BERLIN)).isEqualTo(anchor);
        assertThat(sixHours.id(Instant.parse("2030-12-31T21:00:00Z"), BERLIN)).isEqualTo("every:PT6H:2030-12-31T21:00:00Z");
        assertThat(sixHours.id(Instant.parse("2030-12-31T20:59:59Z"), BERLIN)).isEqualTo("every:PT6H:2030-12-31T15:00:00Z");
    }

    @Test
    void every_sameLengthOtherGrid_getsOtherNamesAndTheSameGridTwiceIsRefused() {
        Instant at = Instant.parse("2031-01-01T01:10:00Z");
        Period onTheHour = Period.every(Duration.ofHours(1), Instant.parse("2031-01-01T00:00:00Z"));
        Period onTheHalfHour = Period.every(Duration.ofHours(1), Instant.parse("2031-01-01T00:30:00Z"));
        assertThat(onTheHour.id(at, BERLIN)).isNotEqualTo(onTheHalfHour.id(at, BERLIN));
        assertThat(Period.every(Duration.ofMillis(1500), Instant.EPOCH).id(at, BERLIN))
                .isNotEqualTo(Period.every(Duration.ofSeconds(1), Instant.EPOCH).id(at, BERLIN));
        Period sameGrid = Period.every(Duration.ofHours(1), Instant.parse("2030-06-01T07:00:00Z"));
        assertThat(sameGrid).isEqualTo(onTheHour);
        assertThatThrownBy(() -> PeriodicLeaderboard.builder(Backend.EMBEDDED.store(), "dup").period(onTheHour).period(sameGrid))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already part of this family");
        assertThatThrownBy(() -> PeriodicLeaderboard.builder(Backend.EMBEDDED.store(), "dup").period(Period.daily()).period(Period.daily()))
                .isInstanceOf(IllegalArgumentException.class);
        PeriodicLeaderboard.builder(Backend.EMBEDDED.store(), "two-grids").period(onTheHour).period(onTheHalfHour).build();
    }

    @Test
    void every_lengthUnderOneSecond_rejects() {
        assertThatThrownBy(() -> Period.every(Duration.ofMillis(999), Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one second");
        assertThat(Period.every(Duration.ofSeconds(1), Instant.EPOCH).id(Instant.ofEpochSecond(5), ZoneOffset.UTC))
                .isEqualTo("every:PT1S:1970-01-01T00:00:05Z");
        assertThatThrownBy(() -> Period.every(Duration.ofSeconds(1), null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void builder_noBoardsOrNegativeRetention_rejectsAndAllTimeWithoutOneThrows() {
        Store store = Backend.EMBEDDED.store();
        assertThatThrownBy(() -> PeriodicLeaderboard.builder(store, "x").build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PeriodicLeaderboard.builder(store, "x").retention(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        PeriodicLeaderboard daily = PeriodicLeaderboard.builder(store, "x").period(Period.daily()).build();
        assertThatThrownBy(daily::allTime).isInstanceOf(IllegalStateException.class);
    }
}
