package dev.ordo.server.config;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.config.Directive;

import java.util.List;

/**
 * The server's options described from the config table itself ({@link Config#directives()}), so
 * neither {@code --help} nor the sample {@code ordo.conf} can miss a directive or show a stale
 * default: {@link #usage()} is what {@code ordo-server --help} prints, {@link #sampleFile()} the
 * text of {@code config/ordo.conf}.
 */
public final class ConfigReference {
    private ConfigReference() {
    }

    /** {@code ordo-server --help}: the invocations, then every option with its default and meaning. */
    public static String usage() {
        StringBuilder out = new StringBuilder();
        out.append("Usage: ordo-server [/path/to/ordo.conf] [options] [-]\n")
                .append("       ordo-server - (read config from stdin)\n")
                .append("       ordo-server -v or --version\n")
                .append("       ordo-server -h or --help\n")
                .append("       ordo-server --check-aof [--fix] <file.manifest|file.aof>\n")
                .append('\n')
                .append("Options are the config file's directives, given as --name value. They are applied after the\n")
                .append("file, so they win. Memory sizes take the units 1k (1000), 1kb (1024), 1m, 1mb, 1g and 1gb.\n")
                .append("Each option with its default:\n");
        for (Directive d : directives()) {
            out.append('\n').append("  --").append(d.name()).append(' ').append(shownValue(d));
            if (!d.aliases().isEmpty()) {
                out.append("   (also --").append(String.join(", --", d.aliases())).append(')');
            }
            out.append('\n').append("      ").append(meaning(d)).append('\n');
        }
        out.append('\n')
                .append("Examples:\n")
                .append("       ordo-server (run the server with the default configuration)\n")
                .append("       echo 'maxmemory 128mb' | ordo-server -\n")
                .append("       ordo-server /etc/ordo/ordo.conf\n")
                .append("       ordo-server --port 7777\n")
                .append("       ordo-server /etc/ordo/ordo.conf --save \"\" --requirepass secret\n");
        return out.toString();
    }

    /**
     * The sample configuration file: every directive set to its default, each under a comment
     * saying what it does. Loading it changes nothing from the defaults.
     */
    public static String sampleFile() {
        StringBuilder out = new StringBuilder();
        out.append("# Ordo's configuration: every directive Ordo knows, each set to its default.\n")
                .append("#\n")
                .append("# Start the server with this file:   ordo-server /path/to/ordo.conf\n")
                .append("# Options after the file win:        ordo-server /path/to/ordo.conf --port 6380\n")
                .append("#\n")
                .append("# One directive per line: its name, then its value. Quote a value that holds spaces\n")
                .append("# (\"...\"), except for save, bind and latency-tracking-info-percentiles, which take several\n")
                .append("# words; write an empty value as \"\". Memory sizes take the units 1k (1000 bytes), 1kb\n")
                .append("# (1024), 1m, 1mb, 1g and 1gb, in any case. Lines starting with # are comments. ACL users\n")
                .append("# are defined with lines of the form:  user <name> <rules...>\n")
                .append("#\n")
                .append("# Directives whose comment says \"Accepted, no effect\" are taken for compatibility with\n")
                .append("# redis.conf.\n")
                .append("# This file is generated from the configuration table (ConfigReference.sampleFile), and a\n")
                .append("# test keeps the two equal.\n");
        for (Directive d : directives()) {
            out.append('\n').append("# ").append(meaning(d)).append('\n');
            if (!d.aliases().isEmpty()) {
                out.append("# Also known as ").append(String.join(", ", d.aliases())).append(".\n");
            }
            out.append(d.name()).append(' ').append(shownValue(d)).append('\n');
        }
        return out.toString();
    }

    /** The directives Ordo accepts but does not act on, each as {@code name: why}. */
    public static List<String> ignored() {
        return directives().stream().filter(d -> d.ignoredBecause().isPresent())
                .map(d -> d.name() + ": " + d.ignoredBecause().get()).toList();
    }

    /**
     * The directives of redis-server 7.2 (aliases included) that Ordo refuses at startup with
     * "Bad directive or wrong number of arguments", and CONFIG SET with "Unknown option", sorted.
     */
    public static List<String> refused() {
        Config config = new Config();
        return redisDirectives().stream().filter(name -> !config.has(name) && !name.equals("user")).sorted().toList();
    }

    /** The directives redis-server 7.2 accepts, from the list kept beside this class. */
    static List<String> redisDirectives() {
        try (java.io.InputStream in = ConfigReference.class.getResourceAsStream("redis-7.2-directives.txt")) {
            if (in == null) {
                throw new IllegalStateException("redis-7.2-directives.txt is missing");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<Directive> directives() {
        return new Config().directives();
    }

    /** The description, and for an ignored directive why it has no effect. */
    private static String meaning(Directive d) {
        return d.ignoredBecause().map(why -> d.description() + " Accepted, no effect: " + why + ".").orElse(d.description());
    }

    /**
     * The default as a config line's value: quoted when empty or when several words make one
     * value; {@code dir}, whose default is the working directory, as {@code ./}.
     */
    static String shownValue(Directive d) {
        String v = d.name().equals("dir") ? "./" : d.defaultValue();
        if (v.isEmpty()) {
            return "\"\"";
        }
        if (v.indexOf(' ') >= 0 && !ConfigLoader.MULTI_WORD.contains(d.name())) {
            return "\"" + v + "\"";
        }
        return v;
    }
}
