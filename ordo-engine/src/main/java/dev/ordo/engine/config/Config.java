package dev.ordo.engine.config;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.Errors;
import dev.ordo.engine.number.Doubles;
import dev.ordo.engine.zset.ListpackLimits;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The server's configuration parameters, with Redis's names (and the older aliases such as
 * {@code zset-max-ziplist-entries}), defaults, validation and CONFIG GET / SET formatting. Values
 * are read live, so CONFIG SET takes effect for later commands. Guarded by the engine's lock for
 * writes; reads of single values are safe from any thread.
 */
public final class Config {
    /** One parameter. */
    private static final class Param {
        final String name;
        final Kind kind;
        final boolean mutable;
        /** Null for a valid value, else why it is not (CONFIG SET's error text). */
        final Function<String, String> problem;
        volatile String value;
        /** The value as a number, for INTEGER and MEMORY parameters: parsed once per change, not per read. */
        volatile long number;

        Param(String name, Kind kind, String value, boolean mutable, Function<String, String> problem) {
            this.name = name;
            this.kind = kind;
            this.mutable = mutable;
            this.problem = problem;
            assign(value);
        }

        void assign(String newValue) {
            if (kind == Kind.INTEGER || kind == Kind.MEMORY) {
                number = Long.parseLong(newValue);
            }
            value = newValue;
        }
    }

    private enum Kind {
        STRING, INTEGER, MEMORY, BOOLEAN, ENUM
    }

    private final Map<String, Param> byName = new LinkedHashMap<>();
    private final Map<String, Param> canonical = new LinkedHashMap<>();
    private final ListpackLimits zsetListpackLimits;
    private final ListpackLimits hashListpackLimits;

    /** Redis 7.2's defaults, except {@code bind}, which is loopback only. */
    public Config() {
        integer("port", 6379, false, 0, 65535);
        string("bind", "127.0.0.1", false);
        string("requirepass", "", true);
        integer("databases", 16, false, 1, 1_000_000);
        integer("maxclients", 10000, true, 1, Integer.MAX_VALUE);
        integer("timeout", 0, true, 0, Integer.MAX_VALUE);
        integer("tcp-keepalive", 300, true, 0, Integer.MAX_VALUE);
        integer("tcp-backlog", 511, false, 0, Integer.MAX_VALUE);
        enumeration("protected-mode", "no", true, "yes", "no");
        integer("zset-max-listpack-entries", 128, true, 0, Integer.MAX_VALUE, "zset-max-ziplist-entries");
        memory("zset-max-listpack-value", 64, true, "zset-max-ziplist-value");
        integer("hash-max-listpack-entries", 128, true, 0, Integer.MAX_VALUE, "hash-max-ziplist-entries");
        memory("hash-max-listpack-value", 64, true, "hash-max-ziplist-value");
        integer("set-max-intset-entries", 512, true, 0, Integer.MAX_VALUE);
        integer("set-max-listpack-entries", 128, true, 0, Integer.MAX_VALUE);
        memory("set-max-listpack-value", 64, true);
        memory("proto-max-bulk-len", 512L * 1024 * 1024, true);
        memory("client-query-buffer-limit", 1024L * 1024 * 1024, true);
        integer("hz", 10, true, 1, 500);
        integer("busy-reply-threshold", 5000, true, 0, Integer.MAX_VALUE, "lua-time-limit");
        integer("slowlog-log-slower-than", 10000, true, -1, Integer.MAX_VALUE);
        integer("slowlog-max-len", 128, true, 0, Integer.MAX_VALUE);
        memory("maxmemory", 0, true);
        enumeration("maxmemory-policy", "noeviction", true, "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl",
                "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction");
        string("save", "3600 1 300 100 60 10000", true);
        enumeration("appendonly", "no", true, "yes", "no");
        enumeration("appendfsync", "everysec", true, "everysec", "always", "no");
        string("dir", System.getProperty("user.dir"), true);
        string("dbfilename", "dump.rdb", true);
        string("appendfilename", "appendonly.aof", false);
        string("appenddirname", "appendonlydir", false);
        integer("auto-aof-rewrite-percentage", 100, true, 0, Integer.MAX_VALUE);
        memory("auto-aof-rewrite-min-size", 64L * 1024 * 1024, true);
        enumeration("aof-load-truncated", "yes", true, "yes", "no");
        enumeration("aof-use-rdb-preamble", "yes", true, "yes", "no");
        enumeration("rdbcompression", "yes", true, "yes", "no");
        enumeration("rdbchecksum", "yes", false, "yes", "no");
        integer("rdb-key-save-delay", 0, true, 0, Integer.MAX_VALUE);
        enumeration("loglevel", "notice", true, "debug", "verbose", "notice", "warning", "nothing");
        string("logfile", "", false);
        enumeration("daemonize", "no", false, "yes", "no");
        integer("io-threads", 1, false, 1, 128);
        enumeration("io-transport", "auto", false, "auto", "io_uring", "nio");
        enumeration("cluster-enabled", "no", false, "yes", "no");
        string("notify-keyspace-events", "", true);
        enumeration("activerehashing", "yes", true, "yes", "no");
        enumeration("lazyfree-lazy-user-del", "no", true, "yes", "no");
        enumeration("lazyfree-lazy-user-flush", "no", true, "yes", "no");
        integer("active-expire-effort", 1, true, 1, 10);
        enumeration("latency-tracking", "yes", true, "yes", "no");
        put(new Param("latency-tracking-info-percentiles", Kind.STRING, "50 99 99.9", true, Config::percentileListProblem));
        integer("min-replicas-to-write", 0, true, 0, Integer.MAX_VALUE);
        enumeration("replica-read-only", "yes", true, "yes", "no");
        zsetListpackLimits = liveLimits("zset-max-listpack-entries", "zset-max-listpack-value");
        hashListpackLimits = liveLimits("hash-max-listpack-entries", "hash-max-listpack-value");
    }

    /** The value of {@code name} (a name or alias, any case), or null if there is no such parameter. */
    public String get(String name) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        return p == null ? null : p.value;
    }

    /** Whether {@code name} is a known parameter or alias. */
    public boolean has(String name) {
        return byName.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Sets a parameter as CONFIG SET does, or throws Redis's error. {@code atStartup} also allows
     * parameters that cannot change at runtime (from the command line or a config file).
     */
    public void set(String name, String value, boolean atStartup) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        if (p == null) {
            throw new ErrorReply("ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'");
        }
        if (!p.mutable && !atStartup) {
            throw new ErrorReply("ERR CONFIG SET failed (possibly related to argument '" + name + "') - can't set immutable config");
        }
        String normalized = normalize(p, value);
        String problem = normalized == null ? unparsable(p.kind) : p.problem.apply(normalized);
        if (problem != null) {
            throw new ErrorReply("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + problem);
        }
        p.assign(normalized);
    }

    /** Every parameter (by its canonical name and its aliases) whose name matches the glob, as CONFIG GET lists them. */
    public Map<String, String> matching(String glob) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Param> e : byName.entrySet()) {
            if (Glob.matches(glob.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8), true)) {
                out.put(e.getKey(), e.getValue().value);
            }
        }
        return out;
    }

    /** Canonical parameter names, in definition order. */
    public List<String> names() {
        return new ArrayList<>(canonical.keySet());
    }

    public int getInt(String name) {
        return (int) getLong(name);
    }

    public long getLong(String name) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        return p.kind == Kind.INTEGER || p.kind == Kind.MEMORY ? p.number : Long.parseLong(p.value);
    }

    public boolean getBoolean(String name) {
        return "yes".equals(get(name));
    }

    /** The live sorted-set listpack limits ({@code zset-max-listpack-entries / -value}). */
    public ListpackLimits zsetListpackLimits() {
        return zsetListpackLimits;
    }

    /** The live hash listpack limits ({@code hash-max-listpack-entries / -value}). */
    public ListpackLimits hashListpackLimits() {
        return hashListpackLimits;
    }

    /**
     * A yes/no parameter read on every command: a view of its current value without the name
     * lookup {@link #getBoolean} does.
     */
    public java.util.function.BooleanSupplier liveFlag(String name) {
        Param p = byName.get(name);
        if (p == null || p.kind != Kind.ENUM) {
            throw new IllegalArgumentException("not a yes/no parameter: " + name);
        }
        return () -> "yes".equals(p.value);
    }

    /**
     * A number or memory parameter read on every command or every read from a socket: a view of
     * its current value without the name lookup {@link #getLong} does.
     */
    public java.util.function.LongSupplier liveNumber(String name) {
        Param p = byName.get(name);
        if (p == null || (p.kind != Kind.INTEGER && p.kind != Kind.MEMORY)) {
            throw new IllegalArgumentException("not a number parameter: " + name);
        }
        return () -> p.number;
    }

    /** A view of two parameters as listpack limits, read at every use, so CONFIG SET applies to later writes. */
    private ListpackLimits liveLimits(String entriesName, String valueName) {
        Param entries = byName.get(entriesName);
        Param value = byName.get(valueName);
        return new ListpackLimits() {
            @Override
            public int maxEntries() {
                return (int) entries.number;
            }

            @Override
            public int maxValueBytes() {
                return (int) Math.min(Integer.MAX_VALUE, value.number);
            }
        };
    }

    /** Why a value {@link #normalize} could not read is refused: only numbers can fail to parse. */
    private static String unparsable(Kind kind) {
        return kind == Kind.MEMORY ? "argument must be a memory value" : "argument couldn't be parsed into an integer";
    }

    private static String normalize(Param p, String value) {
        switch (p.kind) {
            case INTEGER:
                try {
                    return String.valueOf(Long.parseLong(value.trim()));
                } catch (NumberFormatException e) {
                    return null;
                }
            case MEMORY:
                long bytes = parseMemory(value);
                return bytes < 0 ? null : String.valueOf(bytes);
            case ENUM:
            case BOOLEAN:
                return value.toLowerCase(Locale.ROOT);
            default:
                return value;
        }
    }

    /** Redis's memory notation: a plain number, or with k/kb/m/mb/g/gb (k = 1000, kb = 1024); -1 if invalid. */
    public static long parseMemory(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        String[][] units = {{"gb", "1073741824"}, {"mb", "1048576"}, {"kb", "1024"}, {"g", "1000000000"}, {"m", "1000000"},
            {"k", "1000"}, {"b", "1"}};
        for (String[] u : units) {
            if (v.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                v = v.substring(0, v.length() - u[0].length());
                break;
            }
        }
        try {
            long n = Long.parseLong(v);
            return n < 0 ? -1 : Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            return -1;
        }
    }

    private void put(Param p, String... aliases) {
        canonical.put(p.name, p);
        byName.put(p.name, p);
        for (String a : aliases) {
            byName.put(a, p);
        }
    }

    private void integer(String name, long def, boolean mutable, long min, long max, String... aliases) {
        put(new Param(name, Kind.INTEGER, String.valueOf(def), mutable, v -> {
            long n = Long.parseLong(v);
            return n >= min && n <= max ? null : "argument must be between " + min + " and " + max + " inclusive";
        }), aliases);
    }

    private void memory(String name, long def, boolean mutable, String... aliases) {
        put(new Param(name, Kind.MEMORY, String.valueOf(def), mutable, v -> null), aliases);
    }

    private void string(String name, String def, boolean mutable) {
        put(new Param(name, Kind.STRING, def, mutable, v -> null));
    }

    private void enumeration(String name, String def, boolean mutable, String... allowed) {
        List<String> values = List.of(allowed);
        String reason = values.equals(List.of("yes", "no")) ? "argument must be 'yes' or 'no'"
                : "argument(s) must be one of the following: " + String.join(", ", values);
        put(new Param(name, Kind.ENUM, def, mutable, v -> values.contains(v) ? null : reason));
    }

    /**
     * The numbers of a {@code latency-tracking-info-percentiles} value (words separated by
     * spaces, read as Redis reads doubles), NaN for a word that is not one.
     */
    public static double[] percentiles(String list) {
        return java.util.Arrays.stream(list.trim().split(" +")).filter(w -> !w.isEmpty())
                .mapToDouble(w -> Doubles.parseStrict(w.getBytes(StandardCharsets.ISO_8859_1))).toArray();
    }

    /** {@code latency-tracking-info-percentiles}: numbers from 0 to 100, separated by spaces (none is fine). */
    private static String percentileListProblem(String v) {
        for (double p : percentiles(v)) {
            if (Double.isNaN(p)) {
                return "Invalid latency-tracking-info-percentiles parameters";
            }
            if (!(p >= 0 && p <= 100)) {
                return "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]";
            }
        }
        return null;
    }

    /** Throws the error CONFIG GET/SET give for a missing argument. */
    public static ErrorReply wrongArity(String sub) {
        return new ErrorReply(Errors.wrongArity("config|" + sub));
    }
}
