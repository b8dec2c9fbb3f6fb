package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.pubsub.PubSub;
import dev.ordo.engine.pubsub.Space;
import dev.ordo.engine.pubsub.Subscriptions;

import java.util.List;

/**
 * Publish/subscribe: SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE and their UNSUBSCRIBE forms, PUBLISH,
 * SPUBLISH and PUBSUB, over the engine's {@link PubSub}.
 *
 * <p>Replies as Redis gives them: each (un)subscribe answers once per name, as a push (RESP3)
 * or a three-element array (RESP2) of the command's word, the name and the client's count after
 * it (channels and patterns together; shard channels on their own). An unsubscribe with no names
 * drops every subscription of its kind, answering once per name, or once with a null name when
 * there was none. A client with a subscription speaking RESP2 may then only run the commands
 * {@link #allowedWhileSubscribed} names ({@link Dispatcher}); PING answers it with an array.
 * Only a client whose transport can push ({@link Session#setPushSink}) may subscribe.
 */
final class PubSubCommands {
    private static final String PUBSUB = "pubsub";

    private PubSubCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("subscribe", c -> subscribe(c, Space.CHANNELS)));
        table.register(Command.of("psubscribe", c -> subscribe(c, Space.PATTERNS)));
        table.register(Command.of("ssubscribe", c -> subscribe(c, Space.SHARD_CHANNELS)));
        table.register(Command.of("unsubscribe", c -> unsubscribe(c, Space.CHANNELS)));
        table.register(Command.of("punsubscribe", c -> unsubscribe(c, Space.PATTERNS)));
        table.register(Command.of("sunsubscribe", c -> unsubscribe(c, Space.SHARD_CHANNELS)));
        table.register(Command.of("publish", c -> c.reply().integer(c.context().pubSub().publish(c.arg(1), c.arg(2)))));
        table.register(Command.of("spublish", c -> c.reply().integer(c.context().pubSub().publishShard(c.arg(1), c.arg(2)))));
        table.register(Command.of("pubsub", c -> { })
                .with(Command.of("channels", c -> channels(c, Space.CHANNELS)))
                .with(Command.of("shardchannels", c -> channels(c, Space.SHARD_CHANNELS)))
                .with(Command.of("numsub", c -> numsub(c, Space.CHANNELS)))
                .with(Command.of("shardnumsub", c -> numsub(c, Space.SHARD_CHANNELS)))
                .with(Command.of("numpat", c -> c.reply().integer(c.context().pubSub().nameCount(Space.PATTERNS))))
                .with(Command.of("help", PubSubCommands::help)));
    }

    /** Whether a RESP2 client with subscriptions may run {@code command} (Redis's restricted context). */
    static boolean allowedWhileSubscribed(Command command) {
        return switch (command.fullName()) {
            case "subscribe", "psubscribe", "ssubscribe", "unsubscribe", "punsubscribe", "sunsubscribe", "ping", "quit",
                 "reset" -> true;
            default -> false;
        };
    }

    /** The calling client's subscriptions; refused for a client that cannot receive messages. */
    private static Subscriptions subscriptionsOf(Call c) {
        Subscriptions s = c.session().subscribing();
        if (s == null) {
            throw new ErrorReply(Errors.subscribeNeedsConnection(c.command().fullName()));
        }
        return s;
    }

    private static void subscribe(Call c, Space space) {
        Subscriptions s = subscriptionsOf(c);
        PubSub hub = c.context().pubSub();
        for (int i = 1; i < c.argc(); i++) {
            hub.subscribe(space, s, c.arg(i));
            confirm(c.reply(), space.subscribeWord(), c.arg(i), s.countFor(space));
        }
    }

    private static void unsubscribe(Call c, Space space) {
        Subscriptions s = subscriptionsOf(c);
        PubSub hub = c.context().pubSub();
        if (c.argc() > 1) {
            for (int i = 1; i < c.argc(); i++) {
                hub.unsubscribe(space, s, c.arg(i));
                confirm(c.reply(), space.unsubscribeWord(), c.arg(i), s.countFor(space));
            }
            return;
        }
        List<byte[]> names = s.names(space);
        if (names.isEmpty()) {
            confirm(c.reply(), space.unsubscribeWord(), null, s.countFor(space));
        }
        for (byte[] name : names) {
            hub.unsubscribe(space, s, name);
            confirm(c.reply(), space.unsubscribeWord(), name, s.countFor(space));
        }
    }

    /** One (un)subscribe reply: the word, the name (null for none) and the count after it. */
    private static void confirm(ReplyWriter r, byte[] word, byte[] name, int count) {
        r.pushHeader(3);
        r.bulk(word);
        if (name == null) {
            r.nullBulk();
        } else {
            r.bulk(name);
        }
        r.integer(count);
    }

    /** PUBSUB CHANNELS / SHARDCHANNELS [pattern]. */
    private static void channels(Call c, Space space) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.subcommandSyntax(c.argString(1), "pubsub"));
        }
        List<byte[]> names = c.context().pubSub().activeNames(space, c.argc() == 3 ? c.arg(2) : null);
        c.reply().arrayHeader(names.size());
        names.forEach(c.reply()::bulk);
    }

    /** PUBSUB NUMSUB / SHARDNUMSUB [channel ...]: each channel and its subscriber count, as a flat array. */
    private static void numsub(Call c, Space space) {
        PubSub hub = c.context().pubSub();
        c.reply().arrayHeader((c.argc() - 2) * 2);
        for (int i = 2; i < c.argc(); i++) {
            c.reply().bulk(c.arg(i));
            c.reply().integer(hub.subscriberCount(space, c.arg(i)));
        }
    }

    private static void help(Call c) {
        ServerCommands.help(c, "PUBSUB",
                "CHANNELS [<pattern>]",
                "    The channels with at least one subscriber, those matching <pattern> if given.",
                "NUMPAT",
                "    How many distinct patterns have a subscriber.",
                "NUMSUB [<channel> ...]",
                "    Each channel with its number of subscribers (pattern subscriptions not counted).",
                "SHARDCHANNELS [<pattern>]",
                "    The shard channels with at least one subscriber, those matching <pattern> if given.",
                "SHARDNUMSUB [<shardchannel> ...]",
                "    Each shard channel with its number of subscribers.",
                "HELP",
                "    Print this help.");
    }
}
