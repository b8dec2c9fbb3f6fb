package dev.ordo.patterns.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script and its SHA1, as EVALSHA names it; optionally also its Java twin. Immutable;
 * share one instance per script.
 *
 * <p>The twin ({@link Local}) is the same operation written in Java: the same keys and
 * arguments, the same commands, the same reply. A store in the same process as its engine
 * ({@code EmbeddedStore}) runs the twin, atomically, instead of interpreting the Lua; every other
 * store sends the Lua. Give a script a twin only where interpreting it costs much more than the
 * commands it runs, on a hot path: each twin is a second implementation, and needs a test that
 * runs both on random data and compares their replies.
 */
public final class Script {
    private final String source;
    private final String sha1;
    private final Local local;

    /** The Java twin of a script. */
    @FunctionalInterface
    public interface Local {
        /**
         * Does what the script does with {@code keys} (KEYS) and {@code args} (ARGV), running its
         * commands through {@code redis}; returns the script's reply as a {@link Store} gives it.
         * Where the script returns {@code redis.error_reply(text)}, the twin throws a {@link
         * StoreException} with that text, as the store does for the script.
         *
         * @param redis the calls the script's commands go through, as redis.call
         * @param keys the script's KEYS
         * @param args the script's ARGV
         * @return the script's reply
         */
        Reply run(Calls redis, List<String> keys, List<String> args);
    }

    /** What a {@link Local} runs its commands through: redis.call, for Java. */
    @FunctionalInterface
    public interface Calls {
        /**
         * Runs a command; returns its reply as a {@link Store} gives it, or throws {@link StoreException}.
         *
         * @param args the command's name followed by its arguments
         * @return the command's reply
         */
        Reply call(String... args);
    }

    /**
     * A script with no twin: every store runs the Lua.
     *
     * @param source the Lua source, sent as it is
     */
    public Script(String source) {
        this(source, null);
    }

    /**
     * A script whose twin {@code local} runs instead of the Lua on a store in the engine's process.
     *
     * @param source the Lua source, sent as it is
     * @param local the Java twin doing what the Lua does, or null for none
     */
    public Script(String source, Local local) {
        this.source = source;
        this.local = local;
        try {
            this.sha1 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is a required JDK algorithm", e);
        }
    }

    /**
     * The script in the resource {@code name} beside {@code owner} (same package), read once now.
     * When {@code name} is {@code <group>_<rest>.lua} and a resource {@code <group>_prelude.lua}
     * is there too, the script is that prelude followed by the file: the helpers a family of
     * scripts shares live once. Throws {@link IllegalStateException} naming the resource when it
     * is missing.
     *
     * @param owner the class whose package holds the resource
     * @param name the resource's file name, e.g. {@code board_add.lua}
     * @return the script, with no twin
     */
    public static Script fromResource(Class<?> owner, String name) {
        return fromResource(owner, name, null);
    }

    /**
     * {@link #fromResource(Class, String)}, with the Java twin {@code local}.
     *
     * @param owner the class whose package holds the resource
     * @param name the resource's file name, e.g. {@code board_add.lua}
     * @param local the Java twin doing what the Lua does, or null for none
     * @return the script
     */
    public static Script fromResource(Class<?> owner, String name, Local local) {
        String body = resource(owner, name);
        if (body == null) {
            throw new IllegalStateException("missing Lua script resource " + path(owner, name));
        }
        int cut = name.indexOf('_');
        String prelude = cut > 0 && !name.endsWith("_prelude.lua") ? resource(owner, name.substring(0, cut) + "_prelude.lua") : null;
        return new Script(prelude == null ? body : prelude + body, local);
    }

    /** The resource's text (UTF-8), or null when it is missing. */
    private static String resource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Lua script resource " + path(owner, name), e);
        }
    }

    private static String path(Class<?> owner, String name) {
        return owner.getPackageName().replace('.', '/') + "/" + name;
    }

    /**
     * The Lua source, as EVAL sends it.
     *
     * @return the source
     */
    public String source() {
        return source;
    }

    /**
     * The SHA1 of {@link #source()} in lowercase hex, as EVALSHA names the script.
     *
     * @return the SHA1, 40 hex digits
     */
    public String sha1() {
        return sha1;
    }

    /**
     * The Java twin, or null.
     *
     * @return the twin an in-process store runs instead of the Lua, or null
     */
    public Local local() {
        return local;
    }
}
