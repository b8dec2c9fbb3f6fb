package dev.ordo.console;

import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.registry.PatternRegistry;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;


import java.net.URI;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * The standalone console: {@code java -jar ordo-console.jar --store redis://host:6379}. It
 * connects to one Redis or Ordo server (or, with {@code --cluster}, to a Redis Cluster through
 * the seeds given), serves the console on {@code --bind}:{@code --port}, and is read-only unless
 * started with {@code --writable}.
 */
@Command(name = "ordo-console", mixinStandardHelpOptions = true, versionProvider = ConsoleMain.Version.class,
        description = "The Ordo Console: leaderboards, queues, rate limiters and the server, in a browser.")
public final class ConsoleMain implements Callable<Integer> {
    @Option(names = "--store", paramLabel = "URI", description = "The database: redis://[user:password@]host:port, rediss:// for TLS; "
            + "with --cluster, comma-separated seed URIs. Default: ${DEFAULT-VALUE}.", defaultValue = "redis://127.0.0.1:6379")
    String store;

    @Option(names = "--cluster", description = "The store is a Redis Cluster; --store lists seed nodes.")
    boolean cluster;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "The address to serve on. Default: ${DEFAULT-VALUE} (this machine only).",
            defaultValue = "127.0.0.1")
    String bind;

    @Option(names = "--port", description = "The HTTP port. Default: ${DEFAULT-VALUE}.", defaultValue = "8080")
    int port;

    @Option(names = "--writable", description = "Allow write actions (edit scores, retry or purge dead letters). Read-only by default.")
    boolean writable;

    @Option(names = "--registry", paramLabel = "KEY", description = "The key of the pattern registry. Default: ${DEFAULT-VALUE}.",
            defaultValue = PatternRegistry.KEY)
    String registry;

    @Option(names = "--max-page", paramLabel = "ROWS", description = "The most rows one request returns. Default: ${DEFAULT-VALUE}.",
            defaultValue = "500")
    int maxPage;

    /** A console command line with every option at its default, before picocli sets them. */
    public ConsoleMain() {
    }

    /**
     * Runs the console until the process is stopped.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        int code = new CommandLine(new ConsoleMain()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        ConsoleOptions options = ConsoleOptions.readOnly().withWritable(writable).withMaxPage(maxPage).withRegistryKey(registry);
        String[] seeds = store.split(",");
        LettuceStore db = cluster ? LettuceStore.connectCluster(seeds) : LettuceStore.connect(store);
        Console console = new Console(db, db.masters(), shown(store), options);
        ConsoleHttp http = new ConsoleHttp(console);
        ConsoleServer server = ConsoleServer.start(bind, port, (user, password) -> http);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            console.close();
            db.close();
            stopped.countDown();
        }, "ordo-console-stop"));
        System.out.println("Ordo Console on http://" + bind + ":" + server.port() + "/ (" + (writable ? "writable" : "read-only")
                + "), store " + shown(store));
        stopped.await();
        return 0;
    }

    /** The store's URIs without their passwords. */
    static String shown(String uris) {
        StringBuilder out = new StringBuilder();
        for (String u : uris.split(",")) {
            if (!out.isEmpty()) {
                out.append(',');
            }
            try {
                URI uri = URI.create(u.trim());
                out.append(uri.getScheme()).append("://").append(uri.getHost()).append(':').append(uri.getPort());
            } catch (IllegalArgumentException e) {
                out.append("(unparsable URI)");
            }
        }
        return out.toString();
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = ConsoleMain.class.getPackage().getImplementationVersion();
            return new String[] {"Ordo Console " + (v == null ? "(development build)" : v)};
        }
    }
}
