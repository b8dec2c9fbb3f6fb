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
import io.lettuce.core.StaticCredentialsProvider;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.api.sync.BaseRedisCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ConcurrentHashMap;
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
 */
public final class LettuceStore implements Store {
    private static final ConcurrentHashMap<String, ProtocolKeyword> KEYWORDS = new ConcurrentHashMap<>();
    private static final ProtocolKeyword EVALSHA = keyword("EVALSHA");
    private static final ProtocolKeyword EVAL = keyword("EVAL");

    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    private final BaseRedisCommands<String, String> commands;
    private final BaseRedisAsyncCommands<String, String> async;
    private final boolean clustered;
    private final boolean ownsClient;

    private LettuceStore(AbstractRedisClient client, StatefulConnection<String, String> connection, BaseRedisCommands<String, String> commands,
                         BaseRedisAsyncCommands<String, String> async, boolean clustered, boolean ownsClient) {
        this.client = client;
        this.connection = connection;
        this.commands = commands;
        this.async = async;
        this.clustered = clustered;
        this.ownsClient = ownsClient;
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
        return standalone(RedisClient.create(uri), tls == null ? null : tls.sslOptions());
    }

    /**
     * Connects to one server, or to the master a Sentinel {@code uri} names, on {@code resources}
     * (an application's shared event loops and timers, such as Spring Boot's
     * {@code ClientResources} bean), which closing the store leaves running.
     *
     * @param resources the client resources to share; the caller keeps owning them
     * @param uri       the server, or the Sentinels and master, with credentials and database
     * @param ssl       TLS settings when {@code uri} asks for TLS, or null for the JVM's defaults
     * @return a store owning its client and connection, not the resources; close it to disconnect
     */
    public static LettuceStore connect(ClientResources resources, RedisURI uri, SslOptions ssl) {
        return standalone(RedisClient.create(resources, uri), ssl);
    }

    /** A store on {@code client}, which it then owns, connected to the client's URI. */
    private static LettuceStore standalone(RedisClient client, SslOptions ssl) {
        try {
            ClientOptions.Builder options = ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2);
            if (ssl != null) {
                options.sslOptions(ssl);
            }
            client.setOptions(options.build());
            var connection = client.connect(StringCodec.UTF8);
            return new LettuceStore(client, connection, connection.sync(), connection.async(), false, true);
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
        return cluster(RedisClusterClient.create(Stream.of(seedUris).map(RedisURI::create).toList()), null);
    }

    /**
     * Connects to a Redis Cluster through any of {@code seeds}, on {@code resources}, which
     * closing the store leaves running; otherwise as {@link #connectCluster(String...)}.
     *
     * @param resources the client resources to share; the caller keeps owning them
     * @param seeds     the nodes to learn the cluster's layout from, with credentials; one reachable is enough
     * @param ssl       TLS settings when the seeds ask for TLS, or null for the JVM's defaults
     * @return a store owning its client and connection, not the resources; close it to disconnect
     */
    public static LettuceStore connectCluster(ClientResources resources, List<RedisURI> seeds, SslOptions ssl) {
        return cluster(RedisClusterClient.create(resources, seeds), ssl);
    }

    private static LettuceStore cluster(RedisClusterClient client, SslOptions ssl) {
        try {
            ClusterClientOptions.Builder options = ClusterClientOptions.builder().protocolVersion(ProtocolVersion.RESP2)
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enablePeriodicRefresh(Duration.ofSeconds(30)).build());
            if (ssl != null) {
                options.sslOptions(ssl);
            }
            client.setOptions(options.build());
            var connection = client.connect(StringCodec.UTF8);
            return new LettuceStore(client, connection, connection.sync(), connection.async(), true, true);
        } catch (RuntimeException e) {
            client.shutdown();
            throw e;
        }
    }

    @Override
    public Reply call(StoreCommand command) {
        return dispatch(keyword(command.name()), args(command));
    }

    @Override
    public CompletionStage<Reply> callAsync(StoreCommand command) {
        return send(keyword(command.name()), args(command));
    }

    @Override
    public CompletionStage<Reply> evalAsync(Script script, List<String> keys, List<String> args) {
        CompletableFuture<Reply> out = new CompletableFuture<>();
        send(EVALSHA, scriptArgs(script.sha1(), keys, args)).whenComplete((reply, failure) -> {
            if (failure == null) {
                out.complete(reply);
            } else if (failure instanceof StoreException e && e.isNoScript()) {
                send(EVAL, scriptArgs(script.source(), keys, args)).whenComplete((again, failed) -> {
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

    /** Sends one command without waiting; the stage fails with a {@link StoreException}. */
    private CompletionStage<Reply> send(ProtocolKeyword type, CommandArgs<String, String> args) {
        CompletableFuture<Reply> out = new CompletableFuture<>();
        RedisFuture<Reply> future;
        try {
            future = async.dispatch(type, new ReplyOutput(), args);
        } catch (RedisException e) {
            out.completeExceptionally(new StoreException(e.getMessage(), e));
            return out;
        }
        future.whenComplete((reply, failure) -> {
            if (failure == null) {
                out.complete(reply);
            } else {
                Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null ? failure.getCause() : failure;
                out.completeExceptionally(cause instanceof StoreException ? cause : new StoreException(cause.getMessage(), cause));
            }
        });
        return out;
    }

    @Override
    public List<Reply> callAll(List<StoreCommand> commands) {
        return join(callAllAsync(commands));
    }

    @Override
    public List<Reply> evalAll(Script script, List<List<String>> keys, List<List<String>> args) {
        return join(evalAllAsync(script, keys, args));
    }

    /** Waits for {@code stage}; a failure comes out as the {@link StoreException} it failed with. */
    private static <T> T join(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof StoreException s ? s : new StoreException(cause.getMessage(), cause);
        } catch (InterruptedException e) {
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
            return new LettuceStore(client, c, c.sync(), c.async(), true, false);
        }
        var c = ((RedisClient) client).connect(StringCodec.UTF8);
        return new LettuceStore(client, c, c.sync(), c.async(), false, false);
    }

    @Override
    public boolean clustered() {
        return clustered;
    }

    /** Closes this store's connection, and the client too unless this is a {@link #dedicated()} store. */
    @Override
    public void close() {
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
        try {
            return commands.dispatch(type, new ReplyOutput(), args);
        } catch (RedisException e) {
            throw new StoreException(e.getMessage(), e);
        }
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
