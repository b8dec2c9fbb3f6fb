package dev.ordo.server.tls;

import dev.ordo.engine.config.Config;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates made at run time for the TLS tests, never checked in: a CA, and certificates it
 * signed (EC P-256, valid from a day ago to a day ahead), written as PEM files the way
 * redis-server and redis-cli take them. A server certificate names {@code localhost} and
 * {@code 127.0.0.1}; a client certificate is for client authentication.
 */
public final class TestCertificates {
    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

    private final Path dir;
    private final String name;
    private final KeyPair key;
    private final X509Certificate certificate;
    /** The CA's certificate that signed this one (itself for a CA). */
    private final X509Certificate issuer;

    private TestCertificates(Path dir, String name, KeyPair key, X509Certificate certificate, X509Certificate issuer) {
        this.dir = dir;
        this.name = name;
        this.key = key;
        this.certificate = certificate;
        this.issuer = issuer == null ? certificate : issuer;
    }

    /** A new CA whose files go into {@code dir}, as {@code <name>.crt} and {@code <name>.key}. */
    public static TestCertificates authority(Path dir, String name) throws IOException {
        try {
            KeyPair key = newKey();
            X500Name subject = new X500Name("CN=" + name);
            JcaX509v3CertificateBuilder b = builder(subject, subject, key);
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
            TestCertificates ca = new TestCertificates(dir, name, key, sign(b, key), null);
            ca.write();
            return ca;
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException(e);
        }
    }

    /** A server certificate for localhost and 127.0.0.1, signed by this CA, written as {@code <name>.crt / .key}. */
    public TestCertificates server(String name) throws IOException {
        return issue(name, KeyPurposeId.id_kp_serverAuth, true);
    }

    /** A client certificate signed by this CA, written as {@code <name>.crt / .key}. */
    public TestCertificates client(String name) throws IOException {
        return issue(name, KeyPurposeId.id_kp_clientAuth, false);
    }

    /**
     * A server certificate with an RSA key, its key written the legacy OpenSSL way (PKCS#1,
     * {@code RSA PRIVATE KEY}), as {@code <name>.crt / .key}.
     */
    public TestCertificates rsaServer(String name) throws IOException {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            TestCertificates out = issue(name, KeyPurposeId.id_kp_serverAuth, true, g.generateKeyPair());
            Files.writeString(out.keyFile(), pem(out.key.getPrivate()));
            return out;
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    private TestCertificates issue(String subjectName, KeyPurposeId purpose, boolean names) throws IOException {
        try {
            return issue(subjectName, purpose, names, newKey());
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    private TestCertificates issue(String subjectName, KeyPurposeId purpose, boolean names, KeyPair issued) throws IOException {
        try {
            JcaX509v3CertificateBuilder b = builder(new X500Name("CN=" + name), new X500Name("CN=" + subjectName), issued);
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature
                    | ("RSA".equals(issued.getPublic().getAlgorithm()) ? KeyUsage.keyEncipherment : KeyUsage.keyAgreement)));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            if (names) {
                b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
            }
            TestCertificates out = new TestCertificates(dir, subjectName, issued, sign(b, key), certificate);
            out.write();
            return out;
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException(e);
        }
    }

    /** The PEM certificate file. */
    public Path certFile() {
        return dir.resolve(name + ".crt");
    }

    /** The PEM private key file (PKCS#8, unencrypted). */
    public Path keyFile() {
        return dir.resolve(name + ".key");
    }

    /**
     * Server settings presenting this (server) certificate and key and trusting {@code authority}
     * for client certificates, as {@code tls-cert-file}, {@code tls-key-file} and {@code tls-ca-cert-file}.
     */
    public Config serverConfig(TestCertificates authority) {
        Config config = new Config();
        config.set("tls-cert-file", certFile().toString(), true);
        config.set("tls-key-file", keyFile().toString(), true);
        config.set("tls-ca-cert-file", authority.certFile().toString(), true);
        return config;
    }

    /** The subject's common name. */
    public String name() {
        return name;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** The private key written again, encrypted with {@code password} (PKCS#8, PBES2 with AES-256-CBC), as {@code <name>-encrypted.key}. */
    public Path encryptedKeyFile(String password) throws IOException {
        try {
            var encryptor = new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC).setProvider(new BouncyCastleProvider())
                    .setPassword(password.toCharArray()).build();
            Path file = dir.resolve(name + "-encrypted.key");
            Files.writeString(file, pem(new JcaPKCS8Generator(key.getPrivate(), encryptor).generate()));
            return file;
        } catch (OperatorCreationException e) {
            throw new IOException(e);
        }
    }

    /**
     * A JDK client context that trusts {@code authority} and, when {@code client} is not null,
     * presents that certificate (with its own CA's, whichever that is).
     */
    public static SSLContext clientContext(TestCertificates authority, TestCertificates client) throws GeneralSecurityException, IOException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", authority.certificate);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (client != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            char[] password = "in-memory".toCharArray();
            keys.setKeyEntry("client", client.key.getPrivate(), password, new X509Certificate[] {client.certificate, client.issuer});
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, password);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : new KeyManager[] {new AlwaysPresent((X509ExtendedKeyManager) kmf.getKeyManagers()[0])},
                tmf.getTrustManagers(), null);
        return context;
    }

    /**
     * Presents the one client certificate whatever authorities the server names, as OpenSSL's
     * clients (redis-cli) do; the JDK's own key manager would quietly send none to a server
     * that names another CA, and a test of refusal would prove nothing.
     */
    private static final class AlwaysPresent extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager keys;

        AlwaysPresent(X509ExtendedKeyManager keys) {
            this.keys = keys;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "client";
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "client";
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"client"};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return keys.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return keys.getPrivateKey(alias);
        }
    }

    private void write() throws IOException {
        Files.writeString(certFile(), pem(certificate));
        Files.writeString(keyFile(), pem(new JcaPKCS8Generator(key.getPrivate(), null).generate()));
    }

    private static String pem(Object object) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        }
        return out.toString();
    }

    private static KeyPair newKey() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static JcaX509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair subjectKey) {
        long now = System.currentTimeMillis();
        return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()), new Date(now - 86_400_000L),
                new Date(now + 86_400_000L), subject, subjectKey.getPublic());
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder builder, KeyPair issuerKey)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey.getPrivate())));
    }
}
