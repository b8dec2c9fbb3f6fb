package dev.ordo.engine.command;

/**
 * Runs one command. Validates every argument before changing anything and writes its reply only
 * once it cannot fail any more; failures are thrown as {@link dev.ordo.engine.error.ErrorReply}.
 */
@FunctionalInterface
public interface CommandHandler {
    /**
     * Runs the command {@code call} holds, writing its reply to {@link Call#reply()}.
     *
     * @param call the command, its arguments and its client
     */
    void execute(Call call);
}
