package dev.ordo.patterns.leaderboard;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A period's name and end for any instant and zone, asked in any order: the window a period
 * remembers between calls never answers for an instant or zone outside it. Checked against the
 * calendar computed afresh for each instant.
 */
class PeriodTest {
    private static final List<ZoneId> ZONES = List.of(ZoneId.of("UTC"), ZoneId.of("Asia/Shanghai"), ZoneId.of("America/New_York"),
            ZoneId.of("Europe/Berlin"), ZoneId.of("Pacific/Chatham"));

    @Property(tries = 300)
    void idAndEnd_anyInstantsAndZonesInAnyOrder_matchTheCalendar(
            @ForAll @LongRange(min = 1_600_000_000L, max = 1_900_000_000L) long first, @ForAll @LongRange(min = -200_000, max = 200_000) long step,
            @ForAll @LongRange(min = 0, max = 4) long zoneIndex) {
        ZoneId zone = ZONES.get((int) zoneIndex);
        ZoneId other = ZONES.get((int) ((zoneIndex + 1) % ZONES.size()));
        for (Instant at : List.of(Instant.ofEpochSecond(first), Instant.ofEpochSecond(first + step), Instant.ofEpochSecond(first + 2 * step))) {
            for (ZoneId z : List.of(zone, other, zone)) {
                assertCalendar(Period.daily(), at, z);
                assertCalendar(Period.weekly(), at, z);
                assertCalendar(Period.monthly(), at, z);
            }
        }
    }

    @Test
    void idAndEnd_lastSecondOfADayThenTheNext_differentWindows() {
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        Instant midnight = LocalDate.of(2026, 12, 31).plusDays(1).atStartOfDay(berlin).toInstant();
        assertThat(Period.daily().id(midnight.minusSeconds(1), berlin)).isEqualTo("day:2026-12-31");
        assertThat(Period.daily().end(midnight.minusSeconds(1), berlin)).isEqualTo(midnight);
        assertThat(Period.daily().id(midnight, berlin)).isEqualTo("day:2027-01-01");
        assertThat(Period.daily().id(midnight.minusSeconds(1), berlin)).isEqualTo("day:2026-12-31");
        assertThat(Period.weekly().id(midnight, berlin)).isEqualTo("week:2026-W53");
        assertThat(Period.monthly().id(midnight, ZoneId.of("UTC"))).isEqualTo("month:2026-12");
    }

    @Test
    void every_fixedLengthWindows_fromTheAnchor() {
        Instant anchor = Instant.parse("2026-11-30T00:00:00Z");
        Period sixHours = Period.every(Duration.ofHours(6), anchor);
        Instant at = Instant.parse("2026-11-30T19:30:00Z");
        assertThat(sixHours.id(at, ZoneId.of("UTC"))).isEqualTo("every:PT6H:2026-11-30T18:00:00Z");
        assertThat(sixHours.end(at, ZoneId.of("UTC"))).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
        assertThat(sixHours.id(Instant.parse("2026-12-01T00:00:00Z"), ZoneId.of("UTC"))).isEqualTo("every:PT6H:2026-12-01T00:00:00Z");
    }

    private static void assertCalendar(Period period, Instant at, ZoneId zone) {
        LocalDate day = at.atZone(zone).toLocalDate();
        String id;
        LocalDate next;
        if (period.equals(Period.daily())) {
            id = "day:" + day;
            next = day.plusDays(1);
        } else if (period.equals(Period.weekly())) {
            id = String.format(Locale.ROOT, "week:%d-W%02d", day.get(IsoFields.WEEK_BASED_YEAR), day.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            next = day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusWeeks(1);
        } else {
            id = String.format(Locale.ROOT, "month:%d-%02d", day.getYear(), day.getMonthValue());
            next = day.withDayOfMonth(1).plusMonths(1);
        }
        assertThat(period.id(at, zone)).as("%s at %s in %s", period, at, zone).isEqualTo(id);
        assertThat(period.end(at, zone)).as("end of %s at %s in %s", period, at, zone).isEqualTo(next.atStartOfDay(zone).toInstant());
    }
}
