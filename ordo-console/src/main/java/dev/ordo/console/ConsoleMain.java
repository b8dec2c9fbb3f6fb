package dev.ordo.console;

import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.registry.PatternRegistry;
import dev.ordo.patterns.store.Store;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.ordo.patterns.store.StoreCommand;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
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
        Store db = cluster ? LettuceStore.connectCluster(seeds) : LettuceStore.connect(store);
        List<Store> nodes = cluster ? masters(db, URI.create(seeds[0].trim())) : List.of(db);
        Console console = new Console(db, nodes, shown(store), options);
        ConsoleHttp http = new ConsoleHttp(console);
        ConsoleServer server = ConsoleServer.start(bind, port, (user, password) -> http);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            console.close();
            for (Store node : nodes) {
                if (node != db) {
                    node.close();
                }
            }
            db.close();
            stopped.countDown();
        }, "ordo-console-stop"));
        System.out.println("Ordo Console on http://" + bind + ":" + server.port() + "/ (" + (writable ? "writable" : "read-only")
                + "), store " + shown(store));
        stopped.await();
        return 0;
    }

    /**
     * A store on each master of the cluster {@code db} reaches, from CLUSTER NODES, each with the
     * scheme and credentials of {@code seed}.
     */
    static List<Store> masters(Store db, URI seed) {
        List<URI> masters = new ArrayList<>();
        for (String line : db.call(StoreCommand.of("CLUSTER").arg("NODES")).asString().split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length > 2 && List.of(f[2].split(",")).contains("master") && !f[2].contains("fail")) {
                String address = f[1].split("@")[0];
                int colon = address.lastIndexOf(':');
                String host = colon > 0 ? address.substring(0, colon) : seed.getHost();
                URI node = URI.create(seed.getScheme() + "://" + (seed.getRawUserInfo() == null ? "" : seed.getRawUserInfo() + "@")
                        + host + ":" + address.substring(colon + 1));
                masters.add(node);
            }
        }
        masters.sort(java.util.Comparator.comparing(URI::toString));
        List<Store> out = new ArrayList<>();
        for (URI node : masters) {
            out.add(LettuceStore.connect(node.toString()));
        }
        return out;
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
