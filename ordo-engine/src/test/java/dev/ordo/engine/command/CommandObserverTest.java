package dev.ordo.engine.command;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What MONITOR is shown, and in what order (Redis 7.2's): each command after it ran, a
 * transaction's commands between MULTI and EXEC, a script's commands after its EVAL or FCALL on
 * the script's session, EXEC refused before it ran; never a command refused before running, a
 * queued one, nor an admin one.
 */
class CommandObserverTest extends CommandTestSupport {
    private final List<String> seen = new ArrayList<>();

    @BeforeEach
    void observe() {
        HostedEngine.of(support.engine).addObserver((session, args) -> {
            StringBuilder line = new StringBuilder("[" + session.db() + " " + (session.isScriptClient() ? "lua" : "client") + "]");
            for (byte[] a : args) {
                line.append(' ').append(new String(a, StandardCharsets.UTF_8));
            }
            seen.add(line.toString());
        });
    }

    @Test
    void eval_showsItselfThenItsScriptsCommandsOnTheScriptSession() {
        client.call("EVAL", "redis.call('set','k','v'); redis.call('select',2); return redis.call('get','k')", "0");
        assertThatThrownBy(() -> client.call("EVAL", "return redis.pcall('nosuch')", "0")).hasMessage("ERR Unknown Redis command called from script");
        assertThat(seen).containsExactly("[0 client] EVAL redis.call('set','k','v'); redis.call('select',2); return redis.call('get','k') 0",
                "[0 lua] set k v", "[2 lua] select 2", "[2 lua] get k", "[0 client] EVAL return redis.pcall('nosuch') 0");
    }

    @Test
    void fcall_showsItselfThenItsFunctionsCommands() {
        client.call("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function(k, a) return redis.call('incr', k[1]) end)");
        seen.clear();
        client.call("FCALL", "f", "1", "n");
        assertThat(seen).containsExactly("[0 client] FCALL f 1 n", "[0 lua] incr n");
    }

    @Test
    void exec_showsMultiThenTheQueuedCommandsThenItself() {
        client.call("MULTI");
        client.call("SET", "a", "1");
        client.call("EVAL", "return redis.call('get','a')", "0");
        client.call("INCR", "missing-a-number");
        client.call("EXEC");
        assertThat(seen).containsExactly("[0 client] MULTI", "[0 client] SET a 1", "[0 client] EVAL return redis.call('get','a') 0",
                "[0 lua] get a", "[0 client] INCR missing-a-number", "[0 client] EXEC");
    }

    @Test
    void refusedCommands_areNotShown_butARefusedExecIs() {
        assertThatThrownBy(() -> client.call("GET"));
        assertThatThrownBy(() -> client.call("NOSUCH"));
        client.call("MULTI");
        assertThatThrownBy(() -> client.call("GET"));
        assertThatThrownBy(() -> client.call("EXEC", "x")).hasMessageStartingWith("EXECABORT");
        client.call("SET", "s", "x");
        assertThatThrownBy(() -> client.call("INCR", "s"));
        assertThat(seen).containsExactly("[0 client] MULTI", "[0 client] EXEC x", "[0 client] SET s x", "[0 client] INCR s");
    }

    @Test
    void adminAndSkipMonitorCommands_areNotShown() {
        client.call("CONFIG", "GET", "maxmemory");
        client.call("ACL", "WHOAMI");
        client.call("ACL", "USERS");
        assertThatThrownBy(() -> client.call("MONITOR"));
        assertThat(seen).containsExactly("[0 client] ACL WHOAMI");
    }

    @Test
    void monitorInsideExec_isRefusedAsForADenyBlockingClient() {
        EmbeddedClient c = support.client();
        c.call("MULTI");
        assertThat(c.call("MONITOR")).isEqualTo("QUEUED");
        List<?> replies = (List<?>) c.call("EXEC");
        assertThat(replies).hasSize(1);
        assertThat(replies.get(0)).isInstanceOf(ErrorReply.class);
        assertThat(((ErrorReply) replies.get(0)).getMessage()).isEqualTo("ERR MONITOR isn't allowed for DENY BLOCKING client");
    }
}
