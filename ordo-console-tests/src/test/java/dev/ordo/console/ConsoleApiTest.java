package dev.ordo.console;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.CompositeLeaderboard;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ScoreCodec;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.leaderboard.TieRule;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.ratelimit.TokenBucketLimiter;
import dev.ordo.patterns.registry.PatternInfo;
import dev.ordo.patterns.registry.PatternRegistry;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's JSON API, request by request through {@link ConsoleHttp}, on every back end the
 * patterns run on (embedded Ordo, an Ordo server, one as an ACL user, Redis, Redis Cluster): what
 * each endpoint answers is checked against what the patterns themselves say of the same data.
 * Each test keeps its own registry key and pattern names, so tests share a back end safely.
 */
class ConsoleApiTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A console on {@code backend} with its own registry, writable or not, and that registry. */
    private record Fixture(Store store, PatternRegistry registry, ConsoleHttp http, Console console) {
        static Fixture on(Backend backend, boolean writable) {
            String registryKey = Backend.uniqueName("registry");
            Console console = new Console(backend.store(), backend.nodes(), backend.name(),
                    ConsoleOptions.readOnly().withWritable(writable).withMaxPage(100).withRegistryKey(registryKey));
            return new Fixture(backend.store(), PatternRegistry.on(backend.store(), registryKey), new ConsoleHttp(console), console);
        }

        ConsoleHttp.Response send(String method, String path, String body) {
            Map<String, String> query = new HashMap<>();
            String bare = path;
            int q = path.indexOf('?');
            if (q >= 0) {
                bare = path.substring(0, q);
                for (String pair : path.substring(q + 1).split("&")) {
                    int eq = pair.indexOf('=');
                    query.put(pair.substring(0, eq), java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
            return http.handle(new ConsoleHttp.Request(method, bare, query, body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8),
                    "tester", true));
        }

        JsonNode get(String path) {
            ConsoleHttp.Response r = send("GET", path, null);
            assertThat(r.status()).as("GET %s: %s", path, new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
            return JSON.readTree(r.body());
        }

        JsonNode write(String method, String path, String body) {
            ConsoleHttp.Response r = send(method, path, body);
            assertThat(r.status()).as("%s %s: %s", method, path, new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
            return JSON.readTree(r.body());
        }
    }

    private static String enc(String segment) {
        return java.net.URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @OnEveryBackend
    void patterns_listEveryRegisteredPatternWithItsSettings(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        String board = Backend.uniqueName("game");
        String queue = Backend.uniqueName("jobs");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, board, Map.of("tie-rule", "competition")),
                new PatternInfo(PatternInfo.Kind.DELAYED_QUEUE, queue, Map.of("max-attempts", "3"))));

        JsonNode patterns = f.get("/api/patterns");

        assertThat(patterns).hasSize(2);
        assertThat(patterns.get(0).get("kind").asString()).isEqualTo("leaderboard");
        assertThat(patterns.get(0).get("name").asString()).isEqualTo(board);
        assertThat(patterns.get(0).get("settings").get("tie-rule").asString()).isEqualTo("competition");
        assertThat(patterns.get(1).get("kind").asString()).isEqualTo("delayed-queue");
    }

    @OnEveryBackend
    void board_pagesSearchAndAroundMe_matchTheBoardsOwnRanks(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        String name = Backend.uniqueName("game");
        BoardOptions options = BoardOptions.highestFirst().withTieRule(TieRule.COMPETITION);
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, name, Map.of("tie-rule", "competition"))));
        Leaderboard board = Leaderboard.create(f.store(), name, options);
        for (int i = 0; i < 30; i++) {
            board.setScore("p/" + i, i % 10);
        }

        JsonNode page = f.get("/api/boards/" + enc(name) + "?offset=10&limit=10");
        JsonNode hit = f.get("/api/boards/" + enc(name) + "/members/" + enc("p/15") + "?window=2");

        assertThat(page.get("count").asLong()).isEqualTo(30);
        assertThat(page.get("tieRule").asString()).isEqualTo("competition");
        assertThat(page.get("rows")).hasSize(10);
        for (JsonNode row : page.get("rows")) {
            assertThat(row.get("rank").asLong()).as(row.get("member").asString()).isEqualTo(board.rank(row.get("member").asString()).orElseThrow());
        }
        assertThat(hit.get("found").asBoolean()).isTrue();
        assertThat(hit.get("rank").asLong()).isEqualTo(board.rank("p/15").orElseThrow());
        assertThat(hit.get("score").asDouble()).isEqualTo(5.0);
        List<String> around = new ArrayList<>();
        hit.get("around").forEach(r -> around.add(r.get("member").asString()));
        assertThat(around).containsExactlyElementsOf(board.around("p/15", 5).stream().map(e -> e.member()).toList());
        assertThat(f.get("/api/boards/" + enc(name) + "/members/nobody").get("found").asBoolean()).isFalse();
    }

    @OnEveryBackend
    void compositeBoard_rowsCarryTheDecodedDimensions(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        String name = Backend.uniqueName("ranked");
        ScoreCodec codec = ScoreCodec.builder().dimension("wins", 20, ScoreCodec.Direction.HIGHER_RANKS_FIRST)
                .dimension("finishedAt", 33, ScoreCodec.Direction.LOWER_RANKS_FIRST).build();
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, name, Map.of("dimensions", codec.spec()))));
        CompositeLeaderboard board = CompositeLeaderboard.of(Leaderboard.create(f.store(), name, BoardOptions.highestFirst()), codec);
        board.set("early", 7, 1_000);
        board.set("late", 7, 2_000);
        board.set("best", 9, 5_000);

        JsonNode page = f.get("/api/boards/" + enc(name) + "?limit=10");
        JsonNode late = f.get("/api/boards/" + enc(name) + "/members/late?window=0");

        assertThat(page.get("dimensions").toString()).isEqualTo("[\"wins\",\"finishedAt\"]");
        List<String> order = new ArrayList<>();
        page.get("rows").forEach(r -> order.add(r.get("member").asString()));
        assertThat(order).containsExactly("best", "early", "late");
        assertThat(page.get("rows").get(1).get("dimensions").get("wins").asLong()).isEqualTo(7);
        assertThat(page.get("rows").get(1).get("dimensions").get("finishedAt").asLong()).isEqualTo(1_000);
        assertThat(late.get("dimensions").get("finishedAt").asLong()).isEqualTo(2_000);
        assertThat(late.get("rank").asLong()).isEqualTo(3);
    }

    @OnEveryBackend
    void board_editAndRemove_whenWritable_changeTheBoardAndAnswerTheNewRank(Backend backend) {
        Fixture f = Fixture.on(backend, true);
        String name = Backend.uniqueName("game");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, name, Map.of())));
        Leaderboard board = Leaderboard.create(f.store(), name, BoardOptions.highestFirst());
        board.setScore("alice", 10);
        board.setScore("bob", 20);

        JsonNode placed = f.write("PUT", "/api/boards/" + enc(name) + "/members/alice", "{\"score\": 30}");
        JsonNode removed = f.write("DELETE", "/api/boards/" + enc(name) + "/members/bob", null);

        assertThat(placed.get("rank").asLong()).isEqualTo(1).isEqualTo(board.rank("alice").orElseThrow());
        assertThat(board.score("alice").orElseThrow()).isEqualTo(30.0);
        assertThat(removed.get("removed").asBoolean()).isTrue();
        assertThat(board.rank("bob")).isEmpty();
    }

    @OnEveryBackend
    void writes_whenReadOnly_orWithoutThePagesHeader_areRefusedAndChangeNothing(Backend backend) {
        Fixture readOnly = Fixture.on(backend, false);
        String name = Backend.uniqueName("game");
        readOnly.registry().register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, name, Map.of())));
        Leaderboard board = Leaderboard.create(readOnly.store(), name, BoardOptions.highestFirst());
        board.setScore("alice", 10);
        Fixture writable = new Fixture(readOnly.store(), readOnly.registry(), new ConsoleHttp(new Console(readOnly.store(), "w",
                ConsoleOptions.readOnly().withWritable(true).withRegistryKey(readOnly.registry().key()))), null);

        ConsoleHttp.Response refused = readOnly.send("PUT", "/api/boards/" + enc(name) + "/members/alice", "{\"score\": 99}");
        ConsoleHttp.Response unmarked = writable.http().handle(new ConsoleHttp.Request("DELETE", "/api/boards/" + enc(name) + "/members/alice",
                Map.of(), new byte[0], "tester", false));

        assertThat(refused.status()).isEqualTo(403);
        assertThat(new String(refused.body(), StandardCharsets.UTF_8)).contains("read-only");
        assertThat(unmarked.status()).isEqualTo(403);
        assertThat(new String(unmarked.body(), StandardCharsets.UTF_8)).contains("X-Ordo-Console");
        assertThat(board.score("alice").orElseThrow()).isEqualTo(10.0);
    }

    @OnEveryBackend
    void periodicAndShardedBoards_showTheirPeriodsAndTheMergedShards(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        String periodicName = Backend.uniqueName("weekly");
        String shardedName = Backend.uniqueName("big");
        f.registry().register(List.of(
                new PatternInfo(PatternInfo.Kind.LEADERBOARD, periodicName, Map.of("period", "daily,all-time")),
                new PatternInfo(PatternInfo.Kind.LEADERBOARD, shardedName, Map.of("shards", "4"))));
        PeriodicLeaderboard periodic = PeriodicLeaderboard.builder(f.store(), periodicName).period(Period.daily()).allTime()
                .options(BoardOptions.highestFirst()).build();
        periodic.addPoints("alice", 5);
        periodic.current(Period.daily()).addPoints("bob", 7);
        ShardedLeaderboard sharded = ShardedLeaderboard.create(f.store(), shardedName, 4, BoardOptions.highestFirst());
        for (int i = 0; i < 20; i++) {
            sharded.setScore("m" + i, i);
        }

        JsonNode daily = f.get("/api/boards/" + enc(periodicName) + "?limit=10&period=daily");
        JsonNode allTime = f.get("/api/boards/" + enc(periodicName) + "?limit=10&period=all-time");
        JsonNode merged = f.get("/api/boards/" + enc(shardedName) + "?offset=5&limit=5");

        assertThat(daily.get("kind").asString()).isEqualTo("periodic");
        assertThat(daily.get("rows").get(0).get("member").asString()).isEqualTo("bob");
        assertThat(daily.get("count").asLong()).isEqualTo(2);
        assertThat(allTime.get("count").asLong()).isEqualTo(1);
        assertThat(merged.get("kind").asString()).isEqualTo("sharded");
        assertThat(merged.get("count").asLong()).isEqualTo(20);
        List<String> members = new ArrayList<>();
        merged.get("rows").forEach(r -> members.add(r.get("member").asString()));
        assertThat(members).containsExactly("m14", "m13", "m12", "m11", "m10");
        assertThat(merged.get("rows").get(0).get("rank").asLong()).isEqualTo(6);
    }

    @OnEveryBackend
    void queue_countsInFlightDueAndDeadLetters_andRetryAndPurge(Backend backend) {
        Fixture f = Fixture.on(backend, true);
        String name = Backend.uniqueName("jobs");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.DELAYED_QUEUE, name, Map.of("max-attempts", "1", "visibility-timeout", "PT30S"))));
        DelayedJobQueue<String> queue = DelayedJobQueue.create(f.store(), name, DelayedJobQueue.Options.defaults().withMaxAttempts(1)
                .withVisibilityTimeout(Duration.ofSeconds(30)));
        for (String id : List.of("a", "b", "c")) {
            queue.schedule(id, "payload-" + id, Due.now());
        }
        queue.schedule("later", "x", Due.in(Duration.ofMinutes(5)));
        List<ClaimedJob<String>> claimed = queue.claim(3);
        queue.nack(claimed.get(0), "timeout");
        queue.nack(claimed.get(1), "timeout");

        JsonNode counts = f.get("/api/queues/" + enc(name)).get("counts");
        JsonNode dead = f.get("/api/queues/" + enc(name) + "/dead?limit=10");
        JsonNode inFlight = f.get("/api/queues/" + enc(name) + "/inflight?limit=10");
        JsonNode due = f.get("/api/queues/" + enc(name) + "/due?bucketMs=60000&buckets=10");

        assertThat(counts.get("dead").asLong()).isEqualTo(2);
        assertThat(counts.get("inFlight").asLong()).isEqualTo(1);
        assertThat(counts.get("delayed").asLong()).isEqualTo(1);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).get("reason").asString()).isEqualTo("timeout");
        assertThat(dead.get(0).get("count").asInt()).isEqualTo(2);
        assertThat(inFlight).hasSize(1);
        assertThat(inFlight.get(0).get("id").asString()).isEqualTo(claimed.get(2).id());
        assertThat(inFlight.get(0).get("attempt").asInt()).isEqualTo(1);
        long dueTotal = 0;
        for (JsonNode c : due.get("counts")) {
            dueTotal += c.asLong();
        }
        assertThat(dueTotal).isEqualTo(1);
        assertThat(due.get("counts").get(4).asLong()).as("due in 5 minutes: the fifth minute's bucket").isEqualTo(1);

        String deadId = dead.get(0).get("jobs").get(0).get("id").asString();
        assertThat(f.write("POST", "/api/queues/" + enc(name) + "/dead/retry", "{\"ids\": [\"" + deadId + "\"]}").get("retried").asInt()).isEqualTo(1);
        DelayedJobQueue.Counts afterRetry = queue.counts();
        assertThat(afterRetry.dead()).isEqualTo(1);
        assertThat(afterRetry.ready()).isEqualTo(1);
        assertThat(f.write("POST", "/api/queues/" + enc(name) + "/dead/purge", "{\"max\": 10}").get("purged").asInt()).isEqualTo(1);
        assertThat(queue.counts().dead()).isZero();
    }

    @OnEveryBackend
    void priorityQueue_depthPerPriority(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        String name = Backend.uniqueName("prio");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.PRIORITY_QUEUE, name, Map.of())));
        PriorityJobQueue<String> queue = PriorityJobQueue.create(f.store(), name);
        queue.offerAll(0, List.of("a", "b"));
        queue.offer(7, "c");
        queue.offerAll(1023, List.of("d", "e", "f"));

        JsonNode view = f.get("/api/queues/" + enc(name));

        assertThat(view.get("type").asString()).isEqualTo("priority");
        assertThat(view.get("depthByPriority").get("0").asLong()).isEqualTo(2);
        assertThat(view.get("depthByPriority").get("7").asLong()).isEqualTo(1);
        assertThat(view.get("depthByPriority").get("1023").asLong()).isEqualTo(3);
        assertThat(view.get("depthByPriority")).hasSize(3);
        assertThat(view.get("counts").get("ready").asLong()).isEqualTo(6);
    }

    @OnEveryBackend
    void limiter_keysNearestTheirLimitFirst_andPeekingTakesNoPermit(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        String name = Backend.uniqueName("api");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.RATE_LIMITER, name, Map.of("limits", "10/PT1M"))));
        SlidingWindowLimiter limiter = SlidingWindowLimiter.create(f.store(), name, new Limit(10, Duration.ofMinutes(1)));
        for (int i = 0; i < 8; i++) {
            limiter.tryAcquire("busy/user");
        }
        limiter.tryAcquire("quiet");

        JsonNode view = f.get("/api/limiters/" + enc(name) + "?top=10&count=100");
        JsonNode one = f.get("/api/limiters/" + enc(name) + "/keys/" + enc("busy/user"));

        assertThat(view.get("keysSeen").asInt()).isEqualTo(2);
        assertThat(view.get("nearest").get(0).get("key").asString()).isEqualTo("busy/user");
        assertThat(view.get("nearest").get(0).get("remaining").asLong()).isEqualTo(2);
        assertThat(view.get("nearest").get(0).get("used").asDouble()).isEqualTo(0.8);
        assertThat(view.get("nearest").get(1).get("key").asString()).isEqualTo("quiet");
        assertThat(one.get("remaining").asLong()).isEqualTo(2);
        assertThat(limiter.tryAcquire("busy/user").remaining()).as("the console's reads took no permit").isEqualTo(1);
    }

    @OnEveryBackend
    void tokenBucketLimiter_standingOfAKey(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        String name = Backend.uniqueName("tb");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.RATE_LIMITER, name,
                Map.of("algorithm", "token-bucket", "limits", "5/PT1H"))));
        TokenBucketLimiter limiter = TokenBucketLimiter.create(f.store(), name, TokenBucketLimiter.Bucket.of(new Limit(5, Duration.ofHours(1))));
        limiter.tryAcquire("k", 3);

        JsonNode one = f.get("/api/limiters/" + enc(name) + "/keys/k");
        JsonNode fresh = f.get("/api/limiters/" + enc(name) + "/keys/never-seen");

        assertThat(one.get("remaining").asLong()).isEqualTo(2);
        assertThat(fresh.get("remaining").asLong()).isEqualTo(5);
        assertThat(f.store().call(StoreCommand.of("EXISTS").key("{" + name.replace(":", "\\:") + ":never-seen}:tb")).asLong())
                .as("peeking a key created nothing").isZero();
    }

    @OnEveryBackend
    void keyBrowser_walksEveryNode_andTheZsetViewCarriesRanks(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        String prefix = Backend.uniqueName("browse");
        Set<String> made = new HashSet<>();
        for (int i = 0; i < 12; i++) {
            String key = prefix + ":k" + i;
            f.store().call(StoreCommand.of("ZADD").key(key).arg(1).arg("a").arg(2).arg("b").arg(3).arg("c"));
            made.add(key);
        }
        String zset = prefix + ":k0";

        Set<String> seen = new HashSet<>();
        String cursor = "0";
        int steps = 0;
        do {
            JsonNode page = f.get("/api/keys?match=" + enc(prefix.replace("*", "\\*")) + "*&count=1000&cursor=" + cursor);
            page.get("keys").forEach(k -> {
                seen.add(k.get("key").asString());
                assertThat(k.get("type").asString()).isEqualTo("zset");
            });
            cursor = page.get("cursor").asString();
        } while (!cursor.equals("0") && ++steps < 100);
        JsonNode byRank = f.get("/api/zsets/" + enc(zset) + "?start=1&count=2");
        JsonNode byScore = f.get("/api/zsets/" + enc(zset) + "?min=" + enc("(1") + "&max=3&rev=true");
        JsonNode byLex = f.get("/api/zsets/" + enc(zset) + "?lexMin=" + enc("[b") + "&lexMax=%2B");

        assertThat(seen).isEqualTo(made);
        assertThat(byRank.get("card").asLong()).isEqualTo(3);
        assertThat(byRank.get("encoding").asString()).isEqualTo("listpack");
        assertThat(byRank.get("rows").get(0).get("member").asString()).isEqualTo("b");
        assertThat(byRank.get("rows").get(0).get("rank").asLong()).isEqualTo(1);
        assertThat(byScore.get("rows")).hasSize(2);
        assertThat(byScore.get("rows").get(0).get("member").asString()).isEqualTo("c");
        assertThat(byScore.get("rows").get(0).get("rank").asLong()).as("ZREVRANK of c").isZero();
        assertThat(byLex.get("rows").get(1).get("member").asString()).isEqualTo("c");
        assertThat(byLex.get("rows").get(1).get("rank").asLong()).isEqualTo(2);
        assertThat(byLex.get("rows").get(1).get("score").asDouble()).isEqualTo(3.0);
    }

    @OnEveryBackend
    void overview_readsTheServersFigures(Backend backend) {
        Fixture f = Fixture.on(backend, false);
        f.store().call(StoreCommand.of("ZADD").key(Backend.uniqueName("counted")).arg(1).arg("a"));

        JsonNode now = f.get("/api/overview").get("now");
        JsonNode about = f.get("/api/about");

        assertThat(now.get("keys").asLong()).isPositive();
        assertThat(now.get("clients").asLong()).isPositive();
        assertThat(now.get("usedMemory").asLong()).isPositive();
        assertThat(about.get("writable").asBoolean()).isFalse();
        assertThat(about.get("clustered").asBoolean()).isEqualTo(backend == Backend.REDIS_CLUSTER);
    }

    @OnEveryBackend
    void badRequests_getClearErrors(Backend backend) {
        Fixture f = Fixture.on(backend, true);
        String name = Backend.uniqueName("game");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, name, Map.of())));

        assertThat(status(f, "GET", "/api/boards/" + enc(name) + "?limit=101", null)).isEqualTo(400);
        assertThat(status(f, "GET", "/api/boards/" + enc(name) + "?limit=x", null)).isEqualTo(400);
        assertThat(status(f, "GET", "/api/boards/nope", null)).isEqualTo(404);
        assertThat(status(f, "GET", "/api/keys?cursor=abc", null)).isEqualTo(400);
        assertThat(status(f, "GET", "/api/keys?count=100000", null)).isEqualTo(400);
        assertThat(status(f, "PUT", "/api/boards/" + enc(name) + "/members/a", "not json")).isEqualTo(400);
        assertThat(status(f, "PUT", "/api/boards/" + enc(name) + "/members/a", "x".repeat(ConsoleHttp.MAX_BODY + 1))).isEqualTo(413);
        assertThat(status(f, "POST", "/api/boards/" + enc(name), null)).isEqualTo(405);
        assertThat(status(f, "GET", "/api/nothing", null)).isEqualTo(404);
        assertThat(status(f, "GET", "/assets/..%2F..%2Fsecret", null)).isEqualTo(404);
        assertThat(status(f, "GET", "/api/boards/" + enc(name) + "?limit=4294967346", null)).as("a limit past int does not wrap").isEqualTo(400);
        assertThat(status(f, "PUT", "/api/boards/" + enc(name) + "/members/a", "{\"score\": null}")).isEqualTo(400);
        assertThat(status(f, "PUT", "/api/boards/" + enc(name) + "/members/a", "{\"score\": \"12\"}")).isEqualTo(400);
        assertThat(status(f, "PUT", "/api/boards/" + enc(name) + "/members/a", "{}")).isEqualTo(400);
        assertThat(status(f, "PUT", "/api/boards/" + enc(name) + "/members/a?period=daily", "{\"score\": 1}"))
                .as("a board without periods").isEqualTo(400);
        assertThat(Leaderboard.create(f.store(), name, BoardOptions.highestFirst()).count()).as("nothing was written").isZero();
    }

    @OnEveryBackend
    void badRequests_onQueues_andBadRegisteredSettings_getClearErrors(Backend backend) {
        Fixture f = Fixture.on(backend, true);
        String queue = Backend.uniqueName("jobs");
        String broken = Backend.uniqueName("broken");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.DELAYED_QUEUE, queue, Map.of()),
                new PatternInfo(PatternInfo.Kind.DELAYED_QUEUE, broken, Map.of("visibility-timeout", "thirty seconds"))));

        assertThat(status(f, "POST", "/api/queues/" + enc(queue) + "/dead/purge", "{\"max\": \"all\"}")).isEqualTo(400);
        assertThat(status(f, "POST", "/api/queues/" + enc(queue) + "/dead/purge", "{\"max\": 1.5}")).isEqualTo(400);
        assertThat(status(f, "POST", "/api/queues/" + enc(queue) + "/dead/retry", "{\"ids\": [1, 2]}")).isEqualTo(400);
        assertThat(status(f, "POST", "/api/queues/" + enc(queue) + "/dead/retry", "{}")).isEqualTo(400);
        assertThat(status(f, "GET", "/api/queues/" + enc(queue) + "/due?bucketMs=9223372036854775807", null)).isEqualTo(400);
        ConsoleHttp.Response badSetting = f.send("GET", "/api/queues/" + enc(broken) + "/inflight", null);
        assertThat(badSetting.status()).isEqualTo(400);
        assertThat(new String(badSetting.body(), StandardCharsets.UTF_8)).contains("thirty seconds");
    }

    @OnEveryBackend
    void periodicBoard_writesOnlyToAPeriodItKeeps_withItsRegisteredRetention(Backend backend) {
        Fixture f = Fixture.on(backend, true);
        String name = Backend.uniqueName("daily");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, name,
                Map.of("period", "daily", "retention", "PT1H"))));
        PeriodicLeaderboard periodic = PeriodicLeaderboard.builder(f.store(), name).period(Period.daily())
                .retention(Duration.ofHours(1)).options(BoardOptions.highestFirst()).build();

        assertThat(status(f, "PUT", "/api/boards/" + enc(name) + "/members/a?period=weekly", "{\"score\": 3}")).isEqualTo(400);
        assertThat(status(f, "PUT", "/api/boards/" + enc(name) + "/members/a?period=all-time", "{\"score\": 3}")).isEqualTo(400);
        f.write("PUT", "/api/boards/" + enc(name) + "/members/a?period=daily", "{\"score\": 3}");

        Leaderboard today = periodic.current(Period.daily());
        assertThat(today.score("a")).hasValue(3.0);
        long ttl = f.store().call(StoreCommand.of("TTL").key(today.key())).asLong();
        assertThat(ttl).as("the day's end plus the registered hour, not the default week").isPositive().isLessThanOrEqualTo(25 * 3600);
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            JsonNode page = f.get("/api/keys?count=1000&cursor=" + enc(cursor) + "&match=" + enc("*" + name + "*"));
            page.get("keys").forEach(k -> keys.add(k.get("key").asString()));
            cursor = page.get("cursor").asString();
        } while (!cursor.equals("0"));
        assertThat(keys).as("the refused writes left no key behind").containsExactly(today.key());
    }

    @org.junit.jupiter.api.Test
    void writes_areLoggedWithWhoAskedAndWhat() {
        Fixture f = Fixture.on(Backend.EMBEDDED, true);
        String name = Backend.uniqueName("logged");
        f.registry().register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, name, Map.of())));
        List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(Console.class.getName());
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                logged.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(capture);
        try {
            f.write("PUT", "/api/boards/" + enc(name) + "/members/alice", "{\"score\": 5}");
            f.write("DELETE", "/api/boards/" + enc(name) + "/members/alice", null);
        } finally {
            log.removeHandler(capture);
        }

        assertThat(logged).hasSize(2);
        assertThat(logged.get(0)).contains("tester", name, "alice", "5.0");
        assertThat(logged.get(1)).contains("tester", name, "alice", "removed");
    }

    @OnEveryBackend
    void overview_readingsBetweenTheFeedsDoNotJoinItsHistory(Backend backend) {
        Fixture f = Fixture.on(backend, false);

        for (int i = 0; i < 3; i++) {
            assertThat(f.get("/api/overview").get("now").get("keys").isNumber()).isTrue();
        }

        assertThat(f.get("/api/overview").get("history")).as("no dashboard watches, so no readings are kept").isEmpty();
    }

    private static int status(Fixture f, String method, String path, String body) {
        return f.send(method, path, body).status();
    }
}
