package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * MEMORY USAGE, STATS, DOCTOR, MALLOC-STATS, PURGE and HELP, over the memory accounting
 * ({@link MaxMemory}): MEMORY USAGE is exact rather than sampled (SAMPLES is checked and
 * ignored), MEMORY STATS has Redis's fields in Redis's order with the JVM heap as the
 * allocator, and MEMORY DOCTOR applies Redis's rules in Ordo's words.
 */
final class MemoryCommands {
    private static final long MB = 1024 * 1024;
    private static final List<String> HELP = List.of(
            "MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "DOCTOR",
            "    Return memory problems reports.",
            "MALLOC-STATS",
            "    Return internal statistics report from the memory allocator.",
            "PURGE",
            "    Attempt to purge dirty pages for reclamation by the allocator.",
            "STATS",
            "    Return information about the memory usage of the server.",
            "USAGE <key> [SAMPLES <count>]",
            "    Return memory in bytes used by <key> and its value. Nested values are",
            "    sampled up to <count> times (default: 5, 0 means sample all).",
            "HELP",
            "    Prints this help.");

    private MemoryCommands() {
    }

    static void register(CommandTable t) {
        t.register(Command.of("memory", c -> { })
                .with(Command.of("doctor", MemoryCommands::doctor))
                .with(Command.of("malloc-stats", MemoryCommands::mallocStats))
                .with(Command.of("purge", MemoryCommands::purge))
                .with(Command.of("stats", MemoryCommands::stats))
                .with(Command.of("usage", MemoryCommands::usage))
                .with(Command.of("help", c -> c.replyLines(HELP))));
    }

    /** MEMORY USAGE key [SAMPLES count]: the bytes the key and its value hold, as the memory accounting counts them, or nil. */
    private static void usage(Call c) {
        for (int j = 3; j < c.argc(); j++) {
            if (c.argIs(j, "SAMPLES") && j + 1 < c.argc()) {
                if (c.longArg(++j) < 0) {
                    throw new ErrorReply(Errors.SYNTAX);
                }
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        Key key = c.key(2);
        Database.Entry e = c.db().entry(key);
        if (e == null) {
            c.reply().nullBulk();
            return;
        }
        c.reply().integer(Database.memoryUsage(key, e));
    }

    /** MEMORY STATS: Redis's fields in Redis's order; ratios and percentages as doubles. */
    private static void stats(Call c) {
        MemoryFigures m = c.context().maxMemory().figures();
        List<Integer> databases = new ArrayList<>();
        long keys = 0;
        for (int i = 0; i < c.keyspace().databases(); i++) {
            int size = c.keyspace().db(i).size();
            if (size > 0) {
                databases.add(i);
                keys += size;
            }
        }
        ReplyWriter r = c.reply();
        r.mapHeader(27 + databases.size());
        integer(r, "peak.allocated", m.peak());
        integer(r, "total.allocated", m.used());
        integer(r, "startup.allocated", m.startup());
        integer(r, "replication.backlog", 0);
        integer(r, "clients.slaves", 0);
        integer(r, "clients.normal", m.clients());
        integer(r, "cluster.links", 0);
        integer(r, "aof.buffer", 0);
        integer(r, "lua.caches", m.scripts());
        integer(r, "functions.caches", 0);
        for (int i : databases) {
            Database db = c.keyspace().db(i);
            r.bulk("db." + i);
            r.mapHeader(3);
            integer(r, "overhead.hashtable.main", db.tableBytes() - db.expiresTableBytes());
            integer(r, "overhead.hashtable.expires", db.expiresTableBytes());
            integer(r, "overhead.hashtable.slot-to-keys", 0);
        }
        integer(r, "overhead.total", m.overhead());
        integer(r, "keys.count", keys);
        integer(r, "keys.bytes-per-key", keys == 0 ? 0 : (m.used() - m.startup()) / keys);
        integer(r, "dataset.bytes", m.dataset());
        dbl(r, "dataset.percentage", m.datasetPercentage());
        dbl(r, "peak.percentage", m.peakPercentage());
        integer(r, "allocator.allocated", m.heapUsed());
        integer(r, "allocator.active", m.heapCommitted());
        integer(r, "allocator.resident", m.heapCommitted());
        dbl(r, "allocator-fragmentation.ratio", m.heapFragmentation());
        integer(r, "allocator-fragmentation.bytes", m.heapCommitted() - m.heapUsed());
        dbl(r, "allocator-rss.ratio", 1);
        integer(r, "allocator-rss.bytes", 0);
        dbl(r, "rss-overhead.ratio", m.rssOverhead());
        integer(r, "rss-overhead.bytes", m.rss() - m.heapCommitted());
        dbl(r, "fragmentation", m.fragmentation());
        integer(r, "fragmentation.bytes", m.rss() - m.used());
    }

    /**
     * MEMORY DOCTOR: Redis's rules (nothing to say under 5 MB; a peak over 1.5 times the current
     * use; resident memory over 1.4 times what is counted, by more than 10 MB; heap or process
     * overhead over 1.1, by more than 10 MB; client buffers over 200 KB per client; more than
     * 1,000 cached scripts), each finding explained in Ordo's words.
     */
    private static void doctor(Call c) {
        MemoryFigures m = c.context().maxMemory().figures();
        StringBuilder out = new StringBuilder();
        if (m.used() < 5 * MB) {
            out.append("This server holds too little data (under 5 MB) for a memory diagnosis to mean anything.\n");
        } else {
            List<String> findings = new ArrayList<>();
            if (m.used() > 0 && (double) m.peak() / m.used() > 1.5) {
                findings.add("Peak: the server once used more than 1.5 times the memory it uses now. The JVM gives heap back "
                        + "to the system only as the garbage collector shrinks it, so resident memory can stay high for a while.");
            }
            if (m.fragmentation() > 1.4 && m.rss() - m.used() > 10 * MB) {
                findings.add("Resident memory: the process holds more than 1.4 times the memory the data and buffers account "
                        + "for. Heap not yet collected, the JVM itself and a past peak all count here; the launcher's lean "
                        + "settings (jvm.options) keep the heap close to the live data.");
            }
            if (m.heapFragmentation() > 1.1 && m.heapCommitted() - m.heapUsed() > 10 * MB) {
                findings.add("Heap slack: the JVM holds over 10% more heap than is in use. It shrinks after collections "
                        + "when -XX:MaxHeapFreeRatio allows.");
            }
            if (m.rssOverhead() > 1.1 && m.rss() - m.heapCommitted() > 10 * MB) {
                findings.add("Outside the heap: more than 10% of the resident memory is not heap: the JVM's code, classes "
                        + "and threads, and network buffers.");
            }
            int clients = c.context().server().clients().size();
            if (clients > 0 && m.clients() / clients > 200 * 1024) {
                findings.add("Client buffers: clients hold over 200 KB each on average, in replies not yet read or commands "
                        + "not yet run. CLIENT LIST shows which (omem, qbuf, argv-mem, multi-mem).");
            }
            if (c.context().scriptCounts().cachedScripts() > 1000) {
                findings.add("Scripts: more than 1,000 scripts are cached. Scripts built per call instead of taking KEYS and "
                        + "ARGV fill the cache until SCRIPT FLUSH.");
            }
            if (findings.isEmpty()) {
                out.append("No memory problem found.\n");
            } else {
                out.append("Memory findings:\n\n");
                findings.forEach(f -> out.append(" * ").append(f).append("\n\n"));
            }
        }
        c.reply().verbatim("txt", out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** MEMORY MALLOC-STATS: the JVM has no malloc statistics to give, as Redis answers for allocators other than jemalloc. */
    private static void mallocStats(Call c) {
        c.reply().bulk("Stats not supported for the current allocator".getBytes(StandardCharsets.US_ASCII));
    }

    /** MEMORY PURGE: OK, as Redis answers for allocators other than jemalloc. */
    private static void purge(Call c) {
        c.reply().simpleString("OK");
    }

    private static void integer(ReplyWriter r, String name, long value) {
        r.bulk(name);
        r.integer(value);
    }

    private static void dbl(ReplyWriter r, String name, double value) {
        r.bulk(name);
        r.doubleValue(value);
    }
}
