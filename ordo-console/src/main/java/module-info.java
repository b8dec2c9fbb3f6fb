/**
 * The Ordo Console: a JSON API and a web UI over the patterns' store port, served standalone
 * ({@code ConsoleMain}, with Lettuce), by the Ordo server, or as a servlet in an application.
 * Lettuce, picocli and the servlet API are needed only by the part that uses them, hence
 * {@code requires static}; picocli names itself by {@code Automatic-Module-Name} only.
 */
@SuppressWarnings("requires-automatic")
module dev.ordo.console {
    requires transitive dev.ordo.patterns;
    requires static dev.ordo.patterns.lettuce;
    requires static info.picocli;
    requires static jakarta.servlet;
    requires tools.jackson.databind;
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.codec.http;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport;

    exports dev.ordo.console;

    // Jackson writes the API's records; picocli sets ConsoleMain's options.
    opens dev.ordo.console to tools.jackson.databind, info.picocli;
}
