/**
 * Ordo's engine: the database behind an embedded {@link dev.ordo.engine.Engine} or the network
 * server.
 *
 * <p>Exported to everyone, the embedder's API: the engine and its clients ({@code dev.ordo.engine}),
 * configuration, error replies, in-process Pub/Sub, time (clock and scheduler) and the emulated
 * Redis version. Exported to {@code dev.ordo.server} only: the packages the network server hooks
 * into, starting with {@code host.HostedEngine} (sessions, the dispatcher, persistence,
 * MONITOR). Everything else (the data structures, RDB and AOF formats, scripting's libraries)
 * is concealed. {@code ModuleSurfaceTest} keeps this list.
 *
 * <p>Dependencies without a module name of their own:
 * <ul>
 *   <li>HdrHistogram 2.2.2 has neither a module descriptor nor an {@code Automatic-Module-Name},
 *       so it is required by the name derived from its file name, {@code HdrHistogram}. Maven
 *       warns against publishing such a module: should HdrHistogram name itself differently
 *       later, module-path consumers would have to upgrade both together. Accepted until it does.</li>
 *   <li>LuaJ 3.0.1 cannot be a module at all, not even an automatic one: its jar holds classes in
 *       the unnamed package ({@code lua}, {@code luac}, {@code luajc}). So this module does not
 *       require it and reads the class path instead: it is compiled with {@code --add-reads
 *       dev.ordo.engine=ALL-UNNAMED}, and an application that puts the engine on the module path
 *       must launch with the same option and luaj-jse on the class path. On the class path (the
 *       usual case, and the runnable server) nothing changes. The way out is a LuaJ that is a
 *       module, or LuaJ relocated into the engine's jar.</li>
 * </ul>
 * The lint warnings these two raise ({@code requires-automatic}), and those for qualified exports
 * to a module the engine's build cannot see ({@code module}), are suppressed here.
 */
@SuppressWarnings({"module", "requires-automatic"})
module dev.ordo.engine {
    requires HdrHistogram;
    requires java.logging;
    requires java.management;
    requires jdk.management;

    exports dev.ordo.engine;
    exports dev.ordo.engine.config;
    exports dev.ordo.engine.error;
    exports dev.ordo.engine.pubsub;
    exports dev.ordo.engine.time;
    exports dev.ordo.engine.version;

    exports dev.ordo.engine.acl to dev.ordo.server;
    exports dev.ordo.engine.command to dev.ordo.server;
    exports dev.ordo.engine.error.text to dev.ordo.server;
    exports dev.ordo.engine.host to dev.ordo.server;
    exports dev.ordo.engine.keyspace to dev.ordo.server;
    exports dev.ordo.engine.memory to dev.ordo.server;
    exports dev.ordo.engine.number to dev.ordo.server;
    exports dev.ordo.engine.persist to dev.ordo.server;
    exports dev.ordo.engine.persist.aof to dev.ordo.server;
    exports dev.ordo.engine.script to dev.ordo.server;
}
