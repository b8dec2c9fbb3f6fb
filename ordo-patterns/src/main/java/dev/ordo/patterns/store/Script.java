package dev.ordo.patterns.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A Lua script and its SHA1, as EVALSHA names it. Immutable; share one instance per script. */
public final class Script {
    private final String source;
    private final String sha1;

    public Script(String source) {
        this.source = source;
        try {
            this.sha1 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is a required JDK algorithm", e);
        }
    }

    public String source() {
        return source;
    }

    public String sha1() {
        return sha1;
    }
}
