package dev.ordo.server.tls;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.text.Errors;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.internal.tcnative.SSL;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The server's TLS context, built from the {@code tls-*} parameters as redis-server 7 builds its
 * own, and the {@link SslHandler} each accepted TLS connection gets from it.
 *
 * <p>Provider. OpenSSL (BoringSSL, from {@code netty-tcnative-boringssl-static}) where its
 * native library loads, which the build ships for Linux x86-64; the JDK's {@code SSLEngine}
 * elsewhere. Why: the same library family as redis-server's OpenSSL, record encryption in
 * native code off the Java heap, and the registry serves {@code netty-tcnative-boringssl-static}
 * for Linux x86-64 at the release Netty 4.2.18 is built against (2.0.84). Other platforms get
 * the JDK's provider, which needs nothing more. {@link #provider()} names the one in use; the
 * server logs it at start.
 *
 * <p>What is read when. The context (certificate, key, CA, protocols, ciphers, session cache) is
 * built at start and again by CONFIG SET of any parameter in {@link #CONTEXT_PARAMETERS}, as
 * Redis's {@code applyTlsCfg} does: new connections get the new context, open ones keep theirs,
 * and a context that cannot be built (a missing file, a key that does not open, an unknown
 * protocol or cipher) fails the CONFIG SET with Redis's text, logs why, and leaves the old one in
 * force. {@code tls-auth-clients} and {@code tls-prefer-server-ciphers} are read for each new
 * connection, as Redis reads the first per connection.
 *
 * <p>{@code tls-ciphers} takes cipher names (OpenSSL's or IANA's, separated by {@code :}) or, with
 * the OpenSSL provider, an OpenSSL cipher expression such as {@code HIGH:!aNULL:!MD5}, which the
 * native library expands into the names it selects (the JDK provider takes names only).
 * Differences from OpenSSL in Redis, by the libraries: BoringSSL always offers its three TLS 1.3 suites, whatever
 * {@code tls-ciphersuites} says (the JDK provider follows it). A CA directory is read as every
 * certificate file in it. {@code tls-session-caching no} turns the cache off with OpenSSL; the
 * JDK's cache cannot be turned off.
 */
public final class ServerTls implements Config.Applier {
    /** The parameters whose CONFIG SET builds a new context. */
    public static final List<String> CONTEXT_PARAMETERS = List.of("tls-cert-file", "tls-key-file", "tls-key-file-pass",
            "tls-client-cert-file", "tls-client-key-file", "tls-client-key-file-pass", "tls-dh-params-file", "tls-ca-cert-file",
            "tls-ca-cert-dir", "tls-protocols", "tls-ciphers", "tls-ciphersuites", "tls-prefer-server-ciphers", "tls-session-caching",
            "tls-session-cache-size", "tls-session-cache-timeout", "tls-replication", "tls-cluster");
    /** The TLS 1.2 ciphers offered when only {@code tls-ciphersuites} is set (Netty's defaults: ECDHE, AEAD). */
    private static final List<String> DEFAULT_TLS12_CIPHERS = List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
    /** The TLS 1.3 suites offered when only {@code tls-ciphers} is set. */
    private static final List<String> DEFAULT_TLS13_SUITES = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256");
    private static final String INVALID_PROTOCOLS =
            "Invalid tls-protocols specified. Use a combination of 'TLSv1', 'TLSv1.1', 'TLSv1.2' and 'TLSv1.3'.";

    private final Config config;
    /** Where the reasons a context could not be built go (the server log's warnings). */
    private final Consumer<String> warnings;
    private final SslProvider provider;
    private final Supplier<String> authClients;
    private final Supplier<String> preferServerCiphers;
    private volatile SslContext current;

    private ServerTls(Config config, Consumer<String> warnings, SslProvider provider) {
        this.config = config;
        this.warnings = warnings;
        this.provider = provider;
        this.authClients = config.liveValue("tls-auth-clients");
        this.preferServerCiphers = config.liveValue("tls-prefer-server-ciphers");
    }

    /**
     * Builds the context from the current {@code tls-*} values with the best provider here.
     * Throws {@link IllegalStateException} with Redis's reason (also given to {@code warnings})
     * when it cannot.
     */
    public static ServerTls open(Config config, Consumer<String> warnings) {
        return open(config, warnings, OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK);
    }

    /** As {@link #open(Config, Consumer)}, with the provider given. */
    public static ServerTls open(Config config, Consumer<String> warnings, SslProvider provider) {
        ServerTls tls = new ServerTls(config, warnings, provider);
        try {
            tls.current = tls.build();
        } catch (IOException e) {
            warnings.accept(e.getMessage());
            throw new IllegalStateException(e.getMessage(), e);
        }
        return tls;
    }

    /** The provider in use, for the log: {@code OpenSSL (BoringSSL)} or {@code JDK}, and why not OpenSSL. */
    public String provider() {
        if (provider == SslProvider.JDK) {
            Throwable why = OpenSsl.unavailabilityCause();
            return "JDK" + (why == null ? "" : " (OpenSSL unavailable: " + why + ")");
        }
        return "OpenSSL (" + OpenSsl.versionString() + ")";
    }

    /** A handler for a new connection: the current context, the current client-certificate rule and cipher preference. */
    public SslHandler newHandler(ByteBufAllocator alloc) {
        SslHandler handler = current.newHandler(alloc);
        SSLEngine engine = handler.engine();
        SSLParameters params = engine.getSSLParameters();
        switch (authClients.get()) {
            case "yes" -> params.setNeedClientAuth(true);
            case "optional" -> params.setWantClientAuth(true);
            default -> {
                params.setNeedClientAuth(false);
                params.setWantClientAuth(false);
            }
        }
        params.setUseCipherSuitesOrder("yes".equals(preferServerCiphers.get()));
        engine.setSSLParameters(params);
        return handler;
    }

    /** CONFIG SET of a context parameter: builds the new context, or logs why not and keeps the old one. */
    @Override
    public String apply() {
        try {
            current = build();
            return null;
        } catch (IOException e) {
            warnings.accept(e.getMessage());
            return Errors.TLS_CONFIG_FAILED;
        }
    }

    /** A context from the current values; an {@link IOException} carries the reason, as Redis logs it. */
    private SslContext build() throws IOException {
        String certFile = config.get("tls-cert-file");
        String keyFile = config.get("tls-key-file");
        String caFile = config.get("tls-ca-cert-file");
        String caDir = config.get("tls-ca-cert-dir");
        if (certFile.isEmpty()) {
            throw new IOException("No tls-cert-file configured!");
        }
        if (keyFile.isEmpty()) {
            throw new IOException("No tls-key-file configured!");
        }
        if (!"no".equals(config.get("tls-auth-clients")) && caFile.isEmpty() && caDir.isEmpty()) {
            throw new IOException("Either tls-ca-cert-file or tls-ca-cert-dir must be specified when tls-cluster, "
                    + "tls-replication or tls-auth-clients are enabled!");
        }
        List<X509Certificate> chain;
        try {
            chain = PemFiles.certificates(Path.of(certFile));
        } catch (IOException | RuntimeException e) {
            throw new IOException("Failed to load certificate: " + certFile + ": " + e.getMessage(), e);
        }
        PrivateKey key;
        try {
            key = PemFiles.privateKey(Path.of(keyFile), config.get("tls-key-file-pass"));
            PemFiles.requireMatch(key, chain.get(0));
        } catch (IOException | RuntimeException e) {
            throw new IOException("Failed to load private key: " + keyFile + ": " + e.getMessage(), e);
        }
        TrustManagerFactory trust;
        try {
            trust = trust(caFile, caDir);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new IOException("Failed to configure CA certificate(s) file/directory: " + e.getMessage(), e);
        }
        List<String> protocols = protocols(config.get("tls-protocols"));
        List<String> ciphers = ciphers(config.get("tls-ciphers"), config.get("tls-ciphersuites"));
        SslContext context;
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(key, chain)
                    .sslProvider(provider)
                    .trustManager(trust)
                    .clientAuth(ClientAuth.NONE)
                    .protocols(protocols);
            if (ciphers != null) {
                builder.ciphers(ciphers);
            }
            context = builder.build();
        } catch (IOException | RuntimeException e) {
            throw new IOException("Failed to configure TLS: " + e.getMessage(), e);
        }
        configureSessions(context.sessionContext());
        return context;
    }

    /** The session cache: on or off, its size (0: no limit) and timeout in seconds. */
    private void configureSessions(SSLSessionContext sessions) {
        boolean caching = config.getBoolean("tls-session-caching");
        if (sessions instanceof OpenSslSessionContext openSsl) {
            openSsl.setSessionCacheEnabled(caching);
        }
        if (caching) {
            sessions.setSessionCacheSize(config.getInt("tls-session-cache-size"));
            sessions.setSessionTimeout(config.getInt("tls-session-cache-timeout"));
        }
    }

    /**
     * Trusts the certificates of the CA file and of every certificate file in the CA directory;
     * nothing at all when neither is set (client certificates are then always refused).
     */
    private static TrustManagerFactory trust(String caFile, String caDir) throws IOException, GeneralSecurityException {
        List<X509Certificate> anchors = new ArrayList<>();
        if (!caFile.isEmpty()) {
            anchors.addAll(PemFiles.certificates(Path.of(caFile)));
        }
        if (!caDir.isEmpty() && Files.isDirectory(Path.of(caDir))) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(Path.of(caDir))) {
                for (Path f : files) {
                    if (!Files.isRegularFile(f)) {
                        continue;
                    }
                    try {
                        anchors.addAll(PemFiles.certificates(f));
                    } catch (IOException e) {
                        // OpenSSL's hashed directory may hold CRLs and other files: only certificates count.
                    }
                }
            }
        }
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        for (int i = 0; i < anchors.size(); i++) {
            store.setCertificateEntry("ca-" + i, anchors.get(i));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory;
    }

    /** {@code tls-protocols}: words from TLSv1 to TLSv1.3, any case, one space apart; empty for TLSv1.2 and TLSv1.3. */
    static List<String> protocols(String value) throws IOException {
        if (value.isEmpty()) {
            return List.of("TLSv1.2", "TLSv1.3");
        }
        Set<String> out = new LinkedHashSet<>();
        for (String word : value.split(" ", -1)) {
            switch (word.toLowerCase(Locale.ROOT)) {
                case "tlsv1" -> out.add("TLSv1");
                case "tlsv1.1" -> out.add("TLSv1.1");
                case "tlsv1.2" -> out.add("TLSv1.2");
                case "tlsv1.3" -> out.add("TLSv1.3");
                default -> throw new IOException(INVALID_PROTOCOLS);
            }
        }
        return List.copyOf(out);
    }

    /**
     * The ciphers to enable, or null for the provider's defaults (neither parameter set). A name
     * the provider does not know fails with Redis's reason.
     */
    private List<String> ciphers(String tls12, String tls13) throws IOException {
        if (tls12.isEmpty() && tls13.isEmpty()) {
            return null;
        }
        Set<String> known = supportedCiphers();
        List<String> out = new ArrayList<>();
        if (tls12.isEmpty()) {
            DEFAULT_TLS12_CIPHERS.stream().filter(known::contains).forEach(out::add);
        } else if (provider != SslProvider.JDK && isExpression(tls12, known)) {
            out.addAll(expand(tls12));
        } else {
            out.addAll(named(tls12, known, "Failed to configure ciphers: " + tls12));
        }
        if (tls13.isEmpty()) {
            DEFAULT_TLS13_SUITES.stream().filter(known::contains).forEach(out::add);
        } else {
            out.addAll(named(tls13, known, "Failed to configure ciphersuites: " + tls13));
        }
        return out;
    }

    /** Whether {@code list} is an OpenSSL cipher expression ({@code HIGH:!aNULL}, {@code DEFAULT@SECLEVEL=2}) rather than names. */
    private static boolean isExpression(String list, Set<String> known) {
        for (String word : list.split(":")) {
            if (!word.isEmpty() && !known.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The ciphers an OpenSSL cipher expression selects, in its order, as the native library
     * itself reads it (the same grammar Redis hands to OpenSSL); Redis's failure when it selects
     * none or does not parse.
     */
    private static List<String> expand(String expression) throws IOException {
        long ctx = 0;
        long ssl = 0;
        try {
            ctx = io.netty.internal.tcnative.SSLContext.make(SSL.SSL_PROTOCOL_TLSV1_2, SSL.SSL_MODE_SERVER);
            io.netty.internal.tcnative.SSLContext.setCipherSuite(ctx, expression, false);
            ssl = SSL.newSSL(ctx, true);
            String[] ciphers = SSL.getCiphers(ssl);
            if (ciphers == null || ciphers.length == 0) {
                throw new IOException("Failed to configure ciphers: " + expression);
            }
            return List.of(ciphers);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Failed to configure ciphers: " + expression, e);
        } finally {
            if (ssl != 0) {
                SSL.freeSSL(ssl);
            }
            if (ctx != 0) {
                io.netty.internal.tcnative.SSLContext.free(ctx);
            }
        }
    }

    private static List<String> named(String list, Set<String> known, String failure) throws IOException {
        List<String> out = new ArrayList<>();
        for (String name : list.split("[:, ]+")) {
            if (name.isEmpty()) {
                continue;
            }
            if (!known.contains(name)) {
                throw new IOException(failure);
            }
            out.add(name);
        }
        if (out.isEmpty()) {
            throw new IOException(failure);
        }
        return out;
    }

    /** Every cipher name the provider takes, in IANA's spelling and (for OpenSSL) OpenSSL's. */
    private Set<String> supportedCiphers() throws IOException {
        if (provider == SslProvider.JDK) {
            try {
                return Set.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
            } catch (GeneralSecurityException e) {
                throw new IOException("Failed to configure TLS: " + e.getMessage(), e);
            }
        }
        Set<String> all = new LinkedHashSet<>(OpenSsl.availableJavaCipherSuites());
        all.addAll(OpenSsl.availableOpenSslCipherSuites());
        return all;
    }
}
