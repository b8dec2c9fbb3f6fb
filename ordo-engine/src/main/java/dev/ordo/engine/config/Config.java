package dev.ordo.engine.config;

import dev.ordo.engine.list.ListValue;
import dev.ordo.engine.match.Glob;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.number.Decimal;
import dev.ordo.engine.number.Doubles;
import dev.ordo.engine.keyspace.Lfu;
import dev.ordo.engine.zset.ListpackLimits;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
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
        /** What a valid value is kept (and CONFIG GET shows) as: Redis clamps some and rewrites others. */
        final Function<String, String> kept;
        /** A further check for CONFIG SET only (a directory must exist then; at startup it may be made). */
        final Function<String, String> liveProblem;
        volatile String value;
        /** The value as a number, for INTEGER and MEMORY parameters: parsed once per change, not per read. */
        volatile long number;
        /** The value before any change. */
        final String initial;
        /** The older names that also reach it. */
        List<String> aliases = List.of();
        /** What it does, in one line (--help and the sample ordo.conf show it). */
        String description;
        /** Why Ordo accepts it but does not act on it, or null when it is in force. */
        String ignoredBecause;

        Param(String name, Kind kind, String value, boolean mutable, Function<String, String> problem) {
            this(name, kind, value, mutable, problem, Function.identity());
        }

        Param(String name, Kind kind, String value, boolean mutable, Function<String, String> problem, Function<String, String> kept) {
            this(name, kind, value, mutable, problem, kept, v -> null);
        }

        Param(String name, Kind kind, String value, boolean mutable, Function<String, String> problem, Function<String, String> kept,
              Function<String, String> liveProblem) {
            this.name = name;
            this.kind = kind;
            this.mutable = mutable;
            this.problem = problem;
            this.kept = kept;
            this.liveProblem = liveProblem;
            this.initial = value;
            assign(value);
        }

        Param doc(String text) {
            description = text;
            return this;
        }

        Param ignored(String why) {
            ignoredBecause = why;
            return this;
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
    /** Told of each value a parameter is given (by canonical name), after it is kept. */
    private final Map<String, List<java.util.function.Consumer<String>>> listeners = new java.util.HashMap<>();
    /** The config file's {@code user} lines, each the words after {@code user}, in file order. */
    private final List<List<String>> userLines = new ArrayList<>();
    private final Map<String, Param> canonical = new LinkedHashMap<>();
    /** By canonical name: what puts a change of that parameter into force outside the engine. */
    private final Map<String, Applier> appliers = new java.util.concurrent.ConcurrentHashMap<>();
    private final ListpackLimits zsetListpackLimits;
    /** DEBUG QUICKLIST-PACKED-THRESHOLD's size: engine state, not a parameter (CONFIG does not show it). */
    private volatile long listPackedThreshold = ListValue.Limits.DEFAULT_PACKED_THRESHOLD;
    /** Read on every list write, so kept until a setting changes rather than built each time. */
    private volatile ListLimitsRead lastListLimits;
    private final ListpackLimits hashListpackLimits;
    /** The list settings' live parameters, read on every list write without a lookup by name. */
    private final Param listMaxListpackSize;
    private final Param listCompressDepth;
    private final Lfu.Settings lfuSettings;

    /** Redis 7.2's defaults, except {@code bind}, which is loopback only. */
    public Config() {
        integer("port", 6379, false, 0, 65535)
                .doc("TCP port to listen on; 0 listens on none when tls-port is set, else on any free port.");
        string("bind", "127.0.0.1", false)
                .doc("Addresses to listen on, separated by spaces (loopback only by default, unlike Redis).");
        integer("console-port", 0, false, 0, 65535)
                .doc("HTTP port of the Ordo Console (a web dashboard); 0, the default, serves none.");
        string("console-bind", "127.0.0.1", false)
                .doc("Address the console listens on (loopback only by default).");
        enumeration("console-writable", "no", false, "yes", "no")
                .doc("Allow the console's write actions (edit scores, retry or purge dead letters); read-only by default.");
        string("requirepass", "", true)
                .doc("Password of the default user; empty for none.");
        string("aclfile", "", false)
                .doc("File of ACL users (ACL LOAD and ACL SAVE read and write it); empty for none.");
        enumeration("acl-pubsub-default", "resetchannels", true, "allchannels", "resetchannels")
                .doc("Channel permissions of new ACL users: resetchannels (none) or allchannels.");
        integer("acllog-max-len", 128, true, 0, Long.MAX_VALUE)
                .doc("Entries ACL LOG keeps.");
        integer("tracking-table-max-keys", 1_000_000, true, 0, Long.MAX_VALUE)
                .doc("Keys the client-side caching table remembers before it invalidates some; 0 for no limit.");
        integer("databases", 16, false, 1, 1_000_000)
                .doc("Number of databases (SELECT 0 to n-1).");
        integer("maxclients", 10000, true, 1, 4294967295L)
                .doc("Clients connected at once; further connections are refused.");
        integer("timeout", 0, true, 0, Integer.MAX_VALUE)
                .doc("Seconds of idleness after which a client is disconnected; 0 never.");
        integer("tcp-keepalive", 300, true, 0, Integer.MAX_VALUE)
                .doc("Seconds between TCP keepalive probes to idle clients; 0 off.");
        integer("tcp-backlog", 511, false, 0, Integer.MAX_VALUE)
                .doc("Length of the queue of connections not yet accepted.");
        enumeration("protected-mode", "yes", true, "yes", "no")
                .doc("Refuse non-loopback clients while the default user has no password and no bind is set.");
        integer("zset-max-listpack-entries", 128, true, 0, Long.MAX_VALUE, "zset-max-ziplist-entries")
                .doc("Sorted sets up to this many members use the compact listpack encoding.");
        memory("zset-max-listpack-value", 64, true, 0, "zset-max-ziplist-value")
                .doc("Sorted sets whose members are all at most this many bytes use listpack.");
        integer("hash-max-listpack-entries", 512, true, 0, Long.MAX_VALUE, "hash-max-ziplist-entries")
                .doc("Hashes up to this many fields use the compact listpack encoding.");
        memory("hash-max-listpack-value", 64, true, 0, "hash-max-ziplist-value")
                .doc("Hashes whose fields and values are all at most this many bytes use listpack.");
        integer("list-max-listpack-size", -2, true, Integer.MIN_VALUE, Integer.MAX_VALUE, "list-max-ziplist-size")
                .doc("Size of a list node: a count of elements if positive, -1 to -5 for 4 KB to 64 KB.");
        integer("list-compress-depth", 0, true, 0, Integer.MAX_VALUE)
                .doc("List nodes left uncompressed at each end; inner nodes are LZF-compressed; 0 off.");
        integer("set-max-intset-entries", 512, true, 0, Long.MAX_VALUE)
                .doc("Sets of integers only, up to this many, use the intset encoding.");
        integer("set-max-listpack-entries", 128, true, 0, Long.MAX_VALUE)
                .doc("Other sets up to this many members use the listpack encoding.");
        integer("set-max-listpack-value", 64, true, 0, Long.MAX_VALUE)
                .doc("Sets whose members are all at most this many bytes may use listpack.");
        memory("proto-max-bulk-len", 512L * 1024 * 1024, true, 1024 * 1024)
                .doc("Largest bulk string a client may send, in bytes.");
        memory("client-query-buffer-limit", 1024L * 1024 * 1024, true, 1024 * 1024)
                .doc("Largest unparsed input a client may have pending, in bytes.");
        // Redis takes any int and keeps it within 1..500.
        put(new Param("hz", Kind.INTEGER, "10", true, range(0, Integer.MAX_VALUE),
                v -> String.valueOf(Math.max(1, Math.min(500, Long.parseLong(v))))))
                .doc("Frequency of the periodic tasks (active expiry, timeouts), per second (1 to 500).");
        integer("busy-reply-threshold", 5000, true, 0, Long.MAX_VALUE, "lua-time-limit")
                .doc("Milliseconds a script may run before other clients get BUSY and may kill it.");
        integer("slowlog-log-slower-than", 10000, true, -1, Long.MAX_VALUE)
                .doc("Commands slower than this many microseconds go to SLOWLOG; -1 off, 0 all.");
        integer("slowlog-max-len", 128, true, 0, Long.MAX_VALUE)
                .doc("Entries SLOWLOG keeps.");
        integer("latency-monitor-threshold", 0, true, 0, Long.MAX_VALUE)
                .doc("Events of at least this many milliseconds go to the latency monitor; 0 off.");
        memory("maxmemory", 0, true, 0)
                .doc("Data size past which eviction runs or writes are refused, in bytes; 0 uses the heap's limit.");
        enumeration("maxmemory-policy", "noeviction", true, "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl",
                "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction")
                .doc("What happens at maxmemory: noeviction, or which keys to evict (allkeys-/volatile- lru, lfu, random, ttl).");
        integer("maxmemory-samples", 5, true, 1, Integer.MAX_VALUE)
                .doc("Keys sampled for each eviction.");
        integer("maxmemory-eviction-tenacity", 10, true, 0, 100)
                .doc("How long one eviction round may run, 0 to 100 (10 is about 500 microseconds).");
        enumeration("lazyfree-lazy-eviction", "no", true, "yes", "no")
                .doc("Free evicted values in the background.")
                .ignored("memory is given back by the JVM's garbage collector, not freed by a thread");
        put(new Param("maxmemory-clients", Kind.STRING, "0", true, Config::maxmemoryClientsProblem, Config::maxmemoryClientsKept))
                .doc("Memory all clients together may use before the largest are disconnected; bytes or a % of maxmemory; 0 off.");
        put(new Param("client-output-buffer-limit", Kind.STRING, OutputBufferLimits.DEFAULT.toString(), true,
                v -> OutputBufferLimits.problem(v),
                v -> OutputBufferLimits.parse(byName.get("client-output-buffer-limit").value).with(v).toString()))
                .doc("Per class (normal, replica, pubsub): hard limit, soft limit and soft seconds of a client's unsent replies.");
        integer("lfu-log-factor", 10, true, 0, Integer.MAX_VALUE)
                .doc("How slowly the LFU counter grows with accesses.");
        integer("lfu-decay-time", 1, true, 0, Integer.MAX_VALUE)
                .doc("Minutes after which an idle key's LFU counter is halved; 0 never.");
        put(new Param("save", Kind.STRING, "3600 1 300 100 60 10000", true, Config::saveProblem, Config::saveRules))
                .doc("Snapshot rules: pairs of seconds and changes (save after that many changes in that many seconds); empty off.");
        enumeration("stop-writes-on-bgsave-error", "yes", true, "yes", "no")
                .doc("Refuse writes while the last background save failed and save rules are set.");
        enumeration("appendonly", "no", true, "yes", "no")
                .doc("Log every write to the append-only file.");
        enumeration("appendfsync", "everysec", true, "everysec", "always", "no")
                .doc("When the append-only file is flushed to disk: always, everysec or no (the OS decides).");
        // Kept absolute, as Redis shows its working directory after chdir.
        put(new Param("dir", Kind.STRING, System.getProperty("user.dir"), true, v -> null,
                v -> v.isEmpty() ? v : Path.of(v).toAbsolutePath().normalize().toString(), Config::directoryProblem))
                .doc("Working directory for the snapshot, the append-only files and the ACL file.");
        put(new Param("dbfilename", Kind.STRING, "dump.rdb", true,
                v -> v.indexOf('/') >= 0 || v.indexOf('\\') >= 0 || v.indexOf('\0') >= 0 ? "dbfilename can't be a path, just a filename" : null))
                .doc("File name of the snapshot in dir.");
        enumeration("enable-protected-configs", "no", false, "no", "yes", "local")
                .doc("Whether CONFIG SET may change dir and dbfilename: no, yes, or local (loopback clients).");
        enumeration("enable-debug-command", "no", false, "no", "yes", "local")
                .doc("Whether DEBUG may run: no, yes, or local (loopback clients).");
        string("appendfilename", "appendonly.aof", false)
                .doc("Base name of the append-only files.");
        string("appenddirname", "appendonlydir", false)
                .doc("Directory in dir that holds the append-only files and their manifest.");
        integer("auto-aof-rewrite-percentage", 100, true, 0, Integer.MAX_VALUE)
                .doc("Rewrite the append-only file when it grew by this percentage since the last rewrite; 0 off.");
        memory("auto-aof-rewrite-min-size", 64L * 1024 * 1024, true, 0)
                .doc("Smallest append-only file an automatic rewrite considers, in bytes.");
        enumeration("aof-load-truncated", "yes", true, "yes", "no")
                .doc("Load an append-only file whose last command is cut short, dropping that command.");
        enumeration("aof-use-rdb-preamble", "yes", true, "yes", "no")
                .doc("Write the rewritten append-only file's base in RDB format.")
                .ignored("a rewrite always writes an RDB base, as with yes");
        enumeration("rdbcompression", "yes", true, "yes", "no")
                .doc("Compress strings in snapshots and DUMP payloads with LZF.");
        enumeration("rdb-save-incremental-fsync", "yes", true, "yes", "no")
                .doc("Flush snapshots to disk every 4 MB while writing them.");
        enumeration("aof-rewrite-incremental-fsync", "yes", true, "yes", "no")
                .doc("Flush append-only rewrites to disk every 4 MB while writing them.");
        enumeration("rdbchecksum", "yes", false, "yes", "no")
                .doc("End snapshots with a CRC-64 checksum, and check it on load.");
        integer("rdb-key-save-delay", 0, true, 0, Integer.MAX_VALUE)
                .doc("Microseconds to pause per key while saving (for tests).");
        enumeration("loglevel", "notice", true, "debug", "verbose", "notice", "warning", "nothing")
                .doc("Least important log messages written: debug, verbose, notice, warning or nothing.")
                .ignored("Ordo writes its notices and warnings whatever the level");
        string("logfile", "", false)
                .doc("File the server logs to; empty for standard output.");
        enumeration("daemonize", "no", false, "yes", "no")
                .doc("Run in the background.")
                .ignored("Ordo runs in the foreground; start it from a service manager");
        integer("io-threads", 1, false, 1, 128)
                .doc("Event loop threads serving the network.");
        enumeration("io-transport", "auto", false, "auto", "io_uring", "nio")
                .doc("Network transport: io_uring, nio, or auto (io_uring where the kernel allows it). Ordo only.");
        enumeration("cluster-enabled", "no", false, "yes", "no")
                .doc("Run as a Redis Cluster node.")
                .ignored("Ordo has no cluster mode");
        put(new Param("notify-keyspace-events", Kind.STRING, "", true, KeyspaceEvents::problem, KeyspaceEvents::canonical))
                .doc("Classes of keyspace notifications to publish (K, E, g, $, l, s, h, z, x, e, t, m, d, n, A); empty off.");
        enumeration("activerehashing", "yes", true, "yes", "no")
                .doc("Rehash the main hash tables incrementally in the periodic tasks.")
                .ignored("Ordo's key tables resize in one step, leaving nothing to rehash later");
        enumeration("lazyfree-lazy-user-del", "no", true, "yes", "no")
                .doc("Make DEL free values in the background, as UNLINK does.")
                .ignored("memory is given back by the JVM's garbage collector, not freed by a thread");
        enumeration("lazyfree-lazy-user-flush", "no", true, "yes", "no")
                .doc("Make FLUSHDB, FLUSHALL, SCRIPT FLUSH and FUNCTION FLUSH asynchronous by default.")
                .ignored("memory is given back by the JVM's garbage collector; ASYNC and SYNC flush alike");
        integer("active-expire-effort", 1, true, 1, 10)
                .doc("Effort of the active expiry cycle, 1 to 10.")
                .ignored("the active expiry cycle's effort is fixed (that of 1)");
        enumeration("latency-tracking", "yes", true, "yes", "no")
                .doc("Keep per-command latency histograms for INFO latencystats.");
        put(new Param("latency-tracking-info-percentiles", Kind.STRING, "50 99 99.9", true, Config::percentileListProblem))
                .doc("Percentiles INFO latencystats shows, separated by spaces.");
        integer("min-replicas-to-write", 0, true, 0, Integer.MAX_VALUE, "min-slaves-to-write")
                .doc("Refuse writes unless this many replicas are connected; 0 off.")
                .ignored("Ordo has no replication");
        alias(enumeration("replica-read-only", "yes", true, "yes", "no")
                .doc("Refuse writes from clients while a replica.")
                .ignored("Ordo has no replication"), "slave-read-only");
        tlsParameters();
        zsetListpackLimits = liveLimits("zset-max-listpack-entries", "zset-max-listpack-value");
        hashListpackLimits = liveLimits("hash-max-listpack-entries", "hash-max-listpack-value");
        listMaxListpackSize = byName.get("list-max-listpack-size");
        listCompressDepth = byName.get("list-compress-depth");
        lfuSettings = liveLfuSettings();
        for (Param p : canonical.values()) {
            if (p.description == null) {
                throw new IllegalStateException("directive " + p.name + " has no description");
            }
        }
    }

    /**
     * Every directive, in definition order, with its default, description and whether Ordo acts on
     * it: what {@code --help}, the sample {@code ordo.conf} and the compatibility notes list.
     *
     * @return the directives
     */
    public List<Directive> directives() {
        List<Directive> out = new ArrayList<>();
        for (Param p : canonical.values()) {
            out.add(new Directive(p.name, p.aliases, p.initial, p.description, p.mutable,
                    java.util.Optional.ofNullable(p.ignoredBecause)));
        }
        return out;
    }

    /**
     * The TLS parameters, with redis-server 7's names, defaults and checks. The engine only keeps
     * them; the network server reads them and registers an {@link Applier} that builds its TLS
     * context from them, and one that moves the TLS listener when {@code tls-port} changes.
     * {@code tls-replication}, {@code tls-cluster}, {@code tls-client-*} and
     * {@code tls-dh-params-file} are kept and shown for CONFIG GET, but unused: Ordo makes no
     * outgoing connections, and its TLS libraries pick ECDHE key exchange themselves.
     */
    private void tlsParameters() {
        integer("tls-port", 0, true, 0, 65535)
                .doc("TLS port to listen on; 0 off.");
        string("tls-cert-file", "", true)
                .doc("PEM certificate chain the server presents.");
        string("tls-key-file", "", true)
                .doc("PEM private key of that certificate.");
        string("tls-key-file-pass", "", true)
                .doc("Passphrase of tls-key-file, if encrypted.");
        string("tls-client-cert-file", "", true)
                .doc("Certificate for outgoing TLS connections (replication, cluster bus).")
                .ignored("Ordo makes no outgoing connections");
        string("tls-client-key-file", "", true)
                .doc("Private key of tls-client-cert-file.")
                .ignored("Ordo makes no outgoing connections");
        string("tls-client-key-file-pass", "", true)
                .doc("Passphrase of tls-client-key-file, if encrypted.")
                .ignored("Ordo makes no outgoing connections");
        string("tls-dh-params-file", "", true)
                .doc("Diffie-Hellman parameters for DH key exchange.")
                .ignored("the TLS libraries choose ECDHE key exchange themselves");
        string("tls-ca-cert-file", "", true)
                .doc("PEM file of the CAs that sign client certificates.");
        string("tls-ca-cert-dir", "", true)
                .doc("Directory of CA certificates, as OpenSSL's c_rehash lays it out.");
        string("tls-protocols", "", true)
                .doc("TLS versions accepted, separated by spaces (TLSv1.2 TLSv1.3); empty for the defaults.");
        string("tls-ciphers", "", true)
                .doc("Cipher list for TLS 1.2 and older, in OpenSSL's syntax; empty for the defaults.");
        string("tls-ciphersuites", "", true)
                .doc("Cipher suites for TLS 1.3, in OpenSSL's syntax; empty for the defaults.");
        enumeration("tls-auth-clients", "yes", true, "no", "yes", "optional")
                .doc("Require client certificates: yes, no, or optional.");
        enumeration("tls-prefer-server-ciphers", "no", true, "yes", "no")
                .doc("Choose the cipher by the server's preference, not the client's.");
        enumeration("tls-session-caching", "yes", true, "yes", "no")
                .doc("Cache TLS sessions so clients may resume them.");
        integer("tls-session-cache-size", 20 * 1024, true, 0, Integer.MAX_VALUE)
                .doc("TLS sessions cached; 0 for no limit.");
        integer("tls-session-cache-timeout", 300, true, 0, Integer.MAX_VALUE)
                .doc("Seconds a cached TLS session may be resumed.");
        enumeration("tls-replication", "no", true, "yes", "no")
                .doc("Use TLS for replication links.")
                .ignored("Ordo has no replication");
        enumeration("tls-cluster", "no", true, "yes", "no")
                .doc("Use TLS for the cluster bus.")
                .ignored("Ordo has no cluster bus");
    }

    /**
     * Puts a change of some parameters into force outside the engine (the network server's TLS
     * context, say), as Redis's config apply functions do. CONFIG SET calls it once after setting
     * all its values; a refusal undoes the whole CONFIG SET.
     */
    @FunctionalInterface
    public interface Applier {
        /**
         * Returns null once the current values are in force, else why not (CONFIG SET's error text); a refusal changes nothing.
         *
         * @return null, or the refusal
         */
        String apply();
    }

    /**
     * Has CONFIG SET of any of {@code names} (canonical names) call {@code applier}; replaces one registered before.
     *
     * @param names   the parameters
     * @param applier what puts them into force
     */
    public void onSet(java.util.Collection<String> names, Applier applier) {
        for (String name : names) {
            appliers.put(byName.get(name).name, applier);
        }
    }

    /**
     * Stops calling {@code applier} (the server that registered it has closed).
     *
     * @param applier one registered with {@link #onSet}
     */
    public void removeApplier(Applier applier) {
        appliers.values().removeIf(a -> a == applier);
    }

    /**
     * The applier CONFIG SET of {@code name} (any case, or an alias) calls, or null.
     *
     * @param name a parameter
     * @return its applier, or null
     */
    public Applier applierOf(String name) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        return p == null ? null : appliers.get(p.name);
    }

    /**
     * LFU counting's settings, read live: an LFU {@code maxmemory-policy}, {@code lfu-log-factor}, {@code lfu-decay-time}.
     *
     * @return the settings, read live
     */
    @SuppressWarnings("exports") // for the engine's own packages: the type is not exported
    public Lfu.Settings lfuSettings() {
        return lfuSettings;
    }

    private Lfu.Settings liveLfuSettings() {
        Param policy = byName.get("maxmemory-policy");
        Param logFactor = byName.get("lfu-log-factor");
        Param decayTime = byName.get("lfu-decay-time");
        return new Lfu.Settings() {
            @Override
            public boolean active() {
                return policy.value.endsWith("lfu");
            }

            @Override
            public long logFactor() {
                return logFactor.number;
            }

            @Override
            public long decayTime() {
                return decayTime.number;
            }
        };
    }

    /**
     * The value of {@code name} (a name or alias, any case), or null if there is no such parameter.
     *
     * @param name a parameter name or alias
     * @return its value, or null
     */
    public String get(String name) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        return p == null ? null : p.value;
    }

    /**
     * Whether {@code name} is a known parameter or alias.
     *
     * @param name a name, any case
     * @return true when it names a parameter
     */
    public boolean has(String name) {
        return byName.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Sets a parameter as CONFIG SET does, or throws Redis's error. {@code atStartup} also allows
     * parameters that cannot change at runtime (from the command line or a config file).
     *
     * @param name      a parameter name or alias, any case
     * @param value     its new value, as CONFIG SET takes it
     * @param atStartup whether this is the config file or the command line
     * @throws ErrorReply when the name is unknown, the value invalid, or the parameter immutable at runtime
     */
    public void set(String name, String value, boolean atStartup) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        if (p == null) {
            throw new ErrorReply("ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'");
        }
        if (!atStartup) {
            requireMutable(name);
        }
        String normalized = normalize(p, value);
        String problem = normalized == null ? unparsable(p.kind) : p.problem.apply(normalized);
        if (problem == null && !atStartup) {
            problem = p.liveProblem.apply(normalized);
        }
        if (problem != null) {
            throw new ErrorReply(Errors.configSetFailed(name, problem));
        }
        p.assign(p.kept.apply(normalized));
        listeners.getOrDefault(p.name, List.of()).forEach(l -> l.accept(p.value));
    }

    /**
     * Calls {@code listener} with each value {@code name} is given from now on (CONFIG SET, and
     * the value CONFIG SET restores when a later one fails). Called under the engine lock.
     *
     * @param name     a parameter name or alias
     * @param listener told each new value
     */
    public void onChange(String name, java.util.function.Consumer<String> listener) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        listeners.computeIfAbsent(p.name, k -> new ArrayList<>()).add(listener);
    }

    /**
     * Adds a config file's {@code user <name> <rules...>} line, given as its words after
     * {@code user} (quoted words whole, as the config file's parser found them); the ACL applies
     * them at start.
     *
     * @param words the words after {@code user}
     */
    public void addUserLine(List<String> words) {
        userLines.add(List.copyOf(words));
    }

    /**
     * The config file's user lines: the words after {@code user} of each.
     *
     * @return the lines, each as its words
     */
    public List<List<String>> userLines() {
        return List.copyOf(userLines);
    }

    /**
     * Throws CONFIG SET's error for a known parameter that cannot change at runtime.
     *
     * @param name a known parameter
     * @throws ErrorReply when CONFIG SET may not change it
     */
    public void requireMutable(String name) {
        if (!byName.get(name.toLowerCase(Locale.ROOT)).mutable) {
            throw new ErrorReply(Errors.configSetFailed(name, "can't set immutable config"));
        }
    }

    /**
     * Every parameter (by its canonical name and its aliases) whose name matches the glob, as CONFIG GET lists them.
     *
     * @param glob a Redis glob pattern, matched without regard to case
     * @return the matching names with their values
     */
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

    /**
     * Whether CONFIG SET may change {@code name} only where {@code enable-protected-configs} allows (paths written to).
     *
     * @param name a parameter name or alias
     * @return true for dir and dbfilename
     */
    public boolean isProtected(String name) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        return p != null && (p.name.equals("dir") || p.name.equals("dbfilename"));
    }

    /** {@code dir} at runtime: an existing directory, or the error text Redis's chdir gives. */
    private static String directoryProblem(String v) {
        Path path;
        try {
            path = Path.of(v);
        } catch (InvalidPathException e) {
            return "No such file or directory";
        }
        if (!v.isEmpty() && Files.isDirectory(path)) {
            return null;
        }
        return Files.exists(path) && !v.isEmpty() ? "Not a directory" : "No such file or directory";
    }

    /**
     * Canonical parameter names, in definition order.
     *
     * @return the names
     */
    public List<String> names() {
        return new ArrayList<>(canonical.keySet());
    }

    /**
     * The value of a number parameter as an int, saturated (Redis allows some up to 2^63 - 1).
     *
     * @param name a number parameter
     * @return its value, saturated to an int
     */
    public int getInt(String name) {
        return saturatedInt(getLong(name));
    }

    private static int saturatedInt(long value) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
    }

    /**
     * The value of a number parameter.
     *
     * @param name a number parameter
     * @return its value
     */
    public long getLong(String name) {
        Param p = byName.get(name.toLowerCase(Locale.ROOT));
        return p.kind == Kind.INTEGER || p.kind == Kind.MEMORY ? p.number : Long.parseLong(p.value);
    }

    /**
     * Whether a yes/no parameter is yes.
     *
     * @param name a yes/no parameter
     * @return true for yes
     */
    public boolean getBoolean(String name) {
        return "yes".equals(get(name));
    }

    /**
     * The live sorted-set listpack limits ({@code zset-max-listpack-entries / -value}).
     *
     * @return the limits, read live
     */
    @SuppressWarnings("exports") // for the engine's own packages: the type is not exported
    public ListpackLimits zsetListpackLimits() {
        return zsetListpackLimits;
    }

    /**
     * The list node limits as they are now ({@code list-max-listpack-size}, {@code list-compress-depth}
     * and DEBUG QUICKLIST-PACKED-THRESHOLD's size).
     *
     * @return the limits now
     */
    @SuppressWarnings("exports") // for the engine's own packages: the type is not exported
    public ListValue.Limits listLimits() {
        int fill = (int) listMaxListpackSize.number;
        int depth = (int) listCompressDepth.number;
        long threshold = listPackedThreshold;
        ListLimitsRead last = lastListLimits;
        if (last == null || last.fill != fill || last.depth != depth || last.limits.packedThreshold() != threshold) {
            last = new ListLimitsRead(fill, depth, new ListValue.Limits(fill, depth, threshold));
            lastListLimits = last;
        }
        return last.limits;
    }

    /** The list limits last built, with the settings they were built from (the record clamps them). */
    private record ListLimitsRead(int fill, int depth, ListValue.Limits limits) {
    }

    /**
     * Sets the size from which list elements get plain nodes (DEBUG QUICKLIST-PACKED-THRESHOLD; 0 restores the default).
     *
     * @param bytes the size, or 0 for the default
     */
    public void setListPackedThreshold(long bytes) {
        listPackedThreshold = bytes == 0 ? ListValue.Limits.DEFAULT_PACKED_THRESHOLD : bytes;
    }

    /**
     * The live hash listpack limits ({@code hash-max-listpack-entries / -value}).
     *
     * @return the limits, read live
     */
    @SuppressWarnings("exports") // for the engine's own packages: the type is not exported
    public ListpackLimits hashListpackLimits() {
        return hashListpackLimits;
    }

    /**
     * A yes/no parameter read on every command: a view of its current value without the name
     * lookup {@link #getBoolean} does.
     *
     * @param name a yes/no parameter's canonical name
     * @return its value, read at each call
     */
    public java.util.function.BooleanSupplier liveFlag(String name) {
        Param p = byName.get(name);
        if (p == null || p.kind != Kind.ENUM) {
            throw new IllegalArgumentException("not a yes/no parameter: " + name);
        }
        return () -> "yes".equals(p.value);
    }

    /**
     * A parameter's value read on every command: a view of it without the name lookup {@link #get} does.
     *
     * @param name a parameter's canonical name
     * @return its value, read at each call
     */
    public java.util.function.Supplier<String> liveValue(String name) {
        Param p = byName.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no such parameter: " + name);
        }
        return () -> p.value;
    }

    /**
     * A number or memory parameter read on every command or every read from a socket: a view of
     * its current value without the name lookup {@link #getLong} does.
     *
     * @param name a number parameter's canonical name
     * @return its value, read at each call
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
                return saturatedInt(entries.number);
            }

            @Override
            public int maxValueBytes() {
                return saturatedInt(value.number);
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
                // As Redis's string2ll: no sign but '-', no leading zero, no space.
                byte[] digits = value.getBytes(StandardCharsets.ISO_8859_1);
                long n = Decimal.parseOrMin(digits);
                return n == Long.MIN_VALUE && !Decimal.isMinValue(digits) ? null : String.valueOf(n);
            case MEMORY:
                long bytes = parseMemory(value);
                if (bytes == TOO_LARGE) {
                    return TOO_LARGE_TEXT;
                }
                return bytes < 0 ? null : String.valueOf(bytes);
            case ENUM:
            case BOOLEAN:
                return value.toLowerCase(Locale.ROOT);
            default:
                return value;
        }
    }

    /** {@link #parseMemory} of a well-formed value past 2^63 - 1 bytes. */
    private static final long TOO_LARGE = -2;
    /** What {@link #normalize} makes of such a value: above every memory parameter's maximum. */
    private static final String TOO_LARGE_TEXT = "9223372036854775808";

    /**
     * Redis's memory notation: a plain number, or with k/kb/m/mb/g/gb (k = 1000, kb = 1024); -1 if
     * invalid, -2 ({@link #TOO_LARGE}) if well formed but past 2^63 - 1 bytes.
     *
     * @param value the text
     * @return the bytes, -1 or -2
     */
    public static long parseMemory(String value) {
        String v = value.toLowerCase(Locale.ROOT);
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
        if (v.isEmpty() || !v.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            return -1;
        }
        try {
            return Math.multiplyExact(Long.parseLong(v), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            return TOO_LARGE;
        }
    }

    private Param put(Param p, String... aliases) {
        canonical.put(p.name, p);
        byName.put(p.name, p);
        for (String a : aliases) {
            byName.put(a, p);
        }
        p.aliases = List.of(aliases);
        return p;
    }

    /** Adds older names that reach {@code p} too (for parameters whose maker takes no aliases). */
    private void alias(Param p, String... aliases) {
        for (String a : aliases) {
            byName.put(a, p);
        }
        List<String> all = new ArrayList<>(p.aliases);
        all.addAll(List.of(aliases));
        p.aliases = List.copyOf(all);
    }

    private Param integer(String name, long def, boolean mutable, long min, long max, String... aliases) {
        return put(new Param(name, Kind.INTEGER, String.valueOf(def), mutable, range(min, max)), aliases);
    }

    /** A number or memory parameter taking {@code min} to 2^63 - 1 bytes. */
    private Param memory(String name, long def, boolean mutable, long min, String... aliases) {
        return put(new Param(name, Kind.MEMORY, String.valueOf(def), mutable, range(min, Long.MAX_VALUE)), aliases);
    }

    /** Redis's range check of a number parameter (the value may be past a long: {@link #TOO_LARGE_TEXT}). */
    private static Function<String, String> range(long min, long max) {
        return v -> {
            String refusal = "argument must be between " + min + " and " + max + " inclusive";
            if (v.equals(TOO_LARGE_TEXT)) {
                return refusal;
            }
            long n = Long.parseLong(v);
            return n >= min && n <= max ? null : refusal;
        };
    }

    /**
     * {@code save}: pairs of seconds (at least 1) and changes (at least 0), one space apart, or
     * nothing. Redis splits at every space, so two spaces make an empty word, read as 0.
     */
    private static String saveProblem(String v) {
        long[] numbers = saveNumbers(v);
        if (numbers == null || numbers.length % 2 != 0) {
            return "Invalid save parameters";
        }
        for (int i = 0; i < numbers.length; i += 2) {
            if (numbers[i] < 1 || numbers[i + 1] < 0) {
                return "Invalid save parameters";
            }
        }
        return null;
    }

    /** A valid {@code save} value as CONFIG GET shows it: the numbers, one space apart. */
    private static String saveRules(String v) {
        return String.join(" ", java.util.Arrays.stream(saveNumbers(v)).mapToObj(String::valueOf).toList());
    }

    /** The numbers of a {@code save} value, null if a word is not one. */
    private static long[] saveNumbers(String v) {
        if (v.isEmpty()) {
            return new long[0];
        }
        String[] words = v.split(" ", -1);
        long[] numbers = new long[words.length];
        for (int i = 0; i < words.length; i++) {
            try {
                numbers[i] = words[i].isEmpty() ? 0 : Long.parseLong(words[i]);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return numbers;
    }

    private Param string(String name, String def, boolean mutable) {
        return put(new Param(name, Kind.STRING, def, mutable, v -> null));
    }

    private Param enumeration(String name, String def, boolean mutable, String... allowed) {
        List<String> values = List.of(allowed);
        String reason = values.equals(List.of("yes", "no")) ? "argument must be 'yes' or 'no'"
                : "argument(s) must be one of the following: " + String.join(", ", values);
        return put(new Param(name, Kind.ENUM, def, mutable, v -> values.contains(v) ? null : reason));
    }

    /**
     * The numbers of a {@code latency-tracking-info-percentiles} value (words separated by
     * spaces, read as Redis reads doubles), NaN for a word that is not one.
     *
     * @param list the value
     * @return the numbers
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

    /** {@code maxmemory-clients}: a memory value, or a whole percentage of maxmemory up to 100. */
    private static String maxmemoryClientsProblem(String v) {
        if (v.endsWith("%")) {
            String digits = v.substring(0, v.length() - 1);
            if (digits.isEmpty() || !digits.chars().allMatch(ch -> ch >= '0' && ch <= '9') || digits.length() > 18) {
                return "argument must be a memory or percent value";
            }
            return Long.parseLong(digits) > 100 ? "percentage argument must be less or equal to 100" : null;
        }
        return parseMemory(v) < 0 ? "argument must be a memory or percent value" : null;
    }

    /** {@code maxmemory-clients} as CONFIG GET shows it: bytes, or the percentage ({@code 0%} reads back as 0). */
    private static String maxmemoryClientsKept(String v) {
        if (v.endsWith("%")) {
            long pct = Long.parseLong(v.substring(0, v.length() - 1));
            return pct == 0 ? "0" : pct + "%";
        }
        return String.valueOf(parseMemory(v));
    }

    /**
     * The client memory limit {@code maxmemory-clients} sets, given the maxmemory in force: the
     * bytes, or the percentage of it; 0 when off. Never under 128 KB when on, as in Redis, so a
     * setting cannot lock every client out.
     *
     * @param maxmemory the maxmemory in force, in bytes
     * @return the limit in bytes, or 0
     */
    public long maxmemoryClients(long maxmemory) {
        String v = get("maxmemory-clients");
        long limit = v.endsWith("%") ? maxmemory / 100 * Long.parseLong(v.substring(0, v.length() - 1)) : Long.parseLong(v);
        return limit == 0 ? 0 : Math.max(limit, 128 * 1024);
    }

    /**
     * {@code client-output-buffer-limit}, parsed.
     *
     * @return the limits now
     */
    public OutputBufferLimits outputBufferLimits() {
        return OutputBufferLimits.parse(get("client-output-buffer-limit"));
    }

    /**
     * Throws the error CONFIG GET/SET give for a missing argument.
     *
     * @param sub {@code get} or {@code set}
     * @return the error
     */
    public static ErrorReply wrongArity(String sub) {
        return new ErrorReply(Errors.wrongArity("config|" + sub));
    }
}
