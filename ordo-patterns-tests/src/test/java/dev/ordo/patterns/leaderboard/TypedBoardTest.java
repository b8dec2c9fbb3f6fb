package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.Codec;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Board#typed}: members of another type than String go to the board encoded by the codec
 * and come back decoded, on plain and sharded boards, blocking and async, on every backend; what
 * the board stores is exactly the encoded text, so the typed view and the string board agree.
 */
class TypedBoardTest {
    record Player(String region, long id) {
    }

    private static final Codec<Player> PLAYERS = Codec.of(p -> p.region() + ":" + p.id(), text -> {
        int colon = text.indexOf(':');
        return new Player(text.substring(0, colon), Long.parseLong(text.substring(colon + 1)));
    });

    @OnEveryBackend
    void typedBoard_encodesMembersIn_andDecodesThemOut(Backend backend) {
        Board<String> plain = Leaderboard.create(backend.store(), Backend.uniqueName("typed"), BoardOptions.highestFirst());
        check(plain);
    }

    @OnEveryBackend
    void typedShardedBoard_encodesMembersIn_andDecodesThemOut(Backend backend) {
        Board<String> sharded = ShardedLeaderboard.create(backend.store(), Backend.uniqueName("typed-sharded"), 3, BoardOptions.highestFirst());
        check(sharded);
    }

    private static void check(Board<String> text) {
        Board<Player> board = Board.typed(text, PLAYERS);
        Player ann = new Player("eu", 7);
        Player bob = new Player("us", 42);
        Player cid = new Player("eu", 9);

        assertThat(board.addPoints(ann, 100)).isEqualTo(new Placement<>(ann, 100.0, 1));
        assertThat(board.addPoints(bob, 150)).isEqualTo(new Placement<>(bob, 150.0, 1));
        assertThat(board.setScore(cid, 120)).isEqualTo(new Placement<>(cid, 120.0, 2));
        assertThat(board.keepBest(ann, 90)).isEqualTo(new Placement<>(ann, 100.0, 3));

        assertThat(board.top(3)).extracting(Entry::member).containsExactly(bob, cid, ann);
        assertThat(board.around(cid, 1)).extracting(Entry::member).containsExactly(cid);
        assertThat(board.rank(ann)).isEqualTo(OptionalLong.of(3));
        assertThat(board.score(bob).getAsDouble()).isEqualTo(150.0);
        assertThat(board.count()).isEqualTo(3);

        // the board holds the codec's text, nothing else
        assertThat(text.top(3)).extracting(Entry::member).containsExactly("us:42", "eu:9", "eu:7");
        assertThat(text.rank("eu:7")).isEqualTo(OptionalLong.of(3));

        Placement<Player> async = board.addPointsAsync(ann, 100).toCompletableFuture().join();
        assertThat(async).isEqualTo(new Placement<>(ann, 200.0, 1));
        assertThat(board.rankAsync(bob).toCompletableFuture().join()).isEqualTo(OptionalLong.of(2));
        assertThat(board.scoreAsync(cid).toCompletableFuture().join().getAsDouble()).isEqualTo(120.0);
        List<Entry<Player>> top = board.topAsync(2).toCompletableFuture().join();
        assertThat(top).extracting(Entry::member).containsExactly(ann, bob);

        assertThat(board.remove(bob)).isTrue();
        assertThat(board.remove(bob)).isFalse();
        assertThat(board.rank(bob)).isEmpty();
    }
}
