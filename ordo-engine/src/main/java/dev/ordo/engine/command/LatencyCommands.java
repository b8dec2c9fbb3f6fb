package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * LATENCY, with Redis 7.2's subcommands and reply shapes: LATEST, HISTORY, RESET, GRAPH, DOCTOR
 * (reading the {@link LatencyMonitor}), HISTOGRAM (reading each command's {@link CommandLatency})
 * and HELP. DOCTOR and GRAPH reply verbatim text (a bulk string in RESP2) laid out as Redis's:
 * DOCTOR's one line of figures per event, then advice; GRAPH's header, a rule of dashes and a
 * {@link Sparkline}. DOCTOR's prose is Ordo's own and advises on what Ordo has. They only read
 * what the engine keeps; RESET is the one that changes anything.
 */
final class LatencyCommands {

    private LatencyCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("latency", c -> { })
                .with(Command.of("latest", LatencyCommands::latest))
                .with(Command.of("history", LatencyCommands::history))
                .with(Command.of("reset", LatencyCommands::reset))
                .with(Command.of("graph", LatencyCommands::graph))
                .with(Command.of("doctor", LatencyCommands::doctor))
                .with(Command.of("histogram", LatencyCommands::histogram))
                .with(Command.of("help", LatencyCommands::help)));
    }

    private static LatencyMonitor monitor(Call c) {
        return c.context().dispatcher().latencyMonitor();
    }

    /** LATENCY LATEST: per event, its name, the newest sample's time and latency, and the all-time highest. */
    private static void latest(Call c) {
        LatencyMonitor monitor = monitor(c);
        List<String> events = monitor.events();
        ReplyWriter r = c.reply();
        r.arrayHeader(events.size());
        for (String event : events) {
            List<LatencyMonitor.Sample> samples = monitor.history(event);
            LatencyMonitor.Sample newest = samples.get(samples.size() - 1);
            r.arrayHeader(4);
            r.bulk(event.getBytes(StandardCharsets.UTF_8));
            r.integer(newest.timeSeconds());
            r.integer(newest.millis());
            r.integer(monitor.allTimeMax(event));
        }
    }

    /** LATENCY HISTORY event: its samples, oldest first, each a pair of time and latency; empty for an unknown event. */
    private static void history(Call c) {
        List<LatencyMonitor.Sample> samples = monitor(c).history(c.argString(2));
        ReplyWriter r = c.reply();
        r.arrayHeader(samples.size());
        for (LatencyMonitor.Sample s : samples) {
            r.arrayHeader(2);
            r.integer(s.timeSeconds());
            r.integer(s.millis());
        }
    }

    /** LATENCY RESET [event ...]: forgets those events (all without names); replies how many were forgotten. */
    private static void reset(Call c) {
        List<String> names = new ArrayList<>();
        for (int i = 2; i < c.argc(); i++) {
            names.add(c.argString(i));
        }
        c.reply().integer(monitor(c).reset(names));
    }

    /** LATENCY GRAPH event: its samples charted, labelled with how long ago each was taken. */
    private static void graph(Call c) {
        LatencyMonitor monitor = monitor(c);
        String event = c.argString(2);
        List<LatencyMonitor.Sample> samples = monitor.history(event);
        if (samples.isEmpty()) {
            throw new ErrorReply(Errors.latencyNoSamples(event));
        }
        LatencyMonitor.Stats stats = monitor.stats(event);
        StringBuilder out = new StringBuilder();
        out.append(event).append(" - high ").append(stats.max()).append(" ms, low ").append(stats.min())
                .append(" ms (all time high ").append(monitor.allTimeMax(event)).append(" ms)\n");
        out.append("-".repeat(Sparkline.COLUMNS)).append('\n');
        long now = monitor.nowSeconds();
        List<Sparkline.Point> points = new ArrayList<>();
        for (LatencyMonitor.Sample s : samples) {
            points.add(new Sparkline.Point(s.millis(), ago(now - s.timeSeconds())));
        }
        Sparkline.render(out, points);
        c.reply().verbatim("txt", out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** How long ago, in the largest whole unit: {@code 5s}, {@code 3m}, {@code 2h}, {@code 1d}. */
    private static String ago(long seconds) {
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m";
        }
        return seconds < 86400 ? seconds / 3600 + "h" : seconds / 86400 + "d";
    }

    /** LATENCY DOCTOR: a report of each event's figures and what might lower them. */
    private static void doctor(Call c) {
        c.reply().verbatim("txt", doctorReport(c).getBytes(StandardCharsets.UTF_8));
    }

    /** The advice DOCTOR can give, in the order it gives it. */
    private enum Advice {
        ENABLE_SLOWLOG, TUNE_SLOWLOG, READ_SLOWLOG, SCHEDULER, LOCAL_DISK, RELAX_FSYNC, RAISE_HZ, LARGE_VALUES, MASS_EVICTION
    }

    private static String doctorReport(Call c) {
        LatencyMonitor monitor = monitor(c);
        List<String> events = monitor.events();
        if (events.isEmpty() && !monitor.enabled()) {
            return "Latency monitoring is disabled in this Ordo instance. Use \"CONFIG SET latency-monitor-threshold "
                    + "<milliseconds>\" to enable it: events that take at least that long are then recorded.\n";
        }
        if (events.isEmpty()) {
            return "No latency spike has been recorded in this Ordo instance since monitoring began or was last reset.\n";
        }
        StringBuilder out = new StringBuilder("Latency spikes were recorded in this Ordo instance:\n\n");
        Set<Advice> advice = new LinkedHashSet<>();
        int number = 0;
        for (String event : events) {
            LatencyMonitor.Stats s = monitor.stats(event);
            out.append(String.format(Locale.ROOT,
                    "%d. %s: %d latency spikes (average %dms, mean deviation %dms, period %.2f sec). Worst all time event %dms.\n",
                    ++number, event, s.samples(), s.average(), s.meanDeviation(), (double) s.period() / s.samples(),
                    monitor.allTimeMax(event)));
            adviseOn(c, event, advice);
        }
        if (advice.isEmpty()) {
            out.append("\nNo easy fix can be suggested for these events.\n");
            return out.toString();
        }
        out.append("\nSome advice:\n\n");
        long threshold = monitor.threshold();
        for (Advice a : advice) {
            out.append(switch (a) {
                case ENABLE_SLOWLOG -> "- Slow commands caused latency, and the slow log is off. Turn it on to see which: "
                        + "'CONFIG SET slowlog-log-slower-than " + threshold * 1000 + "'.\n";
                case TUNE_SLOWLOG -> "- The slow log only records commands slower than the latency monitor's threshold. "
                        + "Use 'CONFIG SET slowlog-log-slower-than " + threshold * 1000 + "'.\n";
                case READ_SLOWLOG -> "- SLOWLOG GET lists the commands that ran too long, with their arguments.\n";
                case SCHEDULER -> "- Commands that take microseconds took milliseconds: the server was not running. Look for "
                        + "long garbage collection pauses in the JVM's log (-Xlog:gc), lower the machine's load, or give "
                        + "Ordo a machine of its own.\n";
                case LOCAL_DISK -> "- Writing the append-only file was slow. Keep it on a local disk, an SSD if the write "
                        + "load is high, away from other programs that write much.\n";
                case RELAX_FSYNC -> "- appendfsync is 'always': every write waits for the disk. If losing up to a second of "
                        + "writes in a machine crash is acceptable, use 'CONFIG SET appendfsync everysec'.\n";
                case RAISE_HZ -> "- To expire keys in smaller steps, raise hz: 'CONFIG SET hz 100'.\n";
                case LARGE_VALUES -> "- Deleting, expiring or evicting a large value holds the server while it is freed. "
                        + "Split values that are often deleted, expired or evicted into smaller keys.\n";
                case MASS_EVICTION -> "- Lowering maxmemory at once, or writing large values, makes the server evict many "
                        + "keys in one go. Change maxmemory in small steps.\n";
            });
        }
        return out.toString();
    }

    /** Adds the advice that {@code event}'s spikes call for. */
    private static void adviseOn(Call c, String event, Set<Advice> advice) {
        switch (event) {
            case "command" -> {
                long slower = c.context().config().getLong("slowlog-log-slower-than");
                if (slower < 0 || c.context().config().getLong("slowlog-max-len") == 0) {
                    advice.add(Advice.ENABLE_SLOWLOG);
                } else if (slower / 1000 > monitor(c).threshold()) {
                    advice.add(Advice.TUNE_SLOWLOG);
                }
                advice.add(Advice.READ_SLOWLOG);
                advice.add(Advice.LARGE_VALUES);
            }
            case "fast-command" -> advice.add(Advice.SCHEDULER);
            case "expire-cycle" -> {
                if (c.context().config().getLong("hz") < 100) {
                    advice.add(Advice.RAISE_HZ);
                }
                advice.add(Advice.LARGE_VALUES);
            }
            case "eviction-cycle" -> advice.add(Advice.MASS_EVICTION);
            case "aof-write" -> advice.add(Advice.LOCAL_DISK);
            case "aof-fsync-always" -> {
                if (c.context().config().get("appendfsync").equals("always")) {
                    advice.add(Advice.RELAX_FSYNC);
                }
            }
            default -> {
            }
        }
    }

    /**
     * LATENCY HISTOGRAM [command ...]: a map from command name to its latency distribution, for
     * the named commands (a container names its subcommands too; unknown names and commands never
     * called are left out), or for every command called.
     */
    private static void histogram(Call c) {
        Map<String, Dispatcher.CommandStats> stats = c.context().dispatcher().stats();
        List<String> names = new ArrayList<>();
        if (c.argc() == 2) {
            stats.forEach((name, s) -> {
                if (s.latency != null) {
                    names.add(name);
                }
            });
        } else {
            for (int i = 2; i < c.argc(); i++) {
                Command cmd = ServerCommands.lookupFullName(c.context().commands(), c.argString(i));
                if (cmd == null) {
                    continue;
                }
                addIfRecorded(stats, cmd, names);
                cmd.subcommands().values().forEach(sub -> addIfRecorded(stats, sub, names));
            }
        }
        ReplyWriter r = c.reply();
        r.mapHeader(names.size());
        for (String name : names) {
            r.bulk(name.getBytes(StandardCharsets.UTF_8));
            stats.get(name).latency.writeCumulative(r);
        }
    }

    private static void addIfRecorded(Map<String, Dispatcher.CommandStats> stats, Command cmd, List<String> names) {
        Dispatcher.CommandStats s = stats.get(cmd.fullName());
        if (s != null && s.latency != null) {
            names.add(cmd.fullName());
        }
    }

    private static void help(Call c) {
        ServerCommands.help(c, "LATENCY",
                "DOCTOR",
                "    Reply with a report on the latency figures, with advice.",
                "GRAPH <event>",
                "    Reply with an ASCII chart of the <event>'s latency samples.",
                "HISTORY <event>",
                "    Reply with the <event>'s samples: unix time and latency in milliseconds.",
                "LATEST",
                "    Reply with every event's newest sample and its all-time highest latency.",
                "RESET [<event> ...]",
                "    Forget the samples of the named events.",
                "    (default: forget the samples of every event)",
                "HISTOGRAM [COMMAND ...]",
                "    Reply with the cumulative distribution of the named commands' latencies, in microseconds.",
                "    If no command is named, every command with calls is shown.");
    }
}
