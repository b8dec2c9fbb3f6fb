package dev.ordo.server;

import dev.ordo.engine.persist.aof.AofCheck;
import dev.ordo.engine.version.RedisVersion;
import dev.ordo.server.config.ConfigException;
import dev.ordo.server.config.ConfigReference;
import dev.ordo.server.config.ConfigLoader;
import dev.ordo.server.config.Version;
import dev.ordo.server.net.ServerLog;
import io.netty.util.ResourceLeakDetector;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The standalone server: {@code java -jar ordo-server.jar [config-file] [--name value ...]},
 * arguments as redis-server takes them. Logs {@code Ready to accept connections tcp} with the
 * port once listening. Exit codes as redis-server's: 0 after SHUTDOWN, and after SIGTERM, which a
 * shutdown hook handles by closing the server; 1 for a bad configuration or an unusable port.
 * As with redis-server, a first argument of {@code -v} or {@code --version} prints the version
 * line, and {@code -h} or {@code --help} the usage with every option (generated from the config
 * table by {@link ConfigReference}); both exit with 0. Anywhere else they are read as directives.
 */
@Command(name = "ordo-server", description = "Runs Ordo, a Redis-compatible database, as a RESP server.")
public final class Main implements Callable<Integer> {
    @Parameters(paramLabel = "ARGS", description = "An optional config file (or - for standard input), then any "
            + "--name value option, as redis-server takes them: --port 6380, --requirepass foo, --save \"\".")
    private List<String> arguments = new ArrayList<>();

    private final PrintStream out;
    private final PrintStream err;
    private final InputStream in;
    private ServerLog log = ServerLog.SILENT;

    Main(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
        this.in = in;
    }

    /**
     * Runs the server until SHUTDOWN or SIGTERM, then exits with redis-server's exit code.
     *
     * @param args a config file (or {@code -} for standard input), then {@code --name value} options; or {@code -v}, {@code --version}, {@code -h}, {@code --help}, or {@code --check-aof [--fix] FILE}
     */
    public static void main(String[] args) {
        // Netty samples one buffer in 128 for leak reports, recording a stack trace at each use of
        // it; the tests keep that on, the server needs none of it on every request unless asked for.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        int code = run(args, System.out, System.err, System.in);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Parses, starts and serves until SHUTDOWN; returns the exit code (help and version return 0 at once). */
    static int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        if (args.length > 0) {
            switch (args[0]) {
                case "-v", "--version" -> {
                    out.println(versionLine());
                    return 0;
                }
                case "-h", "--help" -> {
                    out.print(ConfigReference.usage());
                    out.flush();
                    return 0;
                }
                default -> {
                }
            }
        }
        return commandLine(new Main(out, err, in)).execute(args);
    }

    /**
     * The version line, in redis-server's shape ({@code Redis server v=7.0.15 sha=00000000:0
     * malloc=jemalloc-5.3.0 bits=64 build=...}): Ordo's own version, the allocator and build id
     * INFO reports, and the Redis version Ordo emulates last.
     */
    static String versionLine() {
        return "Ordo server v=" + Version.ORDO + " sha=00000000:0 malloc=jvm bits=" + System.getProperty("sun.arch.data.model", "64")
                + " build=0000000000000000 redis_version=" + RedisVersion.EMULATED;
    }

    /** Parses and starts, returning the running instance without waiting (for tests). */
    static Ordo start(String[] args, PrintStream out, PrintStream err) throws ConfigException, StartupFailure {
        Main main = new Main(out, err, InputStream.nullInputStream());
        commandLine(main).parseArgs(args);
        return main.launch();
    }

    /** picocli set up to hand every argument, {@code --name value} included, to {@link #arguments}. */
    private static CommandLine commandLine(Main main) {
        CommandLine cl = new CommandLine(main);
        cl.setUnmatchedOptionsArePositionalParams(true);
        cl.setExpandAtFiles(false);
        cl.setOut(new java.io.PrintWriter(main.out, true));
        cl.setErr(new java.io.PrintWriter(main.err, true));
        return cl;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!arguments.isEmpty() && arguments.get(0).equals("--check-aof")) {
            return checkAof();
        }
        Ordo ordo;
        try {
            ordo = launch();
        } catch (ConfigException e) {
            err.println(e.getMessage());
            return 1;
        } catch (StartupFailure e) {
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeOnSignal(ordo), "ordo-sigterm"));
        ordo.awaitClosed();
        return 0;
    }

    /** Loads the configuration, opens the port and logs readiness. */
    private Ordo launch() throws ConfigException, StartupFailure {
        ConfigLoader.Loaded loaded = new ConfigLoader(in).load(arguments);
        log = log(loaded.config().get("logfile"));
        ServerLog log = this.log;
        Ordo ordo;
        try {
            ordo = Ordo.embedded(loaded.config(), log);
        } catch (IllegalStateException e) {
            // io-transport io_uring where the kernel refuses it (the message names why)
            log.warning(e.getMessage());
            throw new StartupFailure();
        }
        ordo.onShutdown(() -> {
            ordo.close();
            log.notice("Ordo is now ready to exit, bye bye...");
        });
        log.notice("Ordo version=" + Version.ORDO + ", pid=" + ProcessHandle.current().pid() + ", just started");
        // A write that ran the heap out part way may have left its data half changed: stop at
        // once, before anything (a save at shutdown above all) can use that state.
        ordo.engine().onFailStop(why -> {
            log.warning("Stopping: " + why + ". The data in memory may be inconsistent; exiting without saving.");
            Runtime.getRuntime().halt(1);
        });
        logMemoryLimit(ordo, loaded.config(), log);
        ordo.hosted().persistence().setLog(log::notice);
        try {
            ordo.engine().startPersistence();
        } catch (IOException e) {
            ordo.close();
            log.warning(e.getMessage());
            throw new StartupFailure();
        }
        // Loading builds large sets through arrays as long as the sets; one collection before
        // serving gives that heap back (the launcher's heap shrinks to the live data), while no
        // client waits on the pause.
        System.gc();
        int requested = loaded.config().getInt("port");
        int tlsRequested = loaded.config().getInt("tls-port");
        // As redis-server: port 0 beside a TLS port serves TLS only. Without one, port 0 keeps
        // Ordo's meaning, any free port (redis-server would refuse to start).
        int port = 0;
        if (requested != 0 || tlsRequested == 0) {
            try {
                port = ordo.openPort(requested);
            } catch (UncheckedIOException e) {
                abort(ordo, log, e.getCause().getMessage(), "Failed listening on port " + requested + " (tcp), aborting.");
            }
        }
        int tlsPort = 0;
        if (tlsRequested != 0) {
            try {
                tlsPort = ordo.openTlsPort(tlsRequested);
            } catch (IllegalStateException e) {
                abort(ordo, log, null, "Failed to configure TLS. Check logs for more info."); // the reason is logged already
            } catch (UncheckedIOException e) {
                abort(ordo, log, e.getCause().getMessage(), "Failed listening on port " + tlsRequested + " (tls), aborting.");
            }
        }
        int consolePort = loaded.config().getInt("console-port");
        if (consolePort != 0) {
            try {
                consolePort = ordo.openConsole(consolePort);
            } catch (RuntimeException e) {
                abort(ordo, log, e.getMessage(), "Failed listening on console port " + consolePort + " (http), aborting.");
            }
            log.notice("Ordo Console on http://" + loaded.config().get("console-bind") + ":" + consolePort + "/ ("
                    + (loaded.config().getBoolean("console-writable") ? "writable" : "read-only") + ")");
        }
        log.notice("Running mode=standalone, port=" + port + ".");
        log.notice("Server initialized");
        if (port != 0) {
            log.notice("Ready to accept connections tcp on port " + port);
        }
        if (tlsPort != 0) {
            log.notice("Ready to accept connections tls on port " + tlsPort);
        }
        return ordo;
    }

    /** Startup failed after the data was loaded: keeps the data as a shutdown would, closes, logs why and stops. */
    private static void abort(Ordo ordo, ServerLog log, String cause, String message) throws StartupFailure {
        ordo.hosted().withLock(() -> ordo.hosted().persistence().beforeShutdown(false, true));
        ordo.close();
        if (cause != null) {
            log.warning(cause);
        }
        log.warning(message);
        throw new StartupFailure();
    }

    /** Logs the memory limit in force, and Redis's warning for a maxmemory under 1 MB. */
    private static void logMemoryLimit(Ordo ordo, dev.ordo.engine.config.Config config, ServerLog log) {
        long maxmemory = config.getLong("maxmemory");
        var budget = ordo.hosted().maxMemory().budget();
        if (maxmemory == 0) {
            log.notice("maxmemory is 0: writes are refused once the data reaches " + (budget.implicitMaxmemory() >> 20)
                    + " MB, the maximum heap (" + (budget.maxHeap() >> 20) + " MB) less room for clients and collections");
        } else if (maxmemory < 1024 * 1024) {
            log.warning("WARNING: You specified a maxmemory value that is less than 1MB (current value is " + maxmemory
                    + " bytes). Are you sure this is what you really want?");
        }
    }

    /** {@code --check-aof FILE [--fix]}: checks (and with --fix repairs) an append-only file or manifest. */
    private int checkAof() {
        List<String> rest = arguments.subList(1, arguments.size());
        boolean fix = rest.contains("--fix");
        List<String> files = rest.stream().filter(a -> !a.equals("--fix")).toList();
        if (files.size() != 1) {
            err.println("Usage: ordo-server --check-aof [--fix] <file.manifest|file.aof>");
            return 1;
        }
        return AofCheck.run(Path.of(files.get(0)), fix, out);
    }

    /** The shutdown hook: closes the server, then ends the process with 0 as redis-server does. */
    private void closeOnSignal(Ordo ordo) {
        if (!ordo.isClosed()) {
            log.warning("Received SIGTERM scheduling shutdown...");
            ordo.close();
            log.notice("Ordo is now ready to exit, bye bye...");
            Runtime.getRuntime().halt(0);
        }
    }

    /** Standard output, or the {@code logfile} when one is configured. */
    private ServerLog log(String logfile) throws ConfigException {
        if (logfile == null || logfile.isEmpty()) {
            return ServerLog.to(out);
        }
        try {
            return ServerLog.to(new PrintStream(new FileOutputStream(logfile, true), true, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ConfigException("Can't open the log file: " + e.getMessage());
        }
    }

    /** Startup stopped after its reason was logged. */
    static final class StartupFailure extends Exception {
        private static final long serialVersionUID = 1L;

        StartupFailure() {
            super("startup failed", null, false, false);
        }
    }
}
