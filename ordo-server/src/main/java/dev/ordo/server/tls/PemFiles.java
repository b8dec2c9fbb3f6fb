package dev.ordo.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Reads the PEM files redis-server takes: certificates ({@code tls-cert-file}, the CA files) and
 * a private key ({@code tls-key-file}, optionally encrypted with {@code tls-key-file-pass}).
 *
 * <p>Keys read here, with the JDK alone (the server carries no other crypto library):
 * {@code PRIVATE KEY} (PKCS#8, what OpenSSL 3 writes by default: RSA, EC or Ed25519),
 * {@code ENCRYPTED PRIVATE KEY} (PKCS#8 with PBES2, as {@code openssl pkcs8 -topk8 -v2 aes-256-cbc}
 * writes) and {@code RSA PRIVATE KEY} (PKCS#1, re-wrapped as PKCS#8). Not read: SEC1
 * {@code EC PRIVATE KEY} and keys encrypted the legacy OpenSSL way ({@code Proc-Type} headers);
 * {@code openssl pkcs8 -topk8} turns either into a form above. Failures throw
 * {@link IOException} with a message for the log, as OpenSSL's reason is for Redis.
 */
final class PemFiles {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*(.*?)\\s*-----END \\1-----", Pattern.DOTALL);
    /** The DER of PKCS#8's AlgorithmIdentifier for rsaEncryption (1.2.840.113549.1.1.1, NULL parameters). */
    private static final byte[] RSA_ALGORITHM = {
        0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    private PemFiles() {
    }

    /** The certificates of a PEM (or DER) file, in file order; at least one. */
    static List<X509Certificate> certificates(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> out = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new IOException("no certificate found");
            }
            return out;
        } catch (NoSuchFileException e) {
            throw new IOException("No such file or directory", e);
        } catch (CertificateException e) {
            throw new IOException("not a certificate file (" + e.getMessage() + ")", e);
        }
    }

    /** The first private key of a PEM file; {@code password} (empty for none) opens an encrypted one. */
    static PrivateKey privateKey(Path file, String password) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new IOException("No such file or directory", e);
        }
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            String type = m.group(1);
            if (!type.endsWith("PRIVATE KEY")) {
                continue;
            }
            if (m.group(2).contains("Proc-Type:")) {
                throw new IOException("legacy OpenSSL key encryption is not supported; convert with openssl pkcs8 -topk8");
            }
            byte[] der = Base64.getMimeDecoder().decode(m.group(2));
            switch (type) {
                case "PRIVATE KEY":
                    return pkcs8(der);
                case "ENCRYPTED PRIVATE KEY":
                    return pkcs8(decrypt(der, password));
                case "RSA PRIVATE KEY":
                    return pkcs8(wrapRsa(der));
                default:
                    throw new IOException(type + " is not supported; convert with openssl pkcs8 -topk8");
            }
        }
        throw new IOException("no private key found");
    }

    /**
     * Throws OpenSSL's {@code key values mismatch} unless {@code key} signs what the certificate's
     * public key verifies (a key of an algorithm not known here is let through).
     */
    static void requireMatch(PrivateKey key, X509Certificate certificate) throws IOException {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null;
        };
        if (algorithm == null) {
            return;
        }
        byte[] probe = "ordo tls key check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // a key of another type than the certificate's: a mismatch too
        }
        throw new IOException("key values mismatch");
    }

    private static PrivateKey pkcs8(byte[] der) throws IOException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
                // not this algorithm: try the next
            }
        }
        throw new IOException("not an RSA, EC or EdDSA private key");
    }

    /** Decrypts an EncryptedPrivateKeyInfo (PBES2, or a PBES1 scheme the JDK knows) into PKCS#8. */
    private static byte[] decrypt(byte[] der, String password) throws IOException {
        try {
            EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
            // For PBES2 the JDK names the real scheme (PBEWithHmacSHA256AndAES_256) in the parameters.
            String algorithm = "PBES2".equals(info.getAlgName()) || "1.2.840.113549.1.5.13".equals(info.getAlgName())
                    ? info.getAlgParameters().toString() : info.getAlgName();
            var key = SecretKeyFactory.getInstance(algorithm).generateSecret(new PBEKeySpec(password.toCharArray()));
            Cipher cipher = Cipher.getInstance(algorithm);
            cipher.init(Cipher.DECRYPT_MODE, key, info.getAlgParameters());
            return info.getKeySpec(cipher).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot decrypt the key (wrong tls-key-file-pass?): " + e.getMessage(), e);
        }
    }

    /** PKCS#1 RSAPrivateKey wrapped as PKCS#8: SEQUENCE { INTEGER 0, rsaEncryption, OCTET STRING key }. */
    private static byte[] wrapRsa(byte[] pkcs1) {
        byte[] version = {0x02, 0x01, 0x00};
        byte[] octets = tlv(0x04, pkcs1);
        byte[] body = new byte[version.length + RSA_ALGORITHM.length + octets.length];
        System.arraycopy(version, 0, body, 0, version.length);
        System.arraycopy(RSA_ALGORITHM, 0, body, version.length, RSA_ALGORITHM.length);
        System.arraycopy(octets, 0, body, version.length + RSA_ALGORITHM.length, octets.length);
        return tlv(0x30, body);
    }

    /** A DER tag, length and value. */
    private static byte[] tlv(int tag, byte[] value) {
        int n = value.length;
        byte[] length;
        if (n < 0x80) {
            length = new byte[] {(byte) n};
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(n) + 7) / 8;
            length = new byte[1 + bytes];
            length[0] = (byte) (0x80 | bytes);
            for (int i = 0; i < bytes; i++) {
                length[bytes - i] = (byte) (n >>> (8 * i));
            }
        }
        byte[] out = new byte[1 + length.length + n];
        out[0] = (byte) tag;
        System.arraycopy(length, 0, out, 1, length.length);
        System.arraycopy(value, 0, out, 1 + length.length, n);
        return out;
    }
}
