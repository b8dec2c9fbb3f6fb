package dev.ordo.engine.command;

import dev.ordo.engine.TestClients;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.keyspace.StringValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * COMMAND, CONFIG, INFO, TIME, SHUTDOWN, SLOWLOG and DEBUG. Expected RESP texts and error
 * messages were taken from redis-server; where Ordo reports something Redis does not have
 * (tips, exact memory figures) the test checks the shape instead.
 */
class ServerCommandsTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();

    @AfterEach
    void close() {
        support.close();
    }

    private String resp(String... args) {
        return RespText.call(support.engine, client, args);
    }

    private static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : (String) reply;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object reply) {
        return (List<Object>) reply;
    }

    private static List<String> strings(Object reply) {
        List<String> out = new ArrayList<>();
        for (Object o : list(reply)) {
            out.add(text(o));
        }
        return out;
    }

    private void inDb0(Consumer<Database> action) {
        support.engine.withLock(() -> action.accept(HostedEngine.of(support.engine).keyspace().db(0)));
    }

    private static final String CONFIG_GET_INFO = "*10\r\n$10\r\nconfig|get\r\n:-3\r\n*4\r\n+admin\r\n+noscript\r\n+loading\r\n"
            + "+stale\r\n:0\r\n:0\r\n:0\r\n*3\r\n+@admin\r\n+@slow\r\n+@dangerous\r\n*0\r\n*0\r\n*0\r\n";

    /** COMMAND GETKEYS knows where every command with movable keys keeps its key count (redis-server compares the rest). */
    @Test
    void getKeys_knowsEveryMovableKeyCommand_andTheirKeysOver() {
        assertThat(CommandKeys.knowsEveryMovableCommand(HostedEngine.of(support.engine).commands())).isTrue();
        assertThat(strings(client.call("COMMAND", "GETKEYS", "ZDIFFSTORE", "d", "2", "a", "b"))).containsExactly("d", "a", "b");
        assertThat(strings(client.call("COMMAND", "GETKEYS", "SINTERCARD", "1", "s", "LIMIT", "5"))).containsExactly("s");
        assertThat(strings(client.call("COMMAND", "GETKEYS", "FCALL_RO", "f", "2", "a", "b", "x"))).containsExactly("a", "b");
    }

    /** enable-protected-configs and enable-debug-command: no (the default), local, yes; and dir's and dbfilename's checks. */
    @Test
    void protectedActions_followTheirSetting_andPathsAreChecked(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createFile(dir.resolve("plain"));
        dev.ordo.engine.config.Config local = new dev.ordo.engine.config.Config();
        local.set("enable-protected-configs", "local", true);
        local.set("enable-debug-command", "local", true);
        try (EngineTestSupport ordo = new EngineTestSupport(local)) {
            EmbeddedClient here = ordo.client();
            String prefix = "ERR CONFIG SET failed (possibly related to argument ";
            assertThatThrownBy(() -> here.call("CONFIG", "SET", "dir", dir.resolve("missing").toString()))
                    .hasMessage(prefix + "'dir') - No such file or directory");
            assertThatThrownBy(() -> here.call("CONFIG", "SET", "dir", file.toString())).hasMessage(prefix + "'dir') - Not a directory");
            assertThatThrownBy(() -> here.call("CONFIG", "SET", "dbfilename", "a/b.rdb"))
                    .hasMessage(prefix + "'dbfilename') - dbfilename can't be a path, just a filename");
            assertThatThrownBy(() -> here.call("CONFIG", "SET", "dir", "")).hasMessage(prefix + "'dir') - No such file or directory");
            assertThatThrownBy(() -> here.call("CONFIG", "SET", "dbfilename", "a\0b")).hasMessageEndingWith("just a filename");
            java.nio.file.Path gone = java.nio.file.Files.createDirectory(dir.resolve("gone"));
            assertThat(here.call("CONFIG", "SET", "dir", gone.toString())).isEqualTo("OK");
            java.nio.file.Files.delete(gone);
            assertThat(here.call("CONFIG", "SET", "dir", "target")).as("a relative dir, once the current one is gone").isEqualTo("OK");
            assertThat(strings(here.call("CONFIG", "GET", "dir")).get(1)).as("kept absolute, as Redis shows getcwd()")
                    .isEqualTo(java.nio.file.Path.of("target").toAbsolutePath().toString());
            assertThat(here.call("CONFIG", "SET", "dir", dir.toString(), "dbfilename", "b.rdb")).isEqualTo("OK");
            assertThat(here.call("DEBUG", "SLEEP", "0")).isEqualTo("OK");

            EmbeddedClient remote = ordo.client();
            TestClients.session(remote).setAddresses("10.0.0.9:4242", "10.0.0.1:6379");
            assertThatThrownBy(() -> remote.call("CONFIG", "SET", "dbfilename", "c.rdb"))
                    .hasMessage(prefix + "'dbfilename') - can't set protected config");
            assertThatThrownBy(() -> remote.call("DEBUG", "SLEEP", "0")).hasMessageStartingWith("ERR DEBUG command not allowed.");
            TestClients.session(remote).setAddresses("127.0.0.1:4242", "127.0.0.1:6379");
            assertThat(remote.call("DEBUG", "SLEEP", "0")).isEqualTo("OK");
            assertThat(strings(here.call("CONFIG", "GET", "dbfilename"))).containsExactly("dbfilename", "b.rdb");
        }
        try (EngineTestSupport defaults = new EngineTestSupport(new dev.ordo.engine.config.Config())) {
            assertThatThrownBy(() -> defaults.client().call("DEBUG", "SLEEP", "0")).hasMessageStartingWith("ERR DEBUG command not allowed.");
        }
    }

    @Test
    void command_noArguments_describesEachTopLevelCommandOnce() {
        long count = (Long) client.call("COMMAND", "COUNT");
        List<Object> all = list(client.call("COMMAND"));
        assertThat(all).hasSize((int) count);
        assertThat(all).extracting(c -> text(list(c).get(0))).contains("ping", "config", "client", "command")
                .doesNotContain("config|get").doesNotHaveDuplicates();
        assertThat(list(client.call("COMMAND", "INFO"))).hasSize((int) count);
        assertThatThrownBy(() -> client.call("COMMAND", "COUNT", "x"))
                .hasMessage("ERR wrong number of arguments for 'command|count' command");
        assertThatThrownBy(() -> client.call("COMMAND", "foo")).hasMessage("ERR unknown subcommand 'foo'. Try COMMAND HELP.");
    }

    @Test
    void commandInfo_subcommand_matchesRedisByteForByte() {
        assertThat(resp("COMMAND", "INFO", "config|get")).isEqualTo("*1\r\n" + CONFIG_GET_INFO);
        assertThat(resp("COMMAND", "INFO", "client|list")).isEqualTo("*1\r\n*10\r\n$11\r\nclient|list\r\n:-2\r\n*4\r\n"
                + "+admin\r\n+noscript\r\n+loading\r\n+stale\r\n:0\r\n:0\r\n:0\r\n*4\r\n+@admin\r\n+@slow\r\n+@dangerous\r\n"
                + "+@connection\r\n*0\r\n*0\r\n*0\r\n");
    }

    @Test
    void commandInfo_unknownOrMixedCaseNames_giveNullOrTheCommand() {
        assertThat(resp("COMMAND", "INFO", "nosuch", "CONFIG|GET", "get|x", "config|get|x"))
                .isEqualTo("*4\r\n$-1\r\n" + CONFIG_GET_INFO + "$-1\r\n$-1\r\n");
        client.call("HELLO", "3");
        assertThat(resp("COMMAND", "INFO", "nosuch")).isEqualTo("*1\r\n_\r\n");
    }

    @Test
    void commandInfo_connectionCommands_carryRedisFlagsAndCategories() {
        List<Object> info = list(client.call("COMMAND", "INFO", "hello", "time", "command"));
        assertThat(list(info.get(0))).containsExactly("hello".getBytes(StandardCharsets.UTF_8), -1L,
                List.of("noscript", "loading", "stale", "fast", "no_auth", "allow_busy"), 0L, 0L, 0L,
                List.of("@fast", "@connection"), List.of(), List.of(), List.of());
        assertThat(list(list(info.get(1)).get(6))).containsExactly("@fast");
        assertThat(list(list(info.get(2)).get(6))).containsExactly("@slow", "@connection");
        assertThat(list(list(info.get(2)).get(9))).hasSize(6);
    }

    @Test
    void commandInfo_container_hasNoFlagsAndListsItsSubcommands() {
        String config = resp("COMMAND", "INFO", "config");
        assertThat(config).startsWith("*1\r\n*10\r\n$6\r\nconfig\r\n:-2\r\n*0\r\n:0\r\n:0\r\n:0\r\n*1\r\n+@slow\r\n*0\r\n*0\r\n*4\r\n")
                .contains(CONFIG_GET_INFO);
    }

    @Test
    void commandInfo_keyedCommand_describesItsKeySpecAsRedisDoes() {
        Command zadd = new CommandTable().register(Command.of("zadd", c -> { })).lookup("zadd");
        RespText resp2 = new RespText(() -> 2);
        CommandIntrospection.writeInfo(resp2, zadd);
        assertThat(resp2.text()).isEqualTo("*10\r\n$4\r\nzadd\r\n:-4\r\n*3\r\n+write\r\n+denyoom\r\n+fast\r\n:1\r\n:1\r\n"
                + ":1\r\n*3\r\n+@write\r\n+@sortedset\r\n+@fast\r\n*0\r\n*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RW\r\n+update\r\n"
                + "$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n"
                + "$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n*6\r\n$7\r\nlastkey\r\n:0\r\n"
                + "$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n*0\r\n");
        RespText resp3 = new RespText(() -> 3);
        CommandIntrospection.writeInfo(resp3, zadd);
        assertThat(resp3.text()).isEqualTo("*10\r\n$4\r\nzadd\r\n:-4\r\n~3\r\n+write\r\n+denyoom\r\n+fast\r\n:1\r\n:1\r\n"
                + ":1\r\n~3\r\n+@write\r\n+@sortedset\r\n+@fast\r\n~0\r\n~1\r\n%3\r\n$5\r\nflags\r\n~2\r\n+RW\r\n+update\r\n"
                + "$12\r\nbegin_search\r\n%2\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n%1\r\n$5\r\nindex\r\n:1\r\n"
                + "$9\r\nfind_keys\r\n%2\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n%3\r\n$7\r\nlastkey\r\n:0\r\n"
                + "$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n~0\r\n");
    }

    @Test
    void commandInfo_openEndedKeyRange_keepsNegativeLastKey() {
        RespText out = new RespText(() -> 2);
        CommandIntrospection.writeInfo(out, Command.custom("mset", -3, "write denyoom", 1, -1, 2, "string", c -> { }));
        assertThat(out.text()).contains("\r\n:1\r\n:-1\r\n:2\r\n*3\r\n+@write\r\n+@string\r\n+@slow\r\n")
                .contains("$7\r\nlastkey\r\n:-1\r\n$7\r\nkeystep\r\n:2\r\n");
    }

    @Test
    void categories_flagsGroupAndName_matchRedisCategories() {
        assertThat(CommandIntrospection.derivedCategories(Command.custom("keys", 2, "readonly", 0, 0, 0, "generic", c -> { })))
                .containsExactly("keyspace", "read", "slow", "dangerous");
        assertThat(CommandIntrospection.derivedCategories(Command.custom("sort", -2, "write denyoom movable_keys", 1, 1, 1, "generic",
                c -> { }))).containsExactly("write", "set", "sortedset", "list", "slow", "dangerous");
        assertThat(CommandIntrospection.derivedCategories(Command.custom("bzpopmin", -3, "write noscript blocking fast", 1, -2, 1,
                "zset", c -> { }))).containsExactly("write", "sortedset", "fast", "blocking");
    }

    @Test
    void commandDocs_knownAndUnknownNames_giveBulkStringDocsOrNothing() {
        client.call("HELLO", "3");
        String docs = resp("COMMAND", "DOCS", "config|resetstat");
        assertThat(docs).isEqualTo("%1\r\n$16\r\nconfig|resetstat\r\n%3\r\n$7\r\nsummary\r\n$33\r\n"
                + "Reset the statistics INFO reports\r\n$5\r\nsince\r\n$5\r\n2.0.0\r\n$5\r\ngroup\r\n$6\r\nserver\r\n");
        assertThat(resp("COMMAND", "DOCS", "nosuch")).isEqualTo("%0\r\n");
    }

    @Test
    void commandDocs_container_nestsSubcommandDocsUnderPipeNames() {
        List<Object> docs = list(client.call("COMMAND", "DOCS", "client"));
        assertThat(text(docs.get(0))).isEqualTo("client");
        List<Object> fields = list(docs.get(1));
        assertThat(fields).extracting(ServerCommandsTest::textOrNull).startsWith("summary", "Commands about client connections",
                "since", "2.4.0", "group", "connection", "subcommands");
        List<Object> subs = list(fields.get(7));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < subs.size(); i += 2) {
            names.add(text(subs.get(i)));
        }
        assertThat(names).containsExactlyInAnyOrder("client|id", "client|setname", "client|getname", "client|list",
                "client|info", "client|kill", "client|unblock", "client|reply", "client|help",
                "client|no-evict", "client|no-touch", "client|setinfo", "client|tracking", "client|caching", "client|trackinginfo",
                "client|getredir");
    }

    private static String textOrNull(Object o) {
        return o instanceof List ? null : text(o);
    }

    @Test
    void commandDocs_withoutNames_documentsEveryCommand() {
        long count = (Long) client.call("COMMAND", "COUNT");
        assertThat(list(client.call("COMMAND", "DOCS"))).hasSize(2 * (int) count);
    }

    @Test
    void commandList_withAndWithoutFilters_namesCommandsAndSubcommands() {
        assertThat(strings(client.call("COMMAND", "LIST"))).contains("config", "config|get", "client|kill", "ping");
        assertThat(strings(client.call("COMMAND", "LIST", "FILTERBY", "PATTERN", "CONFIG|G*"))).containsExactly("config|get");
        assertThat(strings(client.call("COMMAND", "LIST", "filterby", "aclcat", "CONNECTION")))
                .contains("client|kill", "ping", "hello").doesNotContain("config|get", "client");
        assertThat(list(client.call("COMMAND", "LIST", "FILTERBY", "MODULE", "x"))).isEmpty();
        assertThat(list(client.call("COMMAND", "LIST", "FILTERBY", "ACLCAT", "nosuch"))).isEmpty();
        for (String[] bad : List.of(new String[] {"COMMAND", "LIST", "foo"}, new String[] {"COMMAND", "LIST", "FILTERBY"},
                new String[] {"COMMAND", "LIST", "FILTERBY", "foo", "x"},
                new String[] {"COMMAND", "LIST", "FILTERBY", "PATTERN", "x", "y"})) {
            assertThatThrownBy(() -> client.call(bad)).hasMessage("ERR syntax error");
        }
    }

    @Test
    void configGet_severalPatterns_returnsOneMapOfMatches() {
        assertThat(strings(client.call("CONFIG", "GET", "maxmemory", "hz", "hz", "nosuch")))
                .containsExactly("maxmemory", "0", "hz", "10");
        assertThat(strings(client.call("CONFIG", "GET", "HZ"))).containsExactly("HZ", "10");
        assertThat(strings(client.call("CONFIG", "GET", "H?"))).containsExactly("hz", "10");
        assertThat(strings(client.call("CONFIG", "GET", "zset-max-*"))).containsExactlyInAnyOrder(
                "zset-max-listpack-entries", "128", "zset-max-ziplist-entries", "128",
                "zset-max-listpack-value", "64", "zset-max-ziplist-value", "64");
        assertThat(list(client.call("CONFIG", "GET", "nosuch"))).isEmpty();
        assertThatThrownBy(() -> client.call("CONFIG", "GET"))
                .hasMessage("ERR wrong number of arguments for 'config|get' command");
    }

    @Test
    void configSet_severalPairs_takeEffectTogether() {
        assertThat(client.call("CONFIG", "SET", "hz", "20", "maxmemory", "1kb")).isEqualTo("OK");
        assertThat(strings(client.call("CONFIG", "GET", "hz", "maxmemory"))).containsExactly("hz", "20", "maxmemory", "1024");
    }

    @Test
    void configSet_listpackLimitAlias_changesWhenSortedSetsConvert() {
        assertThat(client.call("CONFIG", "SET", "zset-max-ziplist-entries", "2")).isEqualTo("OK");
        assertThat(strings(client.call("CONFIG", "GET", "zset-max-listpack-entries")))
                .containsExactly("zset-max-listpack-entries", "2");
        assertThat(support.engine.config().zsetListpackLimits().maxEntries()).isEqualTo(2);

        client.call("ZADD", "z", "1", "a", "2", "b");
        assertThat(text(client.call("DEBUG", "OBJECT", "z"))).contains(" encoding:listpack ");
        client.call("ZADD", "z", "3", "c");
        assertThat(text(client.call("DEBUG", "OBJECT", "z"))).contains(" encoding:skiplist ");

        client.call("CONFIG", "SET", "zset-max-listpack-entries", "128");
        client.call("ZADD", "y", "1", "a", "2", "b", "3", "c");
        assertThat(text(client.call("DEBUG", "OBJECT", "y"))).contains(" encoding:listpack ");
    }

    @Test
    void configSet_invalidValue_leavesEveryParameterUnchanged() {
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "hz", "20", "maxmemory", "foo"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value");
        assertThat(support.engine.config().get("hz")).isEqualTo("10");
        assertThat(support.engine.config().get("maxmemory")).isEqualTo("0");
    }

    @Test
    void configSet_badNames_reportUnknownFirstThenImmutableOrRepeated() {
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "hz", "abc", "databases", "2", "nosuch", "1"))
                .hasMessage("ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'");
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "maxmemory", "x", "databases", "3"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'databases') - can't set immutable config");
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "hz", "20", "HZ", "30"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'HZ') - duplicate parameter");
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "hz", "20", "maxmemory")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "hz"))
                .hasMessage("ERR wrong number of arguments for 'config|set' command");
        assertThat(support.engine.config().get("hz")).isEqualTo("10");
    }

    @Test
    void configResetStat_afterActivity_clearsCommandStatsAndKeyspaceCounters() {
        client.call("PING");
        setKeyspaceStats(3, 7, 2);
        assertThat(text(client.call("INFO", "commandstats"))).contains("cmdstat_ping:");

        assertThat(client.call("CONFIG", "RESETSTAT")).isEqualTo("OK");

        String info = text(client.call("INFO", "stats", "commandstats"));
        assertThat(info).doesNotContain("cmdstat_ping:").contains("\r\nexpired_keys:0\r\n")
                .contains("\r\nkeyspace_hits:0\r\n").contains("\r\nkeyspace_misses:0\r\n");
        assertThatThrownBy(() -> client.call("CONFIG", "RESETSTAT", "x"))
                .hasMessage("ERR wrong number of arguments for 'config|resetstat' command");
    }

    private void setKeyspaceStats(long expired, long hits, long misses) {
        support.engine.withLock(() -> {
            Keyspace.Stats s = HostedEngine.of(support.engine).keyspace().stats();
            s.expiredKeys = expired;
            s.keyspaceHits = hits;
            s.keyspaceMisses = misses;
        });
    }

    private static List<String> headers(String info) {
        return info.lines().filter(l -> l.startsWith("# ")).toList();
    }

    @Test
    void info_withoutArguments_printsTheDefaultSectionsInRedisOrder() {
        List<String> expected = List.of("# Server", "# Clients", "# Memory", "# Persistence", "# Stats", "# Replication",
                "# CPU", "# Modules", "# Errorstats", "# Cluster", "# Keyspace");
        assertThat(headers(text(client.call("INFO")))).isEqualTo(expected);
        assertThat(headers(text(client.call("INFO", "default")))).isEqualTo(expected);
    }

    @Test
    void info_allAndEverything_addCommandAndLatencyStats() {
        List<String> all = List.of("# Server", "# Clients", "# Memory", "# Persistence", "# Stats", "# Replication",
                "# CPU", "# Modules", "# Commandstats", "# Errorstats", "# Latencystats", "# Cluster", "# Keyspace");
        assertThat(headers(text(client.call("INFO", "all")))).isEqualTo(all);
        assertThat(headers(text(client.call("INFO", "EVERYTHING")))).isEqualTo(all);
        assertThat(headers(text(client.call("INFO", "default", "commandstats"))))
                .contains("# Commandstats").doesNotContain("# Latencystats");
    }

    @Test
    void info_severalSections_areCrlfLinesSeparatedByBlankLinesInRedisOrder() {
        String info = text(client.call("INFO", "keyspace", "CLUSTER", "modules", "nosuch"));
        assertThat(info).isEqualTo("# Modules\r\n\r\n# Cluster\r\ncluster_enabled:0\r\n\r\n# Keyspace\r\n");
        assertThat(text(client.call("INFO", "nosuch"))).isEmpty();
    }

    @Test
    void info_keyspaceAfterWrites_listsNonEmptyDatabasesWithTheirExpires() {
        client.call("ZADD", "z1", "1", "a");
        client.call("ZADD", "z2", "1", "a");
        client.call("SELECT", "3");
        client.call("ZADD", "z3", "1", "a");
        inDb0(db -> db.setExpireAt(Key.of("z2"), support.time.get() + 100_000));

        assertThat(text(client.call("INFO", "keyspace")))
                .isEqualTo("# Keyspace\r\ndb0:keys=2,expires=1,avg_ttl=0\r\ndb3:keys=1,expires=0,avg_ttl=0\r\n");
    }

    @Test
    void info_server_reportsVersionModeAndTheTransportsFields() {
        String server = text(client.call("INFO", "server"));
        assertThat(server).startsWith("# Server\r\nredis_version:7.2.4\r\n")
                .contains("\r\nredis_mode:standalone\r\n")
                .contains("\r\nprocess_id:" + ProcessHandle.current().pid() + "\r\n")
                .contains("\r\ntcp_port:0\r\n")
                .contains("\r\nhz:10\r\nconfigured_hz:10\r\n")
                .contains("\r\nserver_time_usec:" + support.time.get() * 1000 + "\r\n")
                .containsPattern("\r\narch_bits:(32|64)\r\n")
                .containsPattern("\r\nrun_id:[0-9a-f]{40}\r\n")
                .containsPattern("\r\nuptime_in_seconds:\\d+\r\nuptime_in_days:\\d+\r\n")
                .endsWith("\r\n");
    }

    @Test
    void info_stats_countsFinishedCommandsAndKeyspaceCounters() {
        client.call("PING");
        client.call("PING");
        setKeyspaceStats(3, 7, 2);
        String stats = text(client.call("INFO", "stats"));
        assertThat(stats).contains("\r\ntotal_commands_processed:2\r\n").contains("\r\nexpired_keys:3\r\n")
                .contains("\r\nkeyspace_hits:7\r\n").contains("\r\nkeyspace_misses:2\r\n");
    }

    @Test
    void info_commandstats_countsCallsRejectionsAndFailuresPerCommand() {
        client.call("PING");
        client.call("PING");
        assertThatThrownBy(() -> client.call("CONFIG", "GET")).hasMessageStartingWith("ERR wrong number of arguments");
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "hz", "abc")).hasMessageStartingWith("ERR CONFIG SET failed");

        String stats = text(client.call("INFO", "commandstats"));
        assertThat(stats).startsWith("# Commandstats\r\n")
                .containsPattern("\r\ncmdstat_ping:calls=2,usec=\\d+,usec_per_call=\\d+\\.\\d\\d,rejected_calls=0,failed_calls=0\r\n")
                .contains("\r\ncmdstat_config|get:calls=0,usec=0,usec_per_call=0.00,rejected_calls=1,failed_calls=0\r\n")
                .containsPattern("\r\ncmdstat_config\\|set:calls=1,usec=\\d+,usec_per_call=\\d+\\.\\d\\d,rejected_calls=0,failed_calls=1\r\n");
        assertThat(text(client.call("INFO", "stats"))).contains("\r\ntotal_error_replies:2\r\n");
    }

    @Test
    void info_clientsAndMemory_reportLiveFigures() {
        support.client();
        String info = text(client.call("INFO", "clients", "memory"));
        assertThat(info).contains("\r\nconnected_clients:2\r\n").contains("\r\nmaxclients:10000\r\n")
                .contains("\r\nblocked_clients:0\r\n").containsPattern("\r\nused_memory:[1-9]\\d*\r\n")
                .containsPattern("\r\nused_memory_human:\\d+(\\.\\d\\d[KMGTP]|B)\r\n")
                .contains("\r\nmaxmemory:0\r\nmaxmemory_human:0B\r\nmaxmemory_policy:noeviction\r\n")
                .contains("\r\nmem_allocator:jvm\r\n");
    }

    @Test
    void info_clients_countsBlockedAndWatchingClientsTheirKeysAndTimeouts() throws Exception {
        EmbeddedClient forever = support.client();
        EmbeddedClient withTimeout = support.client();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool();
        try {
            threads.submit(() -> forever.call("BZPOPMIN", "a", "b", "0"));
            threads.submit(() -> withTimeout.call("BZPOPMAX", "b", "c", "60"));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (support.engine.blockedClients() != 2 && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            support.client().call("WATCH", "x", "y");
            client.call("WATCH", "y");

            String info = text(client.call("INFO", "clients"));

            assertThat(info).contains("\r\nblocked_clients:2\r\n").contains("\r\nwatching_clients:2\r\n")
                    .contains("\r\nclients_in_timeout_table:1\r\n").contains("\r\ntotal_watched_keys:2\r\n")
                    .contains("\r\ntotal_blocking_keys:3\r\ntotal_blocking_keys_on_nokey:0\r\n");
        } finally {
            forever.close();
            withTimeout.close();
            threads.shutdownNow();
        }
    }

    @Test
    void info_memory_countsCachedScriptsFunctionsAndLibraries() {
        client.call("SCRIPT", "LOAD", "return 1");
        client.call("EVAL", "return 2", "0");
        client.call("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f1', function() return 1 end)\n"
                + "redis.register_function('f2', function() return 2 end)");

        String memory = text(client.call("INFO", "memory"));

        assertThat(memory).contains("\r\nnumber_of_cached_scripts:2\r\nnumber_of_functions:2\r\nnumber_of_libraries:1\r\n");
    }

    @Test
    void info_stats_embeddedEngine_countsNoNetworkTraffic() {
        client.call("SET", "k", "x".repeat(1000));
        String stats = text(client.call("INFO", "stats"));
        assertThat(stats).contains("\r\ntotal_connections_received:0\r\n").contains("\r\ntotal_net_input_bytes:0\r\n")
                .contains("\r\ntotal_net_output_bytes:0\r\n").contains("\r\ninstantaneous_input_kbps:0.00\r\n")
                .contains("\r\nrejected_connections:0\r\n").contains("\r\ntotal_reads_processed:0\r\n");
    }

    @Test
    void human_byteCounts_formatLikeRedis() {
        assertThat(InfoReport.human(0)).isEqualTo("0B");
        assertThat(InfoReport.human(1023)).isEqualTo("1023B");
        assertThat(InfoReport.human(1024)).isEqualTo("1.00K");
        assertThat(InfoReport.human(1039872)).isEqualTo("1015.50K");
        assertThat(InfoReport.human(7200768)).isEqualTo("6.87M");
        assertThat(InfoReport.human(25276502016L)).isEqualTo("23.54G");
    }

    @Test
    void time_manualClock_repliesSecondsAndMicrosecondsAsBulkStrings() {
        support.time.set(1_700_000_000_123L);
        assertThat(resp("TIME")).isEqualTo("*2\r\n$10\r\n1700000000\r\n$6\r\n123000\r\n");
        assertThatThrownBy(() -> client.call("TIME", "x")).hasMessage("ERR wrong number of arguments for 'time' command");
    }

    @Test
    void shutdown_options_areValidatedBeforeAskingTheServer() {
        for (String[] bad : List.of(new String[] {"SHUTDOWN", "foo"}, new String[] {"SHUTDOWN", "SAVE", "NOSAVE"},
                new String[] {"SHUTDOWN", "ABORT", "NOW"}, new String[] {"SHUTDOWN", "nosave", "nosave", "foo"})) {
            assertThatThrownBy(() -> client.call(bad)).hasMessage("ERR syntax error");
        }
        assertThatThrownBy(() -> client.call("SHUTDOWN", "ABORT")).hasMessage("ERR No shutdown in progress.");
        assertThatThrownBy(() -> client.call("SHUTDOWN", "NOSAVE", "NOW", "FORCE"))
                .hasMessage("ERR SHUTDOWN is not available in an embedded engine; close it instead");
        assertThat(TestClients.session(client).closing()).isFalse();
    }

    @Test
    void slowlog_withZeroThreshold_logsEveryCallNewestFirst() {
        support.time.set(1_700_000_042_500L);
        client.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.call("CLIENT", "SETNAME", "myname");
        client.call("ECHO", "hi");

        List<Object> entries = list(client.call("SLOWLOG", "GET"));
        assertThat(entries).hasSize(3);
        List<Object> newest = list(entries.get(0));
        assertThat(newest).hasSize(6);
        long id = (Long) newest.get(0);
        assertThat(newest.get(1)).isEqualTo(1_700_000_042L);
        assertThat((Long) newest.get(2)).isNotNegative();
        assertThat(strings(newest.get(3))).containsExactly("ECHO", "hi");
        assertThat(text(newest.get(4))).isEmpty();
        assertThat(text(newest.get(5))).isEqualTo("myname");
        assertThat(list(entries.get(1)).get(0)).isEqualTo(id - 1);
        assertThat(strings(list(entries.get(1)).get(3))).containsExactly("CLIENT", "SETNAME", "myname");
        assertThat(strings(list(entries.get(2)).get(3))).containsExactly("CONFIG", "SET", "slowlog-log-slower-than", "0");
        assertThat(text(list(entries.get(2)).get(5))).isEmpty();
        assertThat(client.call("SLOWLOG", "LEN")).isEqualTo(4L);
    }

    @Test
    void slowlogGet_count_selectsNewestEntries() {
        client.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.call("PING");
        assertThat(list(client.call("SLOWLOG", "GET", "1"))).hasSize(1);
        assertThat(list(client.call("SLOWLOG", "GET", "0"))).isEmpty();
        assertThat(list(client.call("SLOWLOG", "GET", "-1"))).hasSize(4);
        assertThatThrownBy(() -> client.call("SLOWLOG", "GET", "-2"))
                .hasMessage("ERR count should be greater than or equal to -1");
        assertThatThrownBy(() -> client.call("SLOWLOG", "GET", "x"))
                .hasMessage("ERR count should be greater than or equal to -1");
        assertThatThrownBy(() -> client.call("SLOWLOG", "GET", "1", "2"))
                .hasMessage("ERR unknown subcommand or wrong number of arguments for 'GET'. Try SLOWLOG HELP.");
        assertThatThrownBy(() -> client.call("SLOWLOG", "LEN", "x"))
                .hasMessage("ERR wrong number of arguments for 'slowlog|len' command");
    }

    @Test
    void slowlogReset_withZeroThreshold_emptiesTheLogButLogsItself() {
        client.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.call("PING");
        assertThat(client.call("SLOWLOG", "RESET")).isEqualTo("OK");
        assertThat(client.call("SLOWLOG", "LEN")).isEqualTo(1L);
    }

    @Test
    void slowlog_maxLenAndNegativeThreshold_boundOrDisableTheLog() {
        client.call("CONFIG", "SET", "slowlog-log-slower-than", "0", "slowlog-max-len", "2");
        client.call("PING");
        client.call("PING");
        client.call("PING");
        assertThat(client.call("SLOWLOG", "LEN")).isEqualTo(2L);

        client.call("CONFIG", "SET", "slowlog-log-slower-than", "-1");
        client.call("SLOWLOG", "RESET");
        client.call("PING");
        assertThat(client.call("SLOWLOG", "LEN")).isEqualTo(0L);
    }

    @Test
    void slowlog_threshold_logsOnlyCallsAtLeastThatSlow() {
        client.call("CONFIG", "SET", "slowlog-log-slower-than", "100000");
        client.call("PING");
        client.call("DEBUG", "SLEEP", "0.15");
        List<Object> entries = list(client.call("SLOWLOG", "GET"));
        assertThat(entries).hasSize(1);
        assertThat(strings(list(entries.get(0)).get(3))).containsExactly("DEBUG", "SLEEP", "0.15");
        assertThat((Long) list(entries.get(0)).get(2)).isGreaterThanOrEqualTo(150_000L);
    }

    @Test
    void slowlog_authHelloAndConfigSet_haveTheirPasswordsRedacted() {
        client.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        assertThatThrownBy(() -> client.call("AUTH", "a", "b")).hasMessageStartingWith("WRONGPASS");
        client.call("HELLO", "2", "AUTH", "default", "x", "SETNAME", "n");
        client.call("CONFIG", "SET", "requirepass", "", "hz", "10");

        List<Object> entries = list(client.call("SLOWLOG", "GET", "3"));
        assertThat(strings(list(entries.get(0)).get(3)))
                .containsExactly("CONFIG", "SET", "requirepass", "(redacted)", "hz", "10");
        assertThat(strings(list(entries.get(1)).get(3)))
                .containsExactly("HELLO", "2", "AUTH", "(redacted)", "(redacted)", "SETNAME", "n");
        assertThat(strings(list(entries.get(2)).get(3))).containsExactly("AUTH", "(redacted)", "(redacted)");
    }

    @Test
    void slowlog_longArguments_areTruncatedAsRedisDoes() {
        client.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.call("CLIENT", "SETNAME", "y".repeat(200));
        List<String> many = new ArrayList<>(List.of("CONFIG", "GET"));
        many.addAll(Collections.nCopies(40, "hz"));
        client.call(many.toArray(String[]::new));

        List<Object> entries = list(client.call("SLOWLOG", "GET", "2"));
        List<String> manyArgs = strings(list(entries.get(0)).get(3));
        assertThat(manyArgs).hasSize(32);
        assertThat(manyArgs.get(30)).isEqualTo("hz");
        assertThat(manyArgs.get(31)).isEqualTo("... (11 more arguments)");
        assertThat(strings(list(entries.get(1)).get(3)).get(2)).isEqualTo("y".repeat(128) + "... (72 more bytes)");
    }

    @Test
    void debugObject_stringValues_describedLikeRedis() {
        inDb0(db -> {
            db.add(Key.of("n"), new StringValue("123".getBytes(StandardCharsets.US_ASCII)));
            db.add(Key.of("s"), new StringValue("hello".getBytes(StandardCharsets.US_ASCII)));
            db.add(Key.of("big"), new StringValue("12345678901".getBytes(StandardCharsets.US_ASCII)));
        });
        assertThat(text(client.call("DEBUG", "OBJECT", "n")))
                .matches("Value at:0x[0-9a-f]+ refcount:2147483647 encoding:int serializedlength:2 lru:\\d+ lru_seconds_idle:0");
        assertThat(text(client.call("DEBUG", "OBJECT", "s")))
                .matches("Value at:0x[0-9a-f]+ refcount:1 encoding:embstr serializedlength:6 lru:\\d+ lru_seconds_idle:0");
        assertThat(text(client.call("DEBUG", "OBJECT", "big"))).contains(" refcount:1 encoding:int serializedlength:12 ");

        support.advance(10_000);
        assertThat(text(client.call("DEBUG", "OBJECT", "s"))).endsWith(" lru_seconds_idle:10");
        assertThatThrownBy(() -> client.call("DEBUG", "OBJECT", "nosuch")).hasMessage("ERR no such key");
    }

    @Test
    void debug_unknownSubcommandOrWrongArity_namesItAsTyped() {
        assertThatThrownBy(() -> client.call("DEBUG", "foo"))
                .hasMessage("ERR unknown subcommand or wrong number of arguments for 'foo'. Try DEBUG HELP.");
        assertThatThrownBy(() -> client.call("DEBUG", "OBJECT"))
                .hasMessage("ERR unknown subcommand or wrong number of arguments for 'OBJECT'. Try DEBUG HELP.");
        assertThatThrownBy(() -> client.call("DEBUG", "sleep", "1", "2"))
                .hasMessage("ERR unknown subcommand or wrong number of arguments for 'sleep'. Try DEBUG HELP.");
        assertThat(strings(client.call("DEBUG", "HELP"))).first().asString().startsWith("DEBUG <subcommand>");
    }

    @Test
    void debugSleep_anyArgument_isReadLikeStrtod() {
        assertThat(client.call("DEBUG", "SLEEP", "0")).isEqualTo("OK");
        assertThat(client.call("DEBUG", "SLEEP", "x")).isEqualTo("OK");
        assertThat(client.call("DEBUG", "SLEEP", "-1")).isEqualTo("OK");
        long start = System.nanoTime();
        assertThat(client.call("DEBUG", "SLEEP", " 0.05abc")).isEqualTo("OK");
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(50_000_000L);
    }

    @Test
    void debugSetActiveExpire_zeroThenOne_stopsThenResumesTheBackgroundCycle() throws InterruptedException {
        client.call("DEBUG", "SET-ACTIVE-EXPIRE", "1abc");
        assertThat(HostedEngine.of(support.engine).keyspace().activeExpireEnabled()).isTrue();
        client.call("DEBUG", "SET-ACTIVE-EXPIRE", "0.9");
        assertThat(HostedEngine.of(support.engine).keyspace().activeExpireEnabled()).isFalse();
        assertThat(client.call("DEBUG", "SET-ACTIVE-EXPIRE", "0")).isEqualTo("OK");
        assertThat(HostedEngine.of(support.engine).keyspace().activeExpireEnabled()).isFalse();
        inDb0(db -> {
            db.add(Key.of("k"), new StringValue("v".getBytes(StandardCharsets.US_ASCII)));
            db.setExpireAt(Key.of("k"), support.time.get() + 100);
        });
        support.advance(1_000);
        Thread.sleep(350);
        assertThat(dbSize()).isEqualTo(1);

        assertThat(client.call("DEBUG", "SET-ACTIVE-EXPIRE", "1")).isEqualTo("OK");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (dbSize() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(dbSize()).isZero();
    }

    private int dbSize() {
        int[] size = new int[1];
        inDb0(db -> size[0] = db.size());
        return size[0];
    }
}
