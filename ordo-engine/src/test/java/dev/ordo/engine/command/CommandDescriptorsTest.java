package dev.ordo.engine.command;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.Engine;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.time.Clock;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** commands.txt and the Java registrations describe the same commands, each once. */
class CommandDescriptorsTest {
    @Test
    void everyLineIsARegisteredCommandAndEveryCommandHasALine() {
        Engine engine = new Engine(new Config(), Clock.SYSTEM, (task, delay) -> () -> { });
        try {
            Set<String> registered = new LinkedHashSet<>();
            for (Command c : HostedEngine.of(engine).commands().all()) {
                registered.add(c.fullName());
                c.subcommands().values().forEach(sub -> registered.add(sub.fullName()));
            }
            assertThat(registered).containsExactlyInAnyOrderElementsOf(CommandDescriptors.names());
        } finally {
            engine.close();
        }
    }

    @Test
    void aCommandWithoutALine_failsItsRegistration() {
        CommandTable table = new CommandTable();
        assertThatThrownBy(() -> table.register(Command.of("nosuchcommand", c -> { })))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("nosuchcommand has no line in commands.txt");
    }

    @Test
    void aLineGivesItsCommandEverything() {
        CommandTable table = new CommandTable();
        table.register(Command.of("zadd", c -> { }));
        Command zadd = table.lookup("zadd");
        assertThat(zadd.arity()).isEqualTo(-4);
        assertThat(zadd.flags()).containsExactlyInAnyOrder(Command.Flag.WRITE, Command.Flag.DENYOOM, Command.Flag.FAST);
        assertThat(zadd.aclCategories()).containsExactly("write", "sortedset", "fast");
        assertThat(zadd.summary()).isNotEmpty();
        assertThat(zadd.since()).isEqualTo("1.2.0");
        assertThat(zadd.keySpecs()).hasSize(1);
    }
}
