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
 */
public final class Period {
    private enum Kind { DAY, WEEK, MONTH, FIXED }

    private final Kind kind;
    private final Duration length;
    private final Instant anchor;

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
        return new Period(Kind.DAY, null, null);
    }

    /**
     * ISO weeks, starting on Monday.
     *
     * @return the weekly period
     */
    public static Period weekly() {
        return new Period(Kind.WEEK, null, null);
    }

    /**
     * Calendar months.
     *
     * @return the monthly period
     */
    public static Period monthly() {
        return new Period(Kind.MONTH, null, null);
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
        LocalDate day = at.atZone(zone).toLocalDate();
        return switch (kind) {
            case DAY -> "day:" + day;
            case WEEK -> String.format(Locale.ROOT, "week:%d-W%02d", day.get(IsoFields.WEEK_BASED_YEAR), day.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case MONTH -> String.format(Locale.ROOT, "month:%d-%02d", day.getYear(), day.getMonthValue());
            case FIXED -> "every:" + length + ":" + anchor.plus(length.multipliedBy(index(at)));
        };
    }

    /**
     * The first instant after the period holding {@code at}.
     *
     * @param at an instant in the period
     * @param zone the zone calendar periods follow
     * @return when the next period starts
     */
    public Instant end(Instant at, ZoneId zone) {
        LocalDate day = at.atZone(zone).toLocalDate();
        return switch (kind) {
            case DAY -> day.plusDays(1).atStartOfDay(zone).toInstant();
            case WEEK -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusWeeks(1).atStartOfDay(zone).toInstant();
            case MONTH -> day.withDayOfMonth(1).plusMonths(1).atStartOfDay(zone).toInstant();
            case FIXED -> anchor.plus(length.multipliedBy(index(at) + 1));
        };
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
