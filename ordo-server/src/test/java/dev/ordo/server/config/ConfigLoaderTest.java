package dev.ordo.server.config;

import dev.ordo.engine.config.Config;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** redis-server's command line and config file rules. */
class ConfigLoaderTest {
    private final ConfigLoader loader = new ConfigLoader(InputStream.nullInputStream());

    private Config load(String... args) throws ConfigException {
        return loader.load(List.of(args)).config();
    }

    @Test
    void optionsBecomeConfigLines() {
        assertThat(ConfigLoader.options(List.of("--port", "6380", "--save", "900", "1")))
                .isEqualTo("port \"6380\" \nsave \"900\" \"1\" ");
        assertThat(ConfigLoader.options(List.of("--port 6380"))).isEqualTo("port 6380 ");
    }

    @Test
    void bareSaveMeansNoSnapshots() throws ConfigException {
        assertThat(ConfigLoader.options(List.of("--save"))).isEqualTo("save \"\"");
        assertThat(load("--save").get("save")).isEmpty();
        assertThat(load("--save", "--port", "6390").get("port")).isEqualTo("6390");
        assertThat(load("--save", "--port", "6390").get("save")).isEmpty();
        assertThat(load("--save", "").get("save")).isEmpty();
    }

    @Test
    void theArgumentAfterABareNameIsItsValueEvenWithDashes() throws ConfigException {
        assertThat(load("--requirepass", "--not-an-option").get("requirepass")).isEqualTo("--not-an-option");
    }

    @Test
    void valuesKeepQuotesAndSpaces() throws ConfigException {
        assertThat(load("--requirepass", "a \"b\" 'c'\\").get("requirepass")).isEqualTo("a \"b\" 'c'\\");
    }

    @Test
    void namesAreCaseInsensitiveAndAliasesWork() throws ConfigException {
        Config c = load("--MAXCLIENTS", "12", "--zset-max-ziplist-entries", "5");
        assertThat(c.get("maxclients")).isEqualTo("12");
        assertThat(c.get("zset-max-listpack-entries")).isEqualTo("5");
    }

    @Test
    void configTextSkipsCommentsAndBlankLines() throws ConfigException {
        Config c = new Config();
        ConfigLoader.apply(c, "# comment\n\n   \n  port 7000  \r\nbind 127.0.0.1 ::1\n");
        assertThat(c.get("port")).isEqualTo("7000");
        assertThat(c.get("bind")).isEqualTo("127.0.0.1 ::1");
    }

    @Test
    void standardInputIsAConfigFile() throws ConfigException {
        ConfigLoader fromStdin = new ConfigLoader(new ByteArrayInputStream("maxclients 3\n".getBytes(StandardCharsets.UTF_8)));
        ConfigLoader.Loaded loaded = fromStdin.load(List.of("-", "--port", "0"));
        assertThat(loaded.config().get("maxclients")).isEqualTo("3");
        assertThat(loaded.configFile()).isNull();
    }

    @Test
    void errorsNameTheLineAsRedisDoes() {
        assertThatThrownBy(() -> load("--port", "1", "--nosuch", "x"))
                .hasMessage("\n*** FATAL CONFIG FILE ERROR (Ordo " + Version.ORDO + ") ***\n"
                        + "Reading the configuration file, at line 3\n>>> 'nosuch \"x\"'\nBad directive or wrong number of arguments");
        assertThatThrownBy(() -> ConfigLoader.apply(new Config(), "port 1\nport \"7\n"))
                .hasMessageEndingWith("at line 2\n>>> 'port \"7'\nUnbalanced quotes in configuration line");
        assertThatThrownBy(() -> load("--maxclients")).hasMessageEndingWith("wrong number of arguments");
        assertThatThrownBy(() -> load("--databases", "x")).hasMessageEndingWith("argument couldn't be parsed into an integer");
    }

    @Test
    void userLines_areKeptForTheAcl_inOrder() throws ConfigException {
        Config c = new Config();
        ConfigLoader.apply(c, "user alice on >pw ~a:* +@read\nport 7000\nuser \"bob\" off\n");
        assertThat(c.userLines()).containsExactly(List.of("alice", "on", ">pw", "~a:*", "+@read"), List.of("bob", "off"));

        // A quoted word stays one rule, as Redis's parser keeps it: a password with a space.
        Config quoted = new Config();
        ConfigLoader.apply(quoted, "user carol on \">my pass\" ~* +@all\n");
        assertThat(quoted.userLines()).containsExactly(List.of("carol", "on", ">my pass", "~*", "+@all"));
        try (Ordo ordo = Ordo.embedded(quoted)) {
            assertThat(ordo.client().call("AUTH", "carol", "my pass")).isEqualTo("OK");
        }
        assertThat(c.get("port")).isEqualTo("7000");
    }

    @Test
    void oldReplicationNames_reachTheirDirectives_asInRedis() throws ConfigException {
        Config config = load("--slave-read-only", "no", "--min-slaves-to-write", "2");
        assertThat(config.get("replica-read-only")).isEqualTo("no");
        assertThat(config.get("min-replicas-to-write")).isEqualTo("2");
    }
}
