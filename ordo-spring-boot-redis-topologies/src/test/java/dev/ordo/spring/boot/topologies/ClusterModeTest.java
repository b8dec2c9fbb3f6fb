package dev.ordo.spring.boot.topologies;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.queue.Job;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.spring.boot.EmbeddedOrdo;
import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.Leaderboards;
import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.RateLimiters;
import dev.ordo.spring.boot.health.OrdoHealthAutoConfiguration;
import dev.ordo.spring.boot.health.OrdoHealthIndicator;
import dev.ordo.spring.boot.jobs.OrdoJobsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis mode on a Redis Cluster, end to end: the three-master cluster of
 * {@link Backend#REDIS_CLUSTER} (real {@code redis-server} processes on free loopback ports), named
 * to the application in {@code spring.data.redis.cluster.nodes}, with an ACL user for the data that
 * every connection to every node authenticates as. The declared patterns work
 * through the store's cluster connection, whatever node their slots are on; each node is then
 * read on its own (standalone connections, which are not redirected) to see where their keys went:
 * a queue's and a limiter key's keys together on one node, a sharded board's shards on several.
 */
class ClusterModeTest {
    private static final String DATA_USER = "ordo-app";
    private static final String DATA_PASSWORD = "data-user-pass";

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class, OrdoPatternsAutoConfiguration.class,
            OrdoJobsAutoConfiguration.class, OrdoHealthAutoConfiguration.class, HealthContributorAutoConfiguration.class,
            HealthContributorRegistryAutoConfiguration.class));

    @Test
    void clusterNodesAndDataUser_declaredPatternsWorkAcrossTheNodes() {
        List<Store> nodes = Backend.REDIS_CLUSTER.nodes();
        Backend.REDIS_CLUSTER.flush();
        for (Store node : nodes) {
            node.call(StoreCommand.of("ACL").arg("SETUSER").arg(DATA_USER).arg("on").arg(">" + DATA_PASSWORD).arg("~*").arg("+@all"));
        }
        // Each node's connections the fixture has open (its own cluster store's among them), each "id=<n>"
        List<Set<String>> fixtureClients = nodes.stream()
                .map(node -> clients(node).stream().map(client -> client.split(" ")[0]).collect(Collectors.toSet())).toList();
        String seeds = nodes.stream().map(node -> "127.0.0.1:" + port(node)).collect(Collectors.joining(","));

        runner.withBean(TicketHandler.class).withPropertyValues(
                "spring.data.redis.cluster.nodes=" + seeds,
                "spring.data.redis.username=" + DATA_USER,
                "spring.data.redis.password=" + DATA_PASSWORD,
                "ordo.leaderboards.weekly.order=highest-first",
                "ordo.leaderboards.global.shards=8",
                "ordo.rate-limits.api.limits=2/1h",
                "ordo.leaderboards.games.period=daily,weekly,all-time",
                "ordo.leaderboards.profiles.metadata=true",
                "ordo.leaderboards.hot.cache-top.size=2",
                "ordo.rate-limits.login.limits=3/1m,5/1h",
                "ordo.rate-limits.login.algorithm=sliding-log",
                "ordo.rate-limits.burst.limits=1/1h",
                "ordo.rate-limits.burst.algorithm=token-bucket",
                "ordo.queues.emails.type=priority",
                "ordo.queues.reminders.max-attempts=3",
                "ordo.queues.tickets.concurrency=2",
                "ordo.queues.tickets.poll-wait=200ms").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedOrdo.class);
            Store store = context.getBean(Store.class);
            assertThat(store).isInstanceOf(LettuceStore.class);
            assertThat(store.call(StoreCommand.of("CLUSTER").arg("INFO")).asString()).contains("cluster_state:ok");

            context.getBean(StringRedisTemplate.class).opsForValue().set("written-by-template", "yes");
            assertThat(store.call(StoreCommand.of("GET").key("written-by-template")).asString()).isEqualTo("yes");
            assertThat(nodesHolding(nodes, "written-by-template")).isEqualTo(1);

            Leaderboard weekly = context.getBean(Leaderboards.class).get("weekly");
            weekly.addPoints("alice", 5);
            weekly.addPoints("bob", 7);
            assertThat(weekly.top(2)).extracting(Entry::member).containsExactly("bob", "alice");
            assertThat(nodesHolding(nodes, weekly.key())).isEqualTo(1);

            RateLimiter api = context.getBean(RateLimiters.class).get("api");
            assertThat(api.tryAcquire("u1").allowed()).isTrue();
            assertThat(api.tryAcquire("u1").allowed()).isTrue();
            assertThat(api.tryAcquire("u1").allowed()).isFalse();
            assertThat(api.tryAcquire("u2").allowed()).isTrue();
            assertThat(nodesHolding(nodes, "*api*u1*")).isEqualTo(1);

            DelayedJobQueue<String> reminders = context.getBean(JobQueues.class).delayed("reminders");
            assertThat(reminders.schedule("r1", "call mum", Due.now())).isTrue();
            assertThat(reminders.schedule("r2", "water plants", Due.now())).isTrue();
            List<ClaimedJob<String>> claimed = reminders.claim(1);
            assertThat(claimed).hasSize(1);
            assertThat(reminders.ack(claimed.get(0))).isTrue();
            assertThat(reminders.counts().ready()).isEqualTo(1);
            assertThat(nodesHolding(nodes, "*reminders*")).isEqualTo(1);

            ShardedLeaderboard global = context.getBean(Leaderboards.class).sharded("global");
            for (int i = 0; i < 40; i++) {
                global.setScore("player-" + i, i);
            }
            assertThat(global.count()).isEqualTo(40);
            assertThat(global.top(2)).extracting(Entry::member).containsExactly("player-39", "player-38");
            assertThat(global.rank("player-0")).hasValue(40);
            assertThat(global.around("player-20", 3)).extracting(Entry::member).containsExactly("player-21", "player-20", "player-19");
            assertThat(nodesHolding(nodes, "{global#*")).isGreaterThan(1);

            context.getBean(TicketHandler.class).scheduleThreeAndAwaitThem(context.getBean(JobQueues.class).delayed("tickets"));

            // Every connection the application opened to every node, the store's included, is the data user's
            for (int i = 0; i < nodes.size(); i++) {
                Set<String> before = fixtureClients.get(i);
                List<String> opened = clients(nodes.get(i)).stream().filter(client -> !before.contains(client.split(" ")[0])).toList();
                assertThat(opened).as("clients of node %d", i).isNotEmpty().allSatisfy(client -> assertThat(client).contains(" user=" + DATA_USER + " "));
            }

            // The other kinds properties declare, each on its own slot (or slots)
            Leaderboards boards = context.getBean(Leaderboards.class);
            PeriodicLeaderboard games = boards.periodic("games");
            assertThat(games.addPointsAll("alice", 5)).hasSize(3);
            assertThat(games.current(Period.daily()).score("alice")).hasValue(5);
            assertThat(games.allTime().score("alice")).hasValue(5);
            Leaderboard profiles = boards.get("profiles");
            profiles.setScore("alice", 3);
            profiles.setMetadata("alice", Map.of("country", "NZ"));
            assertThat(profiles.top(1)).singleElement().satisfies(entry -> assertThat(entry.metadata()).containsEntry("country", "NZ"));
            Leaderboard hot = boards.get("hot");
            hot.setScore("a", 1);
            hot.setScore("b", 2);
            hot.setScore("c", 3);
            assertThat(boards.cachedTop("hot").get()).extracting(Entry::member).containsExactly("c", "b");

            RateLimiter login = context.getBean(RateLimiters.class).get("login");
            for (int i = 0; i < 3; i++) {
                assertThat(login.tryAcquire("u1").allowed()).isTrue();
            }
            assertThat(login.tryAcquire("u1").allowed()).isFalse();
            RateLimiter burst = context.getBean(RateLimiters.class).get("burst");
            assertThat(burst.tryAcquire("u1").allowed()).isTrue();
            assertThat(burst.tryAcquire("u1").allowed()).isFalse();

            PriorityJobQueue<String> emails = context.getBean(JobQueues.class).priority("emails");
            emails.offer(5, "newsletter");
            emails.offer(0, "password reset");
            assertThat(emails.poll()).get().extracting(Job::payload).isEqualTo("password reset");
            assertThat(emails.poll()).get().extracting(Job::payload).isEqualTo("newsletter");

            Health health = context.getBean(OrdoHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("mode", "redis").containsKey("version");
        });
    }

    /** The port a node listens on, from its own configuration. */
    private static int port(Store node) {
        List<Reply> nameAndValue = node.call(StoreCommand.of("CONFIG").arg("GET").arg("port")).asList();
        return Integer.parseInt(nameAndValue.get(1).asString());
    }

    /** The node's CLIENT LIST, a line a client. */
    private static List<String> clients(Store node) {
        return node.call(StoreCommand.of("CLIENT").arg("LIST")).asString().lines().toList();
    }

    /** How many nodes hold a key matching {@code pattern} (KEYS on a node lists only its own keys). */
    private static long nodesHolding(List<Store> nodes, String pattern) {
        return nodes.stream().filter(node -> !node.call(StoreCommand.of("KEYS").arg(pattern)).asList().isEmpty()).count();
    }
}
