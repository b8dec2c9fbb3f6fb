package dev.ordo.patterns.leaderboard;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Objects;

/**
 * A board's period: a calendar day, an ISO week (Monday to Sunday, weeks numbered as ISO 8601
 * does), a calendar month, each in a time zone, or a custom fixed length counted from an anchor.
 * Names the period holding an instant ({@code day:2026-11-30}, {@code week:2026-W49},
 * {@code month:2026-11}, {@code every:PT6H:2026-11-30T18:00:00Z}: length and start, so periods of
 * one length on different grids never share a name) and tells when it ends.
 *
 * <p>Immutable in what it answers, and safe to share between threads. It remembers the last
 * window it computed (start, end, name and zone, in one immutable record behind a volatile
 * field), since every call on a periodic board asks for the current one: a later instant in that
 * window is answered without calendar arithmetic.
 */
public final class Period {
    private enum Kind { DAY, WEEK, MONTH, FIXED }

    private static final Period DAILY = new Period(Kind.DAY, null, null);
    private static final Period WEEKLY = new Period(Kind.WEEK, null, null);
    private static final Period MONTHLY = new Period(Kind.MONTH, null, null);

    private final Kind kind;
    private final Duration length;
    private final Instant anchor;
    /** The window last asked for: every write and read of a periodic board asks for the current one. */
    private volatile Window last;

    /** One period: the instants from {@code start} (inclusive) to {@code end} (exclusive) in {@code zone}, named {@code id}. */
    private record Window(ZoneId zone, Instant start, Instant end, String id) {
        boolean holds(Instant at, ZoneId in) {
            return !at.isBefore(start) && at.isBefore(end) && zone.equals(in);
        }
    }

    private Period(Kind kind, Duration length, Instant anchor) {
        this.kind = kind;
        this.length = length;
        this.anchor = anchor;
    }

    /**
     * Calendar days.
     *
     * @return the daily period
     */
    public static Period daily() {
        return DAILY;
    }

    /**
     * ISO weeks, starting on Monday.
     *
     * @return the weekly period
     */
    public static Period weekly() {
        return WEEKLY;
    }

    /**
     * Calendar months.
     *
     * @return the monthly period
     */
    public static Period monthly() {
        return MONTHLY;
    }

    /**
     * Periods of {@code length} (at least one second), the first starting at {@code anchor}; time zones do not apply.
     *
     * @param length how long each period lasts, at least one second
     * @param anchor when the first period starts
     * @return the fixed-length period
     */
    public static Period every(Duration length, Instant anchor) {
        if (length.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("a period lasts at least one second, got " + length);
        }
        return new Period(Kind.FIXED, length, Objects.requireNonNull(anchor, "anchor"));
    }

    /**
     * The name of the period holding {@code at}.
     *
     * @param at an instant in the period
     * @param zone the zone calendar periods follow
     * @return the period's name, e.g. {@code day:2026-12-03}, part of its board's key
     */
    public String id(Instant at, ZoneId zone) {
        return window(at, zone).id();
    }

    /**
     * The first instant after the period holding {@code at}.
     *
     * @param at an instant in the period
     * @param zone the zone calendar periods follow
     * @return when the next period starts
     */
    public Instant end(Instant at, ZoneId zone) {
        return window(at, zone).end();
    }

    private Window window(Instant at, ZoneId zone) {
        Window window = last;
        if (window == null || !window.holds(at, zone)) {
            window = compute(at, zone);
            last = window;
        }
        return window;
    }

    private Window compute(Instant at, ZoneId zone) {
        if (kind == Kind.FIXED) {
            Instant start = anchor.plus(length.multipliedBy(index(at)));
            return new Window(zone, start, start.plus(length), "every:" + length + ":" + start);
        }
        LocalDate day = at.atZone(zone).toLocalDate();
        LocalDate first = switch (kind) {
            case DAY -> day;
            case WEEK -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            default -> day.withDayOfMonth(1);
        };
        LocalDate next = switch (kind) {
            case DAY -> first.plusDays(1);
            case WEEK -> first.plusWeeks(1);
            default -> first.plusMonths(1);
        };
        String id = switch (kind) {
            case DAY -> "day:" + day;
            case WEEK -> String.format(Locale.ROOT, "week:%d-W%02d", day.get(IsoFields.WEEK_BASED_YEAR), day.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            default -> String.format(Locale.ROOT, "month:%d-%02d", day.getYear(), day.getMonthValue());
        };
        return new Window(zone, first.atStartOfDay(zone).toInstant(), next.atStartOfDay(zone).toInstant(), id);
    }

    private long index(Instant at) {
        return Math.floorDiv(Duration.between(anchor, at).toMillis(), length.toMillis());
    }

    /** Equal when the periods cut time into the same windows. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Period p) || p.kind != kind) {
            return false;
        }
        return kind != Kind.FIXED || (p.length.equals(length) && p.id(anchor, java.time.ZoneOffset.UTC).equals(id(anchor, java.time.ZoneOffset.UTC)));
    }

    @Override
    public int hashCode() {
        return kind == Kind.FIXED ? Objects.hash(kind, length) : kind.hashCode();
    }

    @Override
    public String toString() {
        return kind == Kind.FIXED ? "every " + length + " from " + anchor : kind.name().toLowerCase(java.util.Locale.ROOT);
    }
}
