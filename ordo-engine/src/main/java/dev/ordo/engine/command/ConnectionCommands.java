package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.Errors;

/** Connection commands: PING, ECHO, SELECT (the others arrive with their issue's work). */
final class ConnectionCommands {
    private ConnectionCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("ping", -1, "fast", 0, 0, 0, "connection", ConnectionCommands::ping));
        table.register(Command.of("echo", 2, "fast", 0, 0, 0, "connection", c -> c.reply().bulk(c.arg(1))));
        table.register(Command.of("select", 2, "loading stale fast", 0, 0, 0, "connection", ConnectionCommands::select));
    }

    /** PING [message]: PONG, or the message as a bulk string. */
    private static void ping(Call c) {
        if (c.argc() > 2) {
            throw new ErrorReply(Errors.wrongArity("ping"));
        }
        if (c.argc() == 2) {
            c.reply().bulk(c.arg(1));
        } else {
            c.reply().simpleString("PONG");
        }
    }

    /** SELECT index. */
    private static void select(Call c) {
        long index = Call.parseLong(c.arg(1), Errors.INVALID_DB);
        if (index < 0 || index >= c.keyspace().databases()) {
            throw new ErrorReply(Errors.DB_INDEX);
        }
        c.session().selectDb((int) index);
        c.reply().simpleString("OK");
    }
}
