package dev.ordo.server.config;

/** The version the server reports about itself. */
public final class Version {
    /** Ordo's version, from the jar's manifest when packaged, else the development version. */
    public static final String ORDO = version();

    private Version() {
    }

    private static String version() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0-SNAPSHOT";
    }
}
