package dev.ordo.patterns.lettuce;

import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.StoreException;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@link Store} over Lettuce: one server (Ordo or Redis) or a Redis Cluster. Commands go
 * through one shared, thread-safe connection that speaks RESP2 (so replies have the same shapes
 * as embedded ones); on a cluster Lettuce routes each command by its first key. A
 * {@code rediss://} URI connects over TLS, trusting the JVM's certificate authorities, or those
 * of {@link Tls} (a private CA, a client certificate), as {@code redis-cli --tls} takes them.
 *
 * <p>The non-blocking calls ({@link #callAsync}, {@link #evalAsync} and their batch forms) go
 * through Lettuce's asynchronous API: the stage is returned as soon as the command is written
 * and completes on Lettuce's I/O thread when the reply arrives, so a caller never waits for the
 * server. A stage's dependent actions run on that I/O thread: keep them short, or move them with
 * the {@code ...Async(..., executor)} forms of {@link CompletionStage}.
 *
 * <p>Every command gets no more than the connection's timeout (its {@link RedisURI}'s, the first
 * seed's on a cluster; Lettuce's 60 s unless the URI says otherwise, e.g. {@code ?timeout=2s}) to
 * answer, or its call throws, and its stage fails, with a {@link StoreException} saying so. A
 * blocking command (BZPOPMIN, BLMOVE, XREAD BLOCK, ...) gets its block time on top, so a worker
 * waiting on an empty queue is not mistaken for a server that stopped answering; one that blocks
 * for ever (a block time of 0) waits for ever.
 */
public final class LettuceStore implements Store {
    private static final ConcurrentHashMap<String, ProtocolKeyword> KEYWORDS = new ConcurrentHashMap<>();
    private static final ProtocolKeyword EVALSHA = keyword("EVALSHA");
    private static final ProtocolKeyword EVAL = keyword("EVAL");

    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    private final BaseRedisAsyncCommands<String, String> async;
    private final boolean clustered;
    private final boolean ownsClient;
    /** False for a cluster node's connection, which the cluster connection owns and closes. */
    private final boolean ownsConnection;
    /** The connection's command timeout: what a command that does not block gets to answer. */
    private final Duration timeout;

    private LettuceStore(AbstractRedisClient client, StatefulConnection<String, String> connection,
                         BaseRedisAsyncCommands<String, String> async, boolean clustered, boolean ownsClient, Duration timeout) {
        this(client, connection, async, clustered, ownsClient, true, timeout);
    }

    private LettuceStore(AbstractRedisClient client, StatefulConnection<String, String> connection,
                         BaseRedisAsyncCommands<String, String> async, boolean clustered, boolean ownsClient, boolean ownsConnection,
                         Duration timeout) {
        this.client = client;
        this.connection = connection;
        this.async = async;
        this.clustered = clustered;
        this.ownsClient = ownsClient;
        this.ownsConnection = ownsConnection;
        this.timeout = timeout;
    }

    /**
     * An ACL user and its password to authenticate as ({@code AUTH username password}); the user
     * {@code default} for a server with only {@code requirepass}.
     */
    public record Credentials(String username, String password) {
        /**
         * Refuses a missing user name or password.
         *
         * @param username the ACL user to authenticate as ({@code default} with only {@code requirepass})
         * @param password that user's password
         */
        public Credentials {
            java.util.Objects.requireNonNull(username, "username");
            java.util.Objects.requireNonNull(password, "password");
        }

        /** The user name, with the password hidden. */
        @Override
        public String toString() {
            return "Credentials[username=" + username + ", password=(hidden)]";
        }
    }

    /**
     * TLS settings for a {@code rediss://} URI, in PEM files as {@code redis-cli} takes them: the
     * certificate authority to trust ({@code --cacert}; null for the JVM's), and the client
     * certificate and its unencrypted key ({@code --cert}, {@code --key}; both null for none).
     */
    public record Tls(Path caCertFile, Path certFile, Path keyFile) {
        /**
         * Refuses a client certificate without its key, or a key without its certificate.
         *
         * @param caCertFile PEM file of the authority to trust, or null for the JVM's
         * @param certFile PEM client certificate to present, or null for none
         * @param keyFile unencrypted PEM key of {@code certFile}, or null for none
         */
        public Tls {
            if ((certFile == null) != (keyFile == null)) {
                throw new IllegalArgumentException("a client certificate needs its key, and a key its certificate");
            }
        }

        /**
         * Trusts the authority in {@code caCertFile}; presents no client certificate.
         *
         * @param caCertFile PEM file of the authority to trust, or null for the JVM's
         * @return settings with no client certificate
         */
        public static Tls trusting(Path caCertFile) {
            return new Tls(caCertFile, null, null);
        }

        /**
         * These settings, presenting the client certificate {@code certFile} with its key.
         *
         * @param certFile PEM client certificate to present
         * @param keyFile its unencrypted PEM key
         * @return new settings with the same authority and this client certificate
         */
        public Tls withClientCertificate(Path certFile, Path keyFile) {
            return new Tls(caCertFile, certFile, keyFile);
        }

        SslOptions sslOptions() {
            SslOptions.Builder b = SslOptions.builder().jdkSslProvider();
            if (caCertFile != null) {
                b.trustManager(caCertFile.toFile());
            }
            if (certFile != null) {
                b.keyManager(certFile.toFile(), keyFile.toFile(), null);
            }
            return b.build();
        }
    }

    /**
     * Connects to one server, e.g. {@code redis://127.0.0.1:6379}, {@code rediss://host:6380}
     * (TLS, trusting the JVM's authorities), or as an ACL user with
     * {@code redis://user:password@127.0.0.1:6379}.
     *
     * @param uri the server's {@code redis://} or {@code rediss://} URI
     * @return a store owning its connection; close it to disconnect
     */
    public static LettuceStore connect(String uri) {
        return connect(RedisURI.create(uri), null);
    }

    /**
     * Connects to one server as {@code credentials}, which take the place of any user and password in {@code uri}.
     *
     * @param uri the server's {@code redis://} or {@code rediss://} URI
     * @param credentials the ACL user and password to authenticate as
     * @return a store owning its connection; close it to disconnect
     */
    public static LettuceStore connect(String uri, Credentials credentials) {
        RedisURI redisUri = RedisURI.create(uri);
        // A credentials provider rather than setAuthentication(String, CharSequence), which Lettuce 6
        // (what Spring Boot 4.0 manages) does not have.
        redisUri.setCredentialsProvider(new StaticCredentialsProvider(credentials.username(), credentials.password().toCharArray()));
        return connect(redisUri, null);
    }

    /**
     * Connects to one server over {@code rediss://} with {@code tls}'s authority and client certificate.
     *
     * @param uri the server's {@code rediss://} URI
     * @param tls the authority to trust and the client certificate to present
     * @return a store owning its connection; close it to disconnect
     */
    public static LettuceStore connect(String uri, Tls tls) {
        return connect(RedisURI.create(uri), tls);
    }

    private static LettuceStore connect(RedisURI uri, Tls tls) {
        return standalone(RedisClient.create(uri), uri.getTimeout(), tls == null ? null : tls.sslOptions());
    }

    /**
     * Connects to one server, or to the master a Sentinel {@code uri} names, on {@code resources}
     * (an application's shared event loops and timers, such as Spring Boot's
     * {@code ClientResources} bean), which closing the store leaves running. Commands time out
     * after {@code uri}'s timeout ({@link RedisURI#getTimeout()}), blocking ones after their block
     * time plus that.
     *
     * @param resources the client resources to share; the caller keeps owning them
     * @param uri       the server, or the Sentinels and master, with credentials, database and command timeout
     * @param ssl       TLS settings when {@code uri} asks for TLS, or null for the JVM's defaults
     * @return a store owning its client and connection, not the resources; close it to disconnect
     */
    public static LettuceStore connect(ClientResources resources, RedisURI uri, SslOptions ssl) {
        return standalone(RedisClient.create(resources, uri), uri.getTimeout(), ssl);
    }

    /** A store on {@code client}, which it then owns, connected to the client's URI, whose timeout is {@code timeout}. */
    private static LettuceStore standalone(RedisClient client, Duration timeout, SslOptions ssl) {
        try {
            ClientOptions.Builder options = ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).timeoutOptions(timeouts(timeout));
            if (ssl != null) {
                options.sslOptions(ssl);
            }
            client.setOptions(options.build());
            var connection = client.connect(StringCodec.UTF8);
            return new LettuceStore(client, connection, connection.async(), false, true, timeout);
        } catch (RuntimeException e) {
            client.shutdown();
            throw e;
        }
    }

    /**
     * Connects to a Redis Cluster through any of its nodes; MOVED replies are followed, and the slot map is re-read every 30 s.
     *
     * @param seedUris URIs of the nodes to learn the cluster's layout from; one reachable is enough
     * @return a store owning its cluster connection; close it to disconnect
     */
    public static LettuceStore connectCluster(String... seedUris) {
        List<RedisURI> seeds = Stream.of(seedUris).map(RedisURI::create).toList();
        return cluster(RedisClusterClient.create(seeds), seeds, null);
    }

    /**
     * Connects to a Redis Cluster through any of {@code seeds}, on {@code resources}, which
     * closing the store leaves running; otherwise as {@link #connectCluster(String...)}. Commands
     * time out after the first seed's timeout ({@link RedisURI#getTimeout()}, which Lettuce uses
     * for the whole cluster), blocking ones after their block time plus that.
     *
     * @param resources the client resources to share; the caller keeps owning them
     * @param seeds     the nodes to learn the cluster's layout from, with credentials and command timeout; one reachable is enough
     * @param ssl       TLS settings when the seeds ask for TLS, or null for the JVM's defaults
     * @return a store owning its client and connection, not the resources; close it to disconnect
     */
    public static LettuceStore connectCluster(ClientResources resources, List<RedisURI> seeds, SslOptions ssl) {
        return cluster(RedisClusterClient.create(resources, seeds), seeds, ssl);
    }

    private static LettuceStore cluster(RedisClusterClient client, List<RedisURI> seeds, SslOptions ssl) {
        // Lettuce times a cluster's commands by its first seed's timeout.
        Duration timeout = seeds.isEmpty() ? RedisURI.DEFAULT_TIMEOUT_DURATION : seeds.get(0).getTimeout();
        try {
            ClusterClientOptions.Builder options = ClusterClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).timeoutOptions(timeouts(timeout))
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enablePeriodicRefresh(Duration.ofSeconds(30)).build());
            if (ssl != null) {
                options.sslOptions(ssl);
            }
            client.setOptions(options.build());
            var connection = client.connect(StringCodec.UTF8);
            return new LettuceStore(client, connection, connection.async(), true, true, timeout);
        } catch (RuntimeException e) {
            client.shutdown();
            throw e;
        }
    }

    /**
     * Lettuce's command timeouts: {@code timeout} for a command that answers at once, its block
     * time plus {@code timeout} for a blocking one, none for one that blocks for ever (or when
     * {@code timeout} is zero). Lettuce applies them to every command written, the asynchronous
     * ones included, failing an expired command with a {@link RedisCommandTimeoutException}.
     */
    private static TimeoutOptions timeouts(Duration timeout) {
        long base = timeout.toNanos();
        return TimeoutOptions.builder().timeoutCommands(true).timeoutSource(new TimeoutOptions.TimeoutSource() {
            @Override
            public long getTimeout(RedisCommand<?, ?, ?> command) {
                long block = command.getOutput() instanceof ReplyOutput out ? out.blockNanos : -1;
                return commandTimeoutNanos(base, block);
            }

            @Override
            public TimeUnit getTimeUnit() {
                return TimeUnit.NANOSECONDS;
            }
        }).build();
    }

    /** What a command blocking {@code blockNanos} (-1: not blocking, 0: for ever) gets, 0 meaning no limit. */
    private static long commandTimeoutNanos(long baseNanos, long blockNanos) {
        if (baseNanos <= 0 || blockNanos == 0) {
            return 0;
        }
        if (blockNanos < 0) {
            return baseNanos;
        }
        long sum = baseNanos + blockNanos;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * How long {@code command} may block before the server answers, in nanoseconds: -1 for a
     * command that answers at once, 0 for one that blocks until data arrive.
     */
    static long blockNanos(StoreCommand command) {
        List<String> a = command.args();
        if (a.isEmpty()) {
            return -1;
        }
        return switch (command.name().toUpperCase(Locale.ROOT)) {
            case "BLPOP", "BRPOP", "BZPOPMIN", "BZPOPMAX", "BLMOVE", "BRPOPLPUSH" -> nanos(a.get(a.size() - 1), 1_000_000_000L);
            case "BLMPOP", "BZMPOP" -> nanos(a.get(0), 1_000_000_000L);
            case "WAIT", "WAITAOF" -> nanos(a.get(a.size() - 1), 1_000_000L);
            case "XREAD", "XREADGROUP" -> {
                // Options come before STREAMS; GROUP's two names may be any word, BLOCK included.
                for (int i = 0; i + 1 < a.size() && !a.get(i).equalsIgnoreCase("STREAMS"); i++) {
                    if (a.get(i).equalsIgnoreCase("GROUP")) {
                        i += 2;
                    } else if (a.get(i).equalsIgnoreCase("BLOCK")) {
                        yield nanos(a.get(i + 1), 1_000_000L);
                    }
                }
                yield -1;
            }
            default -> -1;
        };
    }

    /** {@code value} units of {@code unitNanos} each; -1 when it is not a block time (the server refuses it at once). */
    private static long nanos(String value, long unitNanos) {
        BigDecimal amount;
        try {
            amount = new BigDecimal(value);
        } catch (NumberFormatException e) {
            return -1;
        }
        if (amount.signum() < 0) {
            return -1;
        }
        if (amount.signum() == 0) {
            return 0;
        }
        BigDecimal nanos = amount.multiply(BigDecimal.valueOf(unitNanos));
        return nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : Math.max(1, nanos.longValue());
    }

    @Override
    public Reply call(StoreCommand command) {
        return join(send(keyword(command.name()), args(command), blockNanos(command)));
    }

    @Override
    public CompletionStage<Reply> callAsync(StoreCommand command) {
        return send(keyword(command.name()), args(command), blockNanos(command));
    }

    @Override
    public CompletionStage<Reply> evalAsync(Script script, List<String> keys, List<String> args) {
        CompletableFuture<Reply> out = new CompletableFuture<>();
        send(EVALSHA, scriptArgs(script.sha1(), keys, args), -1).whenComplete((reply, failure) -> {
            if (failure == null) {
                out.complete(reply);
            } else if (failure instanceof StoreException e && e.isNoScript()) {
                send(EVAL, scriptArgs(script.source(), keys, args), -1).whenComplete((again, failed) -> {
                    if (failed == null) {
                        out.complete(again);
                    } else {
                        out.completeExceptionally(failed);
                    }
                });
            } else {
                out.completeExceptionally(failure);
            }
        });
        return out;
    }

    /**
     * Sends one command without waiting; the stage fails with a {@link StoreException}, also when
     * no reply came within the command's timeout. Cancelling the stage cancels the command.
     *
     * @param blockNanos how long the command blocks: -1 not at all, 0 for ever
     */
    private CompletionStage<Reply> send(ProtocolKeyword type, CommandArgs<String, String> args, long blockNanos) {
        CompletableFuture<Reply> out = new CompletableFuture<>();
        RedisFuture<Reply> future;
        try {
            future = async.dispatch(type, new ReplyOutput(blockNanos), args);
        } catch (RedisException e) {
            out.completeExceptionally(new StoreException(e.getMessage(), e));
            return out;
        }
        future.whenComplete((reply, failure) -> {
            if (failure == null) {
                out.complete(reply);
            } else {
                Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null ? failure.getCause() : failure;
                if (cause instanceof RedisCommandTimeoutException) {
                    out.completeExceptionally(new StoreException(timedOut(type, blockNanos), cause));
                } else {
                    out.completeExceptionally(cause instanceof StoreException ? cause : new StoreException(cause.getMessage(), cause));
                }
            }
        });
        out.whenComplete((reply, failure) -> {
            if (out.isCancelled()) {
                future.cancel(true);
            }
        });
        return out;
    }

    /** Why a command failed with no reply in time: its name and the time it had. */
    private String timedOut(ProtocolKeyword type, long blockNanos) {
        String within = blockNanos > 0
                ? Duration.ofNanos(commandTimeoutNanos(timeout.toNanos(), blockNanos)).toMillis() + " ms (its block time plus the connection's timeout of "
                        + timeout.toMillis() + " ms)"
                : timeout.toMillis() + " ms (the connection's timeout)";
        return type + " timed out: no reply within " + within;
    }

    @Override
    public List<Reply> callAll(List<StoreCommand> commands) {
        return join(callAllAsync(commands));
    }

    @Override
    public List<Reply> evalAll(Script script, List<List<String>> keys, List<List<String>> args) {
        return join(evalAllAsync(script, keys, args));
    }

    /**
     * Waits for {@code stage}, which the commands' timeouts bound; a failure comes out as the
     * {@link StoreException} it failed with. An interrupt cancels {@code stage} (for one command,
     * the command itself; a batch's commands run on to their replies or timeouts).
     */
    private static <T> T join(CompletionStage<T> stage) {
        CompletableFuture<T> future = stage.toCompletableFuture();
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof StoreException s ? s : new StoreException(cause.getMessage(), cause);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for a reply", e);
        }
    }

    private static CommandArgs<String, String> args(StoreCommand command) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
        List<String> list = command.args();
        for (int i = 0; i < list.size(); i++) {
            if (command.isKey(i)) {
                args.addKey(list.get(i));
            } else {
                args.add(list.get(i));
            }
        }
        return args;
    }

    @Override
    public Reply eval(Script script, List<String> keys, List<String> args) {
        try {
            return dispatch(EVALSHA, scriptArgs(script.sha1(), keys, args));
        } catch (StoreException e) {
            if (!e.isNoScript()) {
                throw e;
            }
            return dispatch(EVAL, scriptArgs(script.source(), keys, args));
        }
    }

    @Override
    public Store dedicated() {
        if (client instanceof RedisClusterClient cluster) {
            var c = cluster.connect(StringCodec.UTF8);
            return new LettuceStore(client, c, c.async(), true, false, timeout);
        }
        var c = ((RedisClient) client).connect(StringCodec.UTF8);
        return new LettuceStore(client, c, c.async(), false, false, timeout);
    }

    @Override
    public boolean clustered() {
        return clustered;
    }

    /**
     * One store per master node of the cluster this store reaches, in node-id order, for what each
     * node answers for itself (INFO, SCAN, DBSIZE); this store alone when it is not a cluster's.
     * A node's store uses this store's own connection to that node (its credentials and TLS
     * included): closing it does nothing, closing this store closes it.
     *
     * @return the masters' stores, or this store
     */
    public List<Store> masters() {
        if (!(connection instanceof StatefulRedisClusterConnection<String, String> cluster)) {
            return List.of(this);
        }
        List<Store> out = new ArrayList<>();
        cluster.getPartitions().stream()
                .filter(n -> n.is(RedisClusterNode.NodeFlag.UPSTREAM) && !n.is(RedisClusterNode.NodeFlag.FAIL))
                .sorted(java.util.Comparator.comparing(RedisClusterNode::getNodeId))
                .forEach(n -> {
                    var c = cluster.getConnection(n.getNodeId());
                    out.add(new LettuceStore(client, c, c.async(), false, false, false, timeout));
                });
        return out;
    }

    /** Closes this store's connection, and the client too unless this is a {@link #dedicated()} store. */
    @Override
    public void close() {
        if (!ownsConnection) {
            return;
        }
        connection.close();
        if (ownsClient) {
            client.shutdown();
        }
    }

    private static CommandArgs<String, String> scriptArgs(String head, List<String> keys, List<String> args) {
        CommandArgs<String, String> out = new CommandArgs<>(StringCodec.UTF8).add(head).add(keys.size());
        for (String k : keys) {
            out.addKey(k);
        }
        for (String a : args) {
            out.add(a);
        }
        return out;
    }

    private Reply dispatch(ProtocolKeyword type, CommandArgs<String, String> args) {
        return join(send(type, args, -1));
    }

    private static ProtocolKeyword keyword(String name) {
        return KEYWORDS.computeIfAbsent(name, n -> {
            byte[] bytes = n.getBytes(StandardCharsets.US_ASCII);
            return new ProtocolKeyword() {
                @Override
                public byte[] getBytes() {
                    return bytes;
                }

                @Override
                public String toString() {
                    return n;
                }
            };
        });
    }
}
