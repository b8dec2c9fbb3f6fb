package dev.ordo.server.config;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.server.resp.InlineArgs;
import dev.ordo.server.resp.Repr;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Builds a {@link Config} from redis-server's command line: {@code [config-file | -] [--name
 * value ...]}. As redis-server does, the options are turned into config lines ({@code --name}
 * starts a line, the words after it are quoted onto it; a bare {@code --save} means
 * {@code save ""}) and appended after the file's text, so the command line wins; each line is
 * {@code name value...}, split like an inline command, with blank lines and {@code #} comments
 * skipped. Values go through {@link Config#set(String, String, boolean)} with startup rights;
 * {@code user <name> <rules...>} lines are kept for the engine's ACL, which applies them at start.
 * The first bad line stops loading with Redis's fatal config error.
 */
public final class ConfigLoader {
    /** Parameters whose value is several words, joined by single spaces; the others take one. */
    static final Set<String> MULTI_WORD = Set.of("save", "bind", "latency-tracking-info-percentiles");

    private final InputStream stdin;

    /** A loader reading {@code -} (the config from standard input) from {@code stdin}. */
    public ConfigLoader(InputStream stdin) {
        this.stdin = stdin;
    }

    /** The configuration and the path of the file it came from (null for none). */
    public record Loaded(Config config, String configFile) {
    }

    /** Loads a fresh config from redis-server style arguments. */
    public Loaded load(List<String> args) throws ConfigException {
        String file = null;
        String text = "";
        int first = 0;
        if (!args.isEmpty() && !args.get(0).startsWith("--")) {
            file = args.get(0);
            text = read(file);
            first = 1;
        }
        Config config = new Config();
        apply(config, text + "\n" + options(args.subList(first, args.size())));
        return new Loaded(config, file == null || file.equals("-") ? null : Path.of(file).toAbsolutePath().toString());
    }

    private String read(String file) throws ConfigException {
        try {
            byte[] bytes = file.equals("-") ? stdin.readAllBytes() : Files.readAllBytes(Path.of(file));
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException("Fatal error, can't open config file '" + file + "': No such file or directory");
        } catch (IOException e) {
            throw new ConfigException("Fatal error, can't open config file '" + file + "': " + e.getMessage());
        }
    }

    /**
     * The command-line options as config lines: {@code --name} (with its value, if it holds one
     * after a space) opens a line; any other argument is a value, quoted, on the current line.
     * The argument right after a bare {@code --name} is always its value, even if it starts with
     * {@code --}, except after {@code --save}, which then (or as the last argument) means
     * {@code save ""}.
     */
    static String options(List<String> args) {
        StringBuilder out = new StringBuilder();
        boolean valueTaken = true;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (valueTaken && arg.startsWith("--")) {
                if (out.length() > 0) {
                    out.append('\n');
                }
                out.append(arg.substring(2)).append(' ');
                valueTaken = words(arg) > 1;
                if (!valueTaken && arg.equalsIgnoreCase("--save")) {
                    boolean last = i == args.size() - 1;
                    if (last || args.get(i + 1).startsWith("--")) {
                        out.append("\"\"");
                        valueTaken = !last;
                    }
                }
            } else {
                out.append(Repr.quote(arg.getBytes(StandardCharsets.UTF_8))).append(' ');
                valueTaken = true;
            }
        }
        return out.toString();
    }

    private static int words(String arg) {
        byte[] b = arg.getBytes(StandardCharsets.UTF_8);
        List<byte[]> split = InlineArgs.split(b, 0, b.length);
        return split == null ? 1 : split.size();
    }

    /** Applies config text line by line; the first bad line throws. */
    public static void apply(Config config, String text) throws ConfigException {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String reason = applyLine(config, line);
            if (reason != null) {
                throw ConfigException.atLine(i + 1, line, reason);
            }
        }
    }

    /** Applies one line; returns the reason it is wrong, or null. */
    private static String applyLine(Config config, String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        List<byte[]> words = InlineArgs.split(bytes, 0, bytes.length);
        if (words == null) {
            return "Unbalanced quotes in configuration line";
        }
        String name = text(words.get(0)).toLowerCase(Locale.ROOT);
        if (name.equals("user") && words.size() >= 2) {
            config.addUserLine(words.subList(1, words.size()).stream().map(ConfigLoader::text).toList());
            return null;
        }
        if (!config.has(name)) {
            return "Bad directive or wrong number of arguments";
        }
        int values = words.size() - 1;
        if (!MULTI_WORD.contains(name) && values != 1) {
            return "wrong number of arguments";
        }
        StringBuilder value = new StringBuilder();
        for (int i = 1; i < words.size(); i++) {
            value.append(i > 1 ? " " : "").append(text(words.get(i)));
        }
        try {
            config.set(name, value.toString(), true);
            return null;
        } catch (ErrorReply e) {
            return reason(e.getMessage());
        }
    }

    /** The part of a CONFIG SET error that says what is wrong with the value. */
    private static String reason(String error) {
        int dash = error.indexOf(") - ");
        if (dash >= 0) {
            return error.substring(dash + 4);
        }
        return error.startsWith("ERR ") ? error.substring(4) : error;
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
