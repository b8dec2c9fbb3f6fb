package dev.ordo.server.config;

import java.io.Serial;

/** A configuration that cannot be loaded; the message is what redis-server prints before exiting with 1. */
public final class ConfigException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    /** Redis's fatal error for a bad line of the combined config text. */
    static ConfigException atLine(int number, String line, String reason) {
        return new ConfigException("\n*** FATAL CONFIG FILE ERROR (Ordo " + Version.ORDO + ") ***\n"
                + "Reading the configuration file, at line " + number + "\n"
                + ">>> '" + line + "'\n"
                + reason);
    }
}
