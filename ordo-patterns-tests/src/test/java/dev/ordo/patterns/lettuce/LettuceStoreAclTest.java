package dev.ordo.patterns.lettuce;

import dev.ordo.patterns.Plain;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Boards used through {@link LettuceStore} by an ACL user allowed only the boards' keys (all
 * under their hash tags, {@code {weekly...}}) and no dangerous or admin commands: everything the board does works, the
 * credentials work in the URI and as {@link LettuceStore.Credentials}, and another key is refused.
 */
class LettuceStoreAclTest {
    private static Ordo ordo;
    private static int port;

    @BeforeAll
    static void start() {
        ordo = Ordo.embedded();
        port = ordo.openPort(0);
        ordo.client().call("ACL", "SETUSER", "board-app", "on", ">s3cret", "~{weekly*", "+@all", "-@dangerous", "-@admin");
    }

    @AfterAll
    static void stop() {
        ordo.close();
    }

    private static void useTheBoard(Store store, String name) {
        Leaderboard board = Leaderboard.create(store, name, BoardOptions.highestFirst().withMetadata(true));
        board.setScore("alice", 120);
        board.addPoints("bob", 95);
        board.setMetadata("alice", java.util.Map.of("country", "fr"));
        assertThat(board.top(2)).extracting(e -> e.member()).containsExactly("alice", "bob");
        assertThat(board.rank("bob")).hasValue(board.top(2).get(1).rank());
        assertThat(board.metadata("alice")).containsEntry("country", "fr");
        assertThat(board.remove("bob")).isTrue();
    }

    @Test
    void credentialsAsOptions_boardWorks_otherKeysAreRefused() {
        try (LettuceStore store = LettuceStore.connect("redis://127.0.0.1:" + port,
                new LettuceStore.Credentials("board-app", "s3cret"))) {
            useTheBoard(store, "weekly-options");
            assertThat(Plain.of(store.call(StoreCommand.of("ACL").arg("WHOAMI")))).isEqualTo("board-app");
            assertThatThrownBy(() -> store.call(StoreCommand.of("GET").arg("other"))).hasMessageContaining("NOPERM No permissions to access a key");
            assertThatThrownBy(() -> store.call(StoreCommand.of("FLUSHALL")))
                    .hasMessageContaining("NOPERM User board-app has no permissions to run the 'flushall' command");
        }
    }

    @Test
    void credentialsInTheUri_boardWorks() {
        try (LettuceStore store = LettuceStore.connect("redis://board-app:s3cret@127.0.0.1:" + port)) {
            useTheBoard(store, "weekly-uri");
        }
    }

    @Test
    void wrongPassword_connectFails() {
        assertThatThrownBy(() -> LettuceStore.connect("redis://127.0.0.1:" + port, new LettuceStore.Credentials("board-app", "nope")))
                .hasStackTraceContaining("WRONGPASS");
    }
}
