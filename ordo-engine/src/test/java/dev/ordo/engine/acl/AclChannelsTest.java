package dev.ordo.engine.acl;

import dev.ordo.engine.command.Command;
import dev.ordo.engine.command.CommandTable;
import dev.ordo.engine.config.Config;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Channel permissions, on a command table holding Pub/Sub commands as Redis describes them (Ordo
 * has none yet): a channel must match one of the user's patterns; a PSUBSCRIBE pattern must
 * equal one; {@code allchannels} (or {@code &*}) allows all; the check reports the channel.
 */
class AclChannelsTest {
    private final CommandTable table = new CommandTable()
            .register(Command.of("publish", c -> { }))
            .register(Command.of("subscribe", c -> { }))
            .register(Command.of("psubscribe", c -> { }))
            .register(Command.of("unsubscribe", c -> { }));
    private final Acl acl = new Acl(new Config(), table);

    private Acl.Denial check(String user, String... args) {
        byte[][] argv = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return acl.check(acl.user(user), table.lookup(args[0]), argv);
    }

    @Test
    void channelPatterns_allowMatchingChannels_andPsubscribeNeedsTheSamePattern() {
        acl.setUser("u", List.of("on", "+@pubsub", "&news.*"));
        assertThat(check("u", "publish", "news.sport", "hi")).isNull();
        assertThat(check("u", "publish", "other", "hi")).isEqualTo(new Acl.Denial(Acl.Reason.CHANNEL, 1));
        assertThat(check("u", "subscribe", "news.a", "other", "news.b")).isEqualTo(new Acl.Denial(Acl.Reason.CHANNEL, 2));
        assertThat(check("u", "psubscribe", "news.*")).isNull();
        assertThat(check("u", "psubscribe", "news.s*")).isEqualTo(new Acl.Denial(Acl.Reason.CHANNEL, 1));
        assertThat(check("u", "unsubscribe", "anything")).isNull();
        assertThat(acl.channelAllowed(acl.user("u"), "news.x".getBytes(StandardCharsets.UTF_8), false)).isTrue();
        assertThat(acl.channelAllowed(acl.user("u"), "news.x".getBytes(StandardCharsets.UTF_8), true)).isFalse();
    }

    @Test
    void allChannels_allowsEveryChannel_andResetchannelsNone() {
        acl.setUser("u", List.of("on", "+@all", "&*"));
        assertThat(check("u", "psubscribe", "any*")).isNull();
        acl.setUser("u", List.of("resetchannels"));
        assertThat(check("u", "publish", "x", "m")).isEqualTo(new Acl.Denial(Acl.Reason.CHANNEL, 1));
        assertThat(check("default", "publish", "x", "m")).isNull();
    }

    @Test
    void aSelectorWithTheChannel_allowsIt() {
        acl.setUser("u", List.of("on", "+publish", "&a", "(+publish &b)"));
        assertThat(check("u", "publish", "b", "m")).isNull();
        assertThat(check("u", "publish", "c", "m")).isEqualTo(new Acl.Denial(Acl.Reason.CHANNEL, 1));
    }
}
