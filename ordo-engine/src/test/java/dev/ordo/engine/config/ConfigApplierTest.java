package dev.ordo.engine.config;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CONFIG SET with {@link Config.Applier}s, as Redis's apply functions: called once per CONFIG SET
 * after every value is set, and a refusal undoes the whole CONFIG SET, names the first parameter
 * of the refusing applier, and calls again the appliers that had accepted.
 */
class ConfigApplierTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();
    private final Config config = support.engine.config();
    private final List<String> calls = new ArrayList<>();

    @AfterEach
    void close() {
        support.close();
    }

    @Test
    void configSet_severalParametersOfOneApplier_callsItOnceAfterAllAreSet() {
        config.onSet(List.of("tls-cert-file", "tls-key-file"), () -> {
            calls.add(config.get("tls-cert-file") + "+" + config.get("tls-key-file"));
            return null;
        });
        assertThat(client.call("CONFIG", "SET", "tls-cert-file", "a.crt", "tls-key-file", "a.key")).isEqualTo("OK");
        assertThat(calls).containsExactly("a.crt+a.key");
    }

    @Test
    void configSet_applierRefuses_restoresEveryValueAndReappliesTheOthers() {
        config.onSet(List.of("tls-session-cache-size"), () -> {
            calls.add("cache " + config.get("tls-session-cache-size"));
            return null;
        });
        config.onSet(List.of("tls-cert-file", "tls-key-file"), () -> {
            calls.add("context " + config.get("tls-cert-file"));
            return config.get("tls-cert-file").equals("bad.crt") ? "Unable to update TLS configuration. Check server logs." : null;
        });
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "tls-session-cache-size", "5", "maxclients", "7",
                "tls-key-file", "b.key", "tls-cert-file", "bad.crt"))
                .isInstanceOf(ErrorReply.class)
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'tls-key-file') - "
                        + "Unable to update TLS configuration. Check server logs.");
        assertThat(config.get("tls-session-cache-size")).isEqualTo("20480");
        assertThat(config.get("maxclients")).isEqualTo("10000");
        assertThat(config.get("tls-key-file")).isEmpty();
        assertThat(config.get("tls-cert-file")).isEmpty();
        assertThat(calls).containsExactly("cache 5", "context bad.crt", "cache 20480");
    }

    @Test
    void configSet_removedApplier_isNotCalled() {
        Config.Applier applier = () -> {
            calls.add("called");
            return "no";
        };
        config.onSet(List.of("tls-ciphers"), applier);
        config.removeApplier(applier);
        assertThat(client.call("CONFIG", "SET", "tls-ciphers", "x")).isEqualTo("OK");
        assertThat(calls).isEmpty();
    }
}
