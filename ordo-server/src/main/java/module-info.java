/**
 * Ordo's network server and its embedded entry point, {@link dev.ordo.server.Ordo}. Exports only
 * that package; the server reaches the engine's hooks through the engine's qualified exports.
 */
module dev.ordo.server {
    requires transitive dev.ordo.engine;
    requires dev.ordo.console;
    requires dev.ordo.patterns.embedded;
    requires info.picocli;
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.tcnative.classes.openssl;
    requires io.netty.transport;
    requires io.netty.transport.classes.io_uring;

    exports dev.ordo.server;

    // picocli sets Main's annotated fields by reflection.
    opens dev.ordo.server to info.picocli;
}
