package dev.ordo.console;

import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.registry.PatternInfo;
import dev.ordo.patterns.registry.PatternRegistry;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.server.Ordo;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * The browser tests' data and consoles: an embedded Ordo holding a board ({@code game}, 60
 * players), a periodic board ({@code season}: daily and all-time, one member on the all-time
 * board only), a priority queue ({@code tasks}), two delayed queues ({@code jobs}, empty of dead letters until a test makes one;
 * {@code mail}, with one dead letter, one in-flight job and jobs due over the next half hour) and
 * a sliding-window limiter ({@code api}, 5 a minute), all written through the pattern classes and
 * registered in the {@link PatternRegistry}; served by a writable console and a read-only one.
 */
final class ConsoleFixture implements AutoCloseable {
    static final int PLAYERS = 60;

    final Ordo ordo = Ordo.embedded();
    final Store store = EmbeddedStore.on(ordo.engine());
    final Leaderboard game = Leaderboard.create(store, "game", BoardOptions.highestFirst());
    final PeriodicLeaderboard season = PeriodicLeaderboard.builder(store, "season").options(BoardOptions.highestFirst())
            .zone(ZoneOffset.UTC).period(Period.daily()).allTime().build();
    final PriorityJobQueue<String> tasks = PriorityJobQueue.create(store, "tasks");
    final DelayedJobQueue<String> jobs = DelayedJobQueue.create(store, "jobs", queueOptions());
    final DelayedJobQueue<String> mail = DelayedJobQueue.create(store, "mail", queueOptions());
    final SlidingWindowLimiter api = SlidingWindowLimiter.create(store, "api", new Limit(5, Duration.ofMinutes(1)));
    final Console writableConsole = console(true);
    private final Console readOnlyConsole = console(false);
    final ConsoleServer writable;
    final ConsoleServer readOnly;

    ConsoleFixture() throws InterruptedException {
        PatternRegistry.on(store).register(List.of(
                board("game"),
                new PatternInfo(PatternInfo.Kind.LEADERBOARD, "season", Map.of("order", "highest-first", "tie-rule", "member-order",
                        "period", "daily,all-time", "zone", "UTC")),
                new PatternInfo(PatternInfo.Kind.PRIORITY_QUEUE, "tasks", Map.of()),
                queue("jobs"),
                queue("mail"),
                new PatternInfo(PatternInfo.Kind.RATE_LIMITER, "api", Map.of("algorithm", "sliding-window", "limits", "5/PT1M"))));
        for (int i = 1; i <= PLAYERS; i++) {
            game.setScore(String.format("player-%02d", i), i * 10);
        }
        for (String player : List.of("ana", "ben", "cleo")) {
            season.setScoreAll(player, player.length() * 10 + player.charAt(0));
        }
        season.allTime().setScore("veteran", 10_000);
        for (int i = 0; i < 12; i++) {
            tasks.offer(i % 3 * 5, "task-" + i);
        }
        for (int i = 0; i < 40; i++) {
            mail.schedule("newsletter-" + i, "{\"to\":\"reader-" + i + "\"}", Due.in(Duration.ofMinutes(i % 20 + 1).plusSeconds(30)));
        }
        mail.schedule("bounce", "{\"to\":\"nobody\"}", Due.now());
        mail.nack(mail.claim(1).get(0), "mailbox unavailable");
        mail.schedule("digest", "{\"to\":\"all\"}", Due.now());
        mail.claim(1);
        ConsoleHttp writableHttp = new ConsoleHttp(writableConsole);
        ConsoleHttp readOnlyHttp = new ConsoleHttp(readOnlyConsole);
        writable = ConsoleServer.start("127.0.0.1", 0, (user, password) -> writableHttp);
        readOnly = ConsoleServer.start("127.0.0.1", 0, (user, password) -> readOnlyHttp);
    }

    /** Registers another leaderboard, highest first, member order. */
    void registerBoard(String name) {
        PatternRegistry.on(store).register(List.of(board(name)));
    }

    /** Fills the board {@code name} with {@code members} members m0000000.. scored 0.., by ZADD in batches of 1000. */
    void fill(String name, int members) {
        for (int from = 0; from < members; from += 1000) {
            StoreCommand zadd = StoreCommand.of("ZADD").key("{" + name + "}");
            for (int i = from; i < Math.min(members, from + 1000); i++) {
                zadd.arg(i).arg(String.format("m%07d", i));
            }
            store.call(zadd);
        }
    }

    /** Sets {@code count} string keys {@code prefix0}, {@code prefix1}... in one MSET. */
    void strings(String prefix, int count) {
        StoreCommand mset = StoreCommand.of("MSET");
        for (int i = 0; i < count; i++) {
            mset.key(prefix + i).arg("v");
        }
        store.call(mset);
    }

    long zrank(String key, String member) {
        return store.call(StoreCommand.of("ZRANK").key(key).arg(member)).asLong();
    }

    static String url(ConsoleServer server) {
        return "http://127.0.0.1:" + server.port() + "/";
    }

    private static PatternInfo board(String name) {
        return new PatternInfo(PatternInfo.Kind.LEADERBOARD, name, Map.of("order", "highest-first", "tie-rule", "member-order"));
    }

    private static PatternInfo queue(String name) {
        return new PatternInfo(PatternInfo.Kind.DELAYED_QUEUE, name, Map.of("visibility-timeout", "PT5M", "max-attempts", "1"));
    }

    private static DelayedJobQueue.Options queueOptions() {
        return DelayedJobQueue.Options.defaults().withVisibilityTimeout(Duration.ofMinutes(5)).withMaxAttempts(1);
    }

    private Console console(boolean canWrite) {
        return new Console(store, "embedded Ordo", ConsoleOptions.readOnly().withWritable(canWrite).withSampleEvery(Duration.ofMillis(500)));
    }

    @Override
    public void close() {
        writable.close();
        readOnly.close();
        writableConsole.close();
        readOnlyConsole.close();
        store.close();
        ordo.close();
    }
}
