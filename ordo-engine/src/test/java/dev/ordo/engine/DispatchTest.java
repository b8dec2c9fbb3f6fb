package dev.ordo.engine;

import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The dispatcher's checks, in Redis's order and with Redis's texts. */
class DispatchTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();

    @AfterEach
    void close() {
        support.close();
    }

    @Test
    void ping_withAndWithoutMessage() {
        assertThat(client.call("PING")).isEqualTo("PONG");
        assertThat((byte[]) client.call("ping", "hi")).isEqualTo("hi".getBytes());
    }

    @Test
    void unknownCommand_quotesItsArguments() {
        assertThatThrownBy(() -> client.call("FOO", "a", "b")).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR unknown command 'FOO', with args beginning with: 'a' 'b' ");
        assertThatThrownBy(() -> client.call("foo")).hasMessage("ERR unknown command 'foo', with args beginning with: ");
    }

    @Test
    void wrongArity_namesTheCommandInLowercase() {
        assertThatThrownBy(() -> client.call("ECHO")).hasMessage("ERR wrong number of arguments for 'echo' command");
    }

    @Test
    void select_outOfRangeOrNotANumber() {
        assertThat(client.call("SELECT", "15")).isEqualTo("OK");
        assertThatThrownBy(() -> client.call("SELECT", "16")).hasMessage("ERR DB index is out of range");
        assertThatThrownBy(() -> client.call("SELECT", "x")).hasMessage("ERR value is not an integer or out of range");
        assertThatThrownBy(() -> client.call("SELECT", "2147483648"))
                .hasMessage("ERR value is out of range, value must between -2147483648 and 2147483647");
    }
}
