package dev.ordo.engine.command;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.memory.ProcessMemory;
import dev.ordo.engine.pubsub.PubSub;
import dev.ordo.engine.pubsub.Space;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The text of INFO: Redis 7.2's sections, in its order, with its field names. Each section is
 * {@code # Title} followed by {@code name:value} lines, every line ending in CRLF, sections
 * separated by an empty line.
 *
 * <p>Figures Ordo has are real: clients (blocked, watching, in the timeout table), commands and
 * their instantaneous rate, the transport's connections and network bytes ({@link
 * ServerControl#transportStats()}: none for embedded clients), keyspace counters, cached scripts
 * and functions, the JVM heap as memory (used as used_memory and the allocator's allocated bytes,
 * committed as its active and resident bytes and as RSS), JVM process times as CPU. Figures about
 * machinery Ordo lacks (forks, replication, pub/sub, tracking, defragmentation, a separate Lua
 * heap, per-client buffers, errors by code, latency percentiles) keep Redis's field names with
 * idle values, so that tools reading INFO find every field they expect. The transport's {@link
 * ServerControl#serverInfo()} lines replace same-named server fields or are added to the server
 * section.
 */
final class InfoReport {
    /** Every section, in the order INFO prints them. */
    static final List<String> SECTIONS = List.of("server", "clients", "memory", "persistence", "stats", "replication",
            "cpu", "modules", "commandstats", "errorstats", "latencystats", "cluster", "keyspace");
    private static final List<String> NOT_DEFAULT = List.of("commandstats", "latencystats");
    private static final String RUN_ID = randomHex(40);
    private static final String REPLICATION_ID = randomHex(40);

    private final Call call;

    private InfoReport(Call call) {
        this.call = call;
    }

    /** The report for INFO's arguments: none or "default" for the default sections, "all"/"everything" for all. */
    static String forArguments(Call c) {
        List<String> wanted = new ArrayList<>();
        if (c.argc() == 1) {
            addDefault(wanted);
        }
        for (int i = 1; i < c.argc(); i++) {
            String name = c.argString(i).toLowerCase(Locale.ROOT);
            if (name.equals("all") || name.equals("everything")) {
                wanted.addAll(SECTIONS);
            } else if (name.equals("default")) {
                addDefault(wanted);
            } else {
                wanted.add(name);
            }
        }
        return new InfoReport(c).render(wanted);
    }

    private static void addDefault(List<String> wanted) {
        for (String s : SECTIONS) {
            if (!NOT_DEFAULT.contains(s)) {
                wanted.add(s);
            }
        }
    }

    private String render(List<String> wanted) {
        StringBuilder out = new StringBuilder();
        for (String section : SECTIONS) {
            if (!wanted.contains(section)) {
                continue;
            }
            if (out.length() > 0) {
                out.append("\r\n");
            }
            out.append("# ").append(title(section)).append("\r\n");
            for (Map.Entry<String, String> field : fields(section).entrySet()) {
                out.append(field.getKey()).append(':').append(field.getValue()).append("\r\n");
            }
        }
        return out.toString();
    }

    private static String title(String section) {
        if (section.equals("cpu")) {
            return "CPU";
        }
        return Character.toUpperCase(section.charAt(0)) + section.substring(1);
    }

    private Map<String, String> fields(String section) {
        Map<String, String> f = new LinkedHashMap<>();
        switch (section) {
            case "server":
                server(f);
                break;
            case "clients":
                clients(f);
                break;
            case "memory":
                memory(f);
                break;
            case "persistence":
                persistence(f);
                break;
            case "stats":
                stats(f);
                break;
            case "replication":
                replication(f);
                break;
            case "cpu":
                cpu(f);
                break;
            case "commandstats":
                commandStats(f);
                break;
            case "latencystats":
                latencyStats(f);
                break;
            case "errorstats":
                call.context().dispatcher().errorStats().forEach((code, n) -> f.put("errorstat_" + code, "count=" + n));
                break;
            case "cluster":
                f.put("cluster_enabled", "0");
                break;
            case "keyspace":
                keyspace(f);
                break;
            default:
                break;
        }
        return f;
    }

    private void server(Map<String, String> f) {
        long now = call.now();
        long uptimeSeconds = ManagementFactory.getRuntimeMXBean().getUptime() / 1000;
        String hz = config().get("hz");
        f.put("redis_version", ServerCommands.REDIS_VERSION);
        f.put("redis_git_sha1", "00000000");
        f.put("redis_git_dirty", "0");
        f.put("redis_build_id", "0000000000000000");
        f.put("redis_mode", "standalone");
        f.put("os", operatingSystem());
        f.put("arch_bits", System.getProperty("sun.arch.data.model", "64"));
        f.put("monotonic_clock", "System.nanoTime");
        f.put("multiplexing_api", "java.nio");
        f.put("atomicvar_api", "java.util.concurrent");
        f.put("gcc_version", "0.0.0");
        f.put("process_id", String.valueOf(ProcessHandle.current().pid()));
        f.put("process_supervised", "no");
        f.put("run_id", RUN_ID);
        f.put("tcp_port", config().get("port"));
        f.put("server_time_usec", String.valueOf(now * 1000));
        f.put("uptime_in_seconds", String.valueOf(uptimeSeconds));
        f.put("uptime_in_days", String.valueOf(uptimeSeconds / 86400));
        f.put("hz", hz);
        f.put("configured_hz", hz);
        f.put("lru_clock", String.valueOf((now / 1000) & 0xFFFFFF));
        f.put("executable", ProcessHandle.current().info().command().orElse(""));
        f.put("config_file", "");
        f.put("io_threads_active", "0");
        for (String line : call.context().server().serverInfo()) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                f.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
    }

    private static String operatingSystem() {
        String arch = System.getProperty("os.arch", "");
        if (arch.equals("amd64")) {
            arch = "x86_64";
        }
        return System.getProperty("os.name", "") + " " + System.getProperty("os.version", "") + " " + arch;
    }

    private void clients(Map<String, String> f) {
        BlockedClients blocked = call.context().blocking();
        Transactions transactions = call.context().transactions();
        f.put("connected_clients", String.valueOf(call.context().server().clients().size()));
        f.put("cluster_connections", "0");
        f.put("maxclients", config().get("maxclients"));
        f.put("client_recent_max_input_buffer", "0");
        f.put("client_recent_max_output_buffer", "0");
        f.put("blocked_clients", String.valueOf(blocked.clients()));
        f.put("tracking_clients", String.valueOf(call.context().tracking().clientCount()));
        f.put("pubsub_clients", String.valueOf(call.context().server().clients().stream().filter(Session::subscribed).count()));
        f.put("watching_clients", String.valueOf(transactions.watchingClients()));
        f.put("clients_in_timeout_table", String.valueOf(blocked.withTimeout()));
        f.put("total_watched_keys", String.valueOf(transactions.watchedKeys()));
        f.put("total_blocking_keys", String.valueOf(blocked.keys()));
        f.put("total_blocking_keys_on_nokey", "0");
    }

    private void memory(Map<String, String> f) {
        MaxMemory memory = call.context().maxMemory();
        MemoryFigures m = memory != null ? memory.figures() : heapOnly();
        long system = totalSystemMemory();
        long maxmemory = config().getLong("maxmemory");
        long scriptsEval = m.scripts();
        ScriptCounts scripts = call.context().scriptCounts();
        f.put("used_memory", String.valueOf(m.used()));
        f.put("used_memory_human", human(m.used()));
        f.put("used_memory_rss", String.valueOf(m.rss()));
        f.put("used_memory_rss_human", human(m.rss()));
        f.put("used_memory_peak", String.valueOf(m.peak()));
        f.put("used_memory_peak_human", human(m.peak()));
        f.put("used_memory_peak_perc", MemoryFigures.twoDecimals(m.peakPercentage()) + "%");
        f.put("used_memory_overhead", String.valueOf(m.overhead()));
        f.put("used_memory_startup", String.valueOf(m.startup()));
        f.put("used_memory_dataset", String.valueOf(m.dataset()));
        f.put("used_memory_dataset_perc", MemoryFigures.twoDecimals(m.datasetPercentage()) + "%");
        f.put("allocator_allocated", String.valueOf(m.heapUsed()));
        f.put("allocator_active", String.valueOf(m.heapCommitted()));
        f.put("allocator_resident", String.valueOf(m.heapCommitted()));
        f.put("total_system_memory", String.valueOf(system));
        f.put("total_system_memory_human", human(system));
        zeros(f, "used_memory_lua", "used_memory_vm_eval");
        f.put("used_memory_lua_human", human(0));
        f.put("used_memory_scripts_eval", String.valueOf(scriptsEval));
        f.put("number_of_cached_scripts", String.valueOf(scripts.cachedScripts()));
        f.put("number_of_functions", String.valueOf(scripts.functions()));
        f.put("number_of_libraries", String.valueOf(scripts.libraries()));
        zeros(f, "used_memory_vm_functions", "used_memory_vm_total");
        f.put("used_memory_vm_total_human", human(0));
        f.put("used_memory_functions", "0");
        f.put("used_memory_scripts", String.valueOf(scriptsEval));
        f.put("used_memory_scripts_human", human(scriptsEval));
        f.put("maxmemory", String.valueOf(maxmemory));
        f.put("maxmemory_human", human(maxmemory));
        f.put("maxmemory_policy", config().get("maxmemory-policy"));
        // Ordo's own: the limit in force, which with maxmemory 0 comes from the heap (see HeapBudget).
        f.put("maxmemory_effective", String.valueOf(m.limit()));
        f.put("maxmemory_effective_human", human(m.limit()));
        f.put("maxmemory_effective_source", m.implicitLimit() ? "heap" : "maxmemory");
        f.put("allocator_frag_ratio", MemoryFigures.twoDecimals(m.heapFragmentation()));
        f.put("allocator_frag_bytes", String.valueOf(m.heapCommitted() - m.heapUsed()));
        f.put("allocator_rss_ratio", "1.00");
        f.put("allocator_rss_bytes", "0");
        f.put("rss_overhead_ratio", MemoryFigures.twoDecimals(m.rssOverhead()));
        f.put("rss_overhead_bytes", String.valueOf(m.rss() - m.heapCommitted()));
        f.put("mem_fragmentation_ratio", MemoryFigures.twoDecimals(m.fragmentation()));
        f.put("mem_fragmentation_bytes", String.valueOf(m.rss() - m.used()));
        zeros(f, "mem_not_counted_for_evict", "mem_replication_backlog", "mem_total_replication_buffers", "mem_clients_slaves");
        f.put("mem_clients_normal", String.valueOf(m.clients()));
        zeros(f, "mem_cluster_links", "mem_aof_buffer");
        f.put("mem_allocator", "jvm");
        zeros(f, "active_defrag_running", "lazyfree_pending_objects", "lazyfreed_objects");
        // Ordo's own: the JVM heap the figures above live in.
        f.put("heap_used", String.valueOf(m.heapUsed()));
        f.put("heap_committed", String.valueOf(m.heapCommitted()));
        f.put("heap_max", String.valueOf(m.heapMax()));
        f.put("heap_max_human", human(m.heapMax()));
    }

    /** The figures of a context that keeps no accounting: only the heap's. */
    private static MemoryFigures heapOnly() {
        Runtime rt = Runtime.getRuntime();
        long heapUsed = rt.totalMemory() - rt.freeMemory();
        return new MemoryFigures(0, 0, 0, 0, 0, 0, 0, 0, ProcessMemory.residentBytes(), heapUsed, rt.totalMemory(), rt.maxMemory(), 0,
                false);
    }

    private static long totalSystemMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return 0;
    }

    /** Redis's human-readable byte count: 512B, 1015.50K, 6.87M ... */
    static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + "B";
        }
        String[] units = {"K", "M", "G", "T", "P"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.2f%s", value, units[unit]);
    }

    private void persistence(Map<String, String> f) {
        call.context().persistence().info(f);
    }

    private void stats(Map<String, String> f) {
        Dispatcher dispatcher = call.context().dispatcher();
        Keyspace.Stats ks = call.keyspace().stats();
        TransportStats transport = call.context().server().transportStats();
        InstantaneousMetrics instantaneous = dispatcher.instantaneous();
        f.put("total_connections_received", String.valueOf(transport.connectionsReceived()));
        // Redis counts a command once it has run, so the INFO being answered is not yet included.
        f.put("total_commands_processed", String.valueOf(dispatcher.totalCommands()));
        f.put("instantaneous_ops_per_sec", String.valueOf(instantaneous.opsPerSec()));
        f.put("total_net_input_bytes", String.valueOf(transport.inputBytes()));
        f.put("total_net_output_bytes", String.valueOf(transport.outputBytes()));
        zeros(f, "total_net_repl_input_bytes", "total_net_repl_output_bytes");
        f.put("instantaneous_input_kbps", kbps(instantaneous.inputKbps()));
        f.put("instantaneous_output_kbps", kbps(instantaneous.outputKbps()));
        f.put("instantaneous_input_repl_kbps", kbps(0));
        f.put("instantaneous_output_repl_kbps", kbps(0));
        f.put("rejected_connections", String.valueOf(transport.rejectedConnections()));
        zeros(f, "sync_full", "sync_partial_ok", "sync_partial_err");
        f.put("expired_keys", String.valueOf(ks.expiredKeys));
        f.put("expired_stale_perc", "0.00");
        f.put("expired_time_cap_reached_count", "0");
        f.put("expire_cycle_cpu_milliseconds", String.valueOf(ks.expireCycleMicros / 1000));
        MaxMemory memory = call.context().maxMemory();
        f.put("evicted_keys", String.valueOf(ks.evictedKeys));
        f.put("evicted_clients", String.valueOf(transport.evictedClients()));
        f.put("total_eviction_exceeded_time", String.valueOf(memory == null ? 0 : memory.totalExceededMillis()));
        f.put("current_eviction_exceeded_time", String.valueOf(memory == null ? 0 : memory.currentExceededMillis()));
        f.put("keyspace_hits", String.valueOf(ks.keyspaceHits));
        f.put("keyspace_misses", String.valueOf(ks.keyspaceMisses));
        PubSub pubsub = call.context().pubSub();
        f.put("pubsub_channels", String.valueOf(pubsub.nameCount(Space.CHANNELS)));
        f.put("pubsub_patterns", String.valueOf(pubsub.nameCount(Space.PATTERNS)));
        f.put("pubsubshard_channels", String.valueOf(pubsub.nameCount(Space.SHARD_CHANNELS)));
        zeros(f, "latest_fork_usec", "total_forks",
                "migrate_cached_sockets", "slave_expires_tracked_keys", "active_defrag_hits", "active_defrag_misses",
                "active_defrag_key_hits", "active_defrag_key_misses", "total_active_defrag_time",
                "current_active_defrag_time");
        Tracking tracking = call.context().tracking();
        f.put("tracking_total_keys", String.valueOf(tracking.keyCount()));
        f.put("tracking_total_items", String.valueOf(tracking.itemCount()));
        f.put("tracking_total_prefixes", String.valueOf(tracking.prefixCount()));
        f.put("unexpected_error_replies", "0");
        f.put("total_error_replies", String.valueOf(dispatcher.errorStats().total()));
        f.put("dump_payload_sanitizations", "0");
        f.put("client_query_buffer_limit_disconnections", String.valueOf(transport.queryBufferLimitDisconnections()));
        f.put("client_output_buffer_limit_disconnections", String.valueOf(transport.outputBufferLimitDisconnections()));
        f.put("total_reads_processed", String.valueOf(transport.readsProcessed()));
        f.put("total_writes_processed", String.valueOf(transport.writesProcessed()));
        zeros(f, "io_threaded_reads_processed", "io_threaded_writes_processed", "reply_buffer_shrinks",
                "reply_buffer_expands", "eventloop_cycles", "eventloop_duration_sum", "eventloop_duration_cmd_sum",
                "instantaneous_eventloop_cycles_per_sec", "instantaneous_eventloop_duration_usec");
        dev.ordo.engine.acl.Acl acl = call.context().acl();
        for (String[] denied : new String[][] {{"auth", "auth"}, {"cmd", "command"}, {"key", "key"}, {"channel", "channel"}}) {
            f.put("acl_access_denied_" + denied[0], String.valueOf(acl == null ? 0 : acl.log().count(denied[1])));
        }
    }

    private static String kbps(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static void replication(Map<String, String> f) {
        f.put("role", "master");
        f.put("connected_slaves", "0");
        f.put("master_failover_state", "no-failover");
        f.put("master_replid", REPLICATION_ID);
        f.put("master_replid2", "0".repeat(40));
        f.put("master_repl_offset", "0");
        f.put("second_repl_offset", "-1");
        f.put("repl_backlog_active", "0");
        f.put("repl_backlog_size", "1048576");
        f.put("repl_backlog_first_byte_offset", "0");
        f.put("repl_backlog_histlen", "0");
    }

    /** Process CPU time split into user and system, summed over the JVM's live threads; main thread = the caller's. */
    private static void cpu(Map<String, String> f) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long userNanos = 0;
        long totalNanos = 0;
        if (threads.isThreadCpuTimeSupported()) {
            for (long id : threads.getAllThreadIds()) {
                userNanos += Math.max(0, threads.getThreadUserTime(id));
                totalNanos += Math.max(0, threads.getThreadCpuTime(id));
            }
        }
        long mainUser = Math.max(0, threads.getCurrentThreadUserTime());
        long mainTotal = Math.max(0, threads.getCurrentThreadCpuTime());
        f.put("used_cpu_sys", seconds(totalNanos - userNanos));
        f.put("used_cpu_user", seconds(userNanos));
        f.put("used_cpu_sys_children", seconds(0));
        f.put("used_cpu_user_children", seconds(0));
        f.put("used_cpu_sys_main_thread", seconds(mainTotal - mainUser));
        f.put("used_cpu_user_main_thread", seconds(mainUser));
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.6f", Math.max(0, nanos) / 1e9);
    }

    private void commandStats(Map<String, String> f) {
        for (Map.Entry<String, Dispatcher.CommandStats> e : call.context().dispatcher().stats().entrySet()) {
            Dispatcher.CommandStats s = e.getValue();
            if (s.calls == 0 && s.failedCalls == 0 && s.rejectedCalls == 0) {
                continue;
            }
            double perCall = s.calls == 0 ? 0.0 : (double) s.micros / s.calls;
            f.put("cmdstat_" + e.getKey(), String.format(Locale.ROOT,
                    "calls=%d,usec=%d,usec_per_call=%.2f,rejected_calls=%d,failed_calls=%d",
                    s.calls, s.micros, perCall, s.rejectedCalls, s.failedCalls));
        }
    }

    private void latencyStats(Map<String, String> f) {
        double[] percentiles = Config.percentiles(config().get("latency-tracking-info-percentiles"));
        for (Map.Entry<String, Dispatcher.CommandStats> e : call.context().dispatcher().stats().entrySet()) {
            CommandLatency latency = e.getValue().latency;
            if (latency != null) {
                f.put("latency_percentiles_usec_" + e.getKey(), latency.describe(percentiles));
            }
        }
    }

    private void keyspace(Map<String, String> f) {
        Keyspace ks = call.keyspace();
        for (int i = 0; i < ks.databases(); i++) {
            Database db = ks.db(i);
            if (db.size() > 0) {
                f.put("db" + i, "keys=" + db.size() + ",expires=" + db.volatileSize() + ",avg_ttl=" + db.avgTtl());
            }
        }
    }

    private Config config() {
        return call.context().config();
    }

    private static void zeros(Map<String, String> f, String... names) {
        for (String n : names) {
            f.put(n, "0");
        }
    }

    private static String randomHex(int digits) {
        SecureRandom random = new SecureRandom();
        StringBuilder hex = new StringBuilder(digits);
        for (int i = 0; i < digits; i++) {
            hex.append(Character.forDigit(random.nextInt(16), 16));
        }
        return hex.toString();
    }
}
