package dev.ordo.server;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.server.config.ConfigReference;
import dev.ordo.server.config.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The standalone server's entry point, called in-process (no System.exit). */
class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
    private final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void startsFromCommandLineOptionsAndLogsThePort() throws Exception {
        try (Ordo ordo = Main.start(new String[] {"--port", "0", "--save", "", "--requirepass", "foo",
            "--zset-max-listpack-entries", "64"}, outStream, errStream)) {
            Matcher ready = Pattern.compile("Ready to accept connections tcp on port (\\d+)").matcher(out());
            assertThat(ready.find()).as("ready line in %s", out()).isTrue();
            int port = Integer.parseInt(ready.group(1));
            assertThat(ordo.engine().config().get("zset-max-listpack-entries")).isEqualTo("64");
            assertThat(ordo.engine().config().get("save")).isEmpty();
            try (RawClient c = new RawClient(port)) {
                assertThat(c.call("PING")).isEqualTo("-NOAUTH Authentication required.\r\n");
                assertThat(c.call("AUTH", "foo")).isEqualTo("+OK\r\n");
                assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
            }
        }
    }

    @Test
    void readsAConfigFileThatTheCommandLineOverrides(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ordo.conf");
        Files.writeString(file, "# test config\nport 0\n  maxclients 7  \nrequirepass \"quoted pass\"\nsave 900 1 300 10\ndir " + dir + "\n");
        try (Ordo ordo = Main.start(new String[] {file.toString(), "--maxclients", "9"}, outStream, errStream)) {
            assertThat(ordo.engine().config().get("maxclients")).isEqualTo("9");
            assertThat(ordo.engine().config().get("requirepass")).isEqualTo("quoted pass");
            assertThat(ordo.engine().config().get("save")).isEqualTo("900 1 300 10");
        }
    }

    @Test
    void userLinesInTheConfigFile_defineAclUsers(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ordo.conf");
        Files.writeString(file, "port 0\nsave \"\"\nuser alice on >pw ~a:* +get +set\nuser default off\n");
        try (Ordo ordo = Main.start(new String[] {file.toString()}, outStream, errStream)) {
            Matcher ready = Pattern.compile("Ready to accept connections tcp on port (\\d+)").matcher(out());
            assertThat(ready.find()).as("ready line in %s", out()).isTrue();
            // A user line builds its user from nothing, the default user too: no nopass, and off.
            assertThat(HostedEngine.of(ordo.engine()).acl().defaultUserHasNoPassword()).isFalse();
            try (RawClient c = new RawClient(Integer.parseInt(ready.group(1)))) {
                assertThat(c.call("PING")).isEqualTo("-NOAUTH Authentication required.\r\n");
                assertThat(c.call("AUTH", "alice", "pw")).isEqualTo("+OK\r\n");
                assertThat(c.call("SET", "a:1", "v")).isEqualTo("+OK\r\n");
                assertThat(c.call("GET", "b:1")).isEqualTo("-NOPERM No permissions to access a key\r\n");
            }
        }
    }

    @Test
    void missingAclFile_stopsTheStart(@TempDir Path dir) {
        int code = Main.run(new String[] {"--port", "0", "--save", "", "--aclfile", dir.resolve("users.acl").toString()},
                outStream, errStream, InputStream.nullInputStream());
        assertThat(code).isEqualTo(1);
        assertThat(out() + err()).contains("Error loading ACLs, opening file '" + dir.resolve("users.acl") + "': No such file or directory");
    }

    @Test
    void unknownOptionFailsWithRedisErrorAndExitCode1() {
        int code = Main.run(new String[] {"--port", "0", "--nosuch", "x"}, outStream, errStream, InputStream.nullInputStream());
        assertThat(code).isEqualTo(1);
        assertThat(err()).contains("*** FATAL CONFIG FILE ERROR (Ordo ", "Reading the configuration file, at line 3",
                ">>> 'nosuch \"x\"'", "Bad directive or wrong number of arguments");
    }

    @Test
    void badValueFailsWithTheReason() {
        int code = Main.run(new String[] {"--port", "abc"}, outStream, errStream, InputStream.nullInputStream());
        assertThat(code).isEqualTo(1);
        assertThat(err()).contains(">>> 'port \"abc\"'", "argument couldn't be parsed into an integer");
    }

    @Test
    void singleValueOptionWithTwoValuesIsWrongArity() {
        int code = Main.run(new String[] {"--maxclients", "1", "2"}, outStream, errStream, InputStream.nullInputStream());
        assertThat(code).isEqualTo(1);
        assertThat(err()).contains(">>> 'maxclients \"1\" \"2\"'", "wrong number of arguments");
    }

    @Test
    void missingConfigFileFails(@TempDir Path dir) {
        String missing = dir.resolve("nope.conf").toString();
        int code = Main.run(new String[] {missing}, outStream, errStream, InputStream.nullInputStream());
        assertThat(code).isEqualTo(1);
        assertThat(err()).contains("Fatal error, can't open config file '" + missing + "'");
    }

    @Test
    void portInUseExitsWith1() throws IOException {
        try (Ordo other = Ordo.embedded()) {
            int taken = other.openPort(0);
            int code = Main.run(new String[] {"--port", String.valueOf(taken)}, outStream, errStream, InputStream.nullInputStream());
            assertThat(code).isEqualTo(1);
            assertThat(out()).contains("# Warning: Could not create server TCP listening socket 127.0.0.1:" + taken,
                    "# Failed listening on port " + taken + " (tcp), aborting.");
        }
    }

    @Test
    void helpAndVersionExitWith0() {
        assertThat(Main.run(new String[] {"--help"}, outStream, errStream, InputStream.nullInputStream())).isZero();
        assertThat(out()).startsWith("Usage: ordo-server [/path/to/ordo.conf] [options] [-]\n").contains("\n  --port 6379\n");
        assertThat(Main.run(new String[] {"--version"}, outStream, errStream, InputStream.nullInputStream())).isZero();
        assertThat(out()).contains("Ordo server v=");
    }

    @Test
    void help_shortAndLongForms_printTheGeneratedUsage() {
        assertThat(Main.run(new String[] {"-h"}, outStream, errStream, InputStream.nullInputStream())).isZero();
        String shortForm = out();
        out.reset();
        assertThat(Main.run(new String[] {"--help"}, outStream, errStream, InputStream.nullInputStream())).isZero();
        assertThat(out()).isEqualTo(shortForm).isEqualTo(ConfigReference.usage());
        assertThat(err()).isEmpty();
    }

    @Test
    void version_shortAndLongForms_answerInRedisServersShape() {
        Pattern shape = Pattern.compile("Ordo server v=\\S+ sha=00000000:0 malloc=jvm bits=\\d+ build=0{16} redis_version=7\\.2\\.4\n");
        assertThat(Main.run(new String[] {"-v"}, outStream, errStream, InputStream.nullInputStream())).isZero();
        assertThat(out()).matches(shape);
        out.reset();
        assertThat(Main.run(new String[] {"--version"}, outStream, errStream, InputStream.nullInputStream())).isZero();
        assertThat(out()).matches(shape).contains("v=" + Version.ORDO + " ");
    }

    @Test
    void helpOrVersionAfterOtherOptions_isAnUnknownDirective_asInRedis() {
        assertThat(Main.run(new String[] {"--port", "0", "--version"}, outStream, errStream, InputStream.nullInputStream())).isEqualTo(1);
        assertThat(err()).contains(">>> 'version'", "Bad directive or wrong number of arguments");
        assertThat(out()).doesNotContain("Ordo server v=");
    }

    @Test
    void sampleConfigFile_startsTheServerUnchanged(@TempDir Path dir) throws Exception {
        // The file as shipped; only the port (6379 may be taken here) and the data directory
        // (kept out of the source tree) are given on the command line, where they win.
        Path sample = Path.of("config", "ordo.conf");
        try (Ordo ordo = Main.start(new String[] {sample.toString(), "--port", "0", "--dir", dir.toString()}, outStream, errStream)) {
            Matcher ready = Pattern.compile("Ready to accept connections tcp on port (\\d+)").matcher(out());
            assertThat(ready.find()).as("ready line in %s", out()).isTrue();
            try (RawClient c = new RawClient(Integer.parseInt(ready.group(1)))) {
                assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
            }
            assertThat(ordo.engine().config().get("maxmemory-policy")).isEqualTo("noeviction");
        }
    }

    @Test
    void keepsItsDataInDirAcrossRestarts(@TempDir Path dir) throws Exception {
        String[] args = {"--port", "0", "--dir", dir.toString(), "--appendonly", "yes", "--appendfsync", "always"};
        try (Ordo ordo = Main.start(args, outStream, errStream)) {
            try (RawClient c = new RawClient(ordo.port())) {
                assertThat(c.call("ZADD", "board", "120", "alice", "95", "bob")).isEqualTo(":2\r\n");
                assertThat(c.call("SET", "session", "x", "EX", "600")).isEqualTo("+OK\r\n");
                assertThat(c.call("BGSAVE")).isEqualTo("+Background saving started\r\n");
                assertThat(c.call("INFO", "persistence")).contains("aof_enabled:1", "rdb_changes_since_last_save:",
                        "aof_last_write_status:ok", "aof_current_size:");
            }
        }
        assertThat(out()).contains("DB saved on disk");
        try (Ordo ordo = Main.start(args, outStream, errStream)) {
            try (RawClient c = new RawClient(ordo.port())) {
                assertThat(c.call("ZSCORE", "board", "alice")).isEqualTo("$3\r\n120\r\n");
                assertThat(Long.parseLong(c.call("TTL", "session").substring(1).trim())).isBetween(590L, 600L);
            }
        }
        assertThat(out()).contains("DB loaded from append only file");
    }

    @Test
    void checkAofReportsAndRepairsATornFile(@TempDir Path dir) throws Exception {
        Path aof = dir.resolve("appendonly.aof.1.incr.aof");
        Files.writeString(aof, RawClient.command("SET", "a", "1") + "*3\r\n$3\r\nSET\r\n$1\r\nb");
        assertThat(Main.run(new String[] {"--check-aof", aof.toString()}, outStream, errStream, InputStream.nullInputStream()))
                .isEqualTo(1);
        assertThat(Main.run(new String[] {"--check-aof", aof.toString(), "--fix"}, outStream, errStream,
                InputStream.nullInputStream())).isZero();
        assertThat(Files.readString(aof)).isEqualTo(RawClient.command("SET", "a", "1"));
        assertThat(Main.run(new String[] {"--check-aof", aof.toString()}, outStream, errStream, InputStream.nullInputStream()))
                .isZero();
    }

    @Test
    void refusesToStartOnACorruptFileNamingIt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("dump.rdb"), "REDIS0010 this is not a snapshot");
        int code = Main.run(new String[] {"--port", "0", "--dir", dir.toString()}, outStream, errStream, InputStream.nullInputStream());
        assertThat(code).isEqualTo(1);
        assertThat(out()).contains(dir.resolve("dump.rdb").toString());
    }
}
