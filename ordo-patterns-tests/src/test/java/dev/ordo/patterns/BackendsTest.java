package dev.ordo.patterns;

import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@link Backend} fixture and the {@link Store} port behave alike on all five back ends. */
class BackendsTest {

    @ParameterizedTest
    @EnumSource(Backend.class)
    void call_sortedSetCommands_repliesAreStringsListsNullsAndLongs(Backend backend) {
        Store store = backend.store();
        String board = Backend.uniqueName("board");

        assertThat(Plain.of(store.call(StoreCommand.of("ZADD").key(board).arg(1).arg("a")))).isEqualTo(1L);
        assertThat(Plain.of(store.call(StoreCommand.of("ZSCORE").key(board).arg("a")))).isEqualTo("1");
        assertThat(Plain.of(store.call(StoreCommand.of("ZRANGE").key(board).arg(0).arg(-1).arg("WITHSCORES"))))
                .isEqualTo(List.of("a", "1"));
        assertThat(Plain.of(store.call(StoreCommand.of("ZRANK").key(board).arg("missing")))).isNull();
        assertThat(Plain.of(store.call(StoreCommand.of("ZCARD").key(board)))).isInstanceOf(Long.class).isEqualTo(1L);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void callAll_keysUnderManyTags_repliesInOrderAndFirstErrorAfterAll(Backend backend) {
        Store store = backend.store();
        List<StoreCommand> adds = new java.util.ArrayList<>();
        List<StoreCommand> scores = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String key = "{" + Backend.uniqueName("many") + "}";
            adds.add(StoreCommand.of("ZADD").key(key).arg(i).arg("m"));
            scores.add(StoreCommand.of("ZSCORE").key(key).arg("m"));
        }
        assertThat(Plain.of(store.callAll(adds))).containsOnly(1L).hasSize(20);
        assertThat(Plain.of(store.callAll(scores))).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).mapToObj(String::valueOf).toList());
        String good = "{" + Backend.uniqueName("good") + "}";
        assertThatThrownBy(() -> store.callAll(List.of(StoreCommand.of("ZADD").key(Backend.uniqueName("bad")).arg("x").arg("m"),
                StoreCommand.of("ZADD").key(good).arg(1).arg("m"))))
                .isInstanceOf(StoreException.class).hasMessage("ERR value is not a valid float");
        assertThat(Plain.of(store.call(StoreCommand.of("ZSCORE").key(good).arg("m")))).as("the other command still ran").isEqualTo("1");
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void evalAll_unknownScriptOnEveryNode_fallsBackPerCallAndKeepsOrder(Backend backend) {
        Store store = backend.store();
        Script script = new Script("-- " + ThreadLocalRandom.current().nextLong() + "\n"
                + "return redis.call('ZADD', KEYS[1], ARGV[1], 'm') + tonumber(ARGV[1])");
        List<List<String>> keys = new java.util.ArrayList<>();
        List<List<String>> args = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            keys.add(List.of("{" + Backend.uniqueName("e") + "}"));
            args.add(List.of(String.valueOf(i)));
        }
        List<Object> expected = java.util.stream.LongStream.range(0, 12).mapToObj(i -> (Object) (i + 1)).toList();
        assertThat(Plain.of(store.evalAll(script, keys, args))).isEqualTo(expected);
        assertThat(Plain.of(store.evalAll(script, keys, args))).as("second run: members exist").isEqualTo(
                java.util.stream.LongStream.range(0, 12).mapToObj(i -> (Object) i).toList());
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void eval_twoKeysUnderOneHashTag_firstUseFallsBackToEvalSecondRunsBySha(Backend backend) {
        Store store = backend.store();
        String tag = "{" + Backend.uniqueName("tag") + "}";
        List<String> keys = List.of(tag + ":a", tag + ":b");
        Script script = new Script("-- " + ThreadLocalRandom.current().nextLong() + " " + tag + "\n"
                + "redis.call('ZADD', KEYS[1], ARGV[1], 'm')\n"
                + "redis.call('ZADD', KEYS[2], ARGV[1], 'm')\n"
                + "return {redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]), redis.call('ZSCORE', KEYS[2], 'm')}");
        assertThat(known(backend, script)).isFalse();
        long evals = calls(backend, "eval");

        assertThat(Plain.of(store.eval(script, keys, List.of("3")))).isEqualTo(List.of(2L, "3"));
        assertThat(known(backend, script)).isTrue();
        assertThat(calls(backend, "eval")).isEqualTo(evals + 1);

        long evalShas = calls(backend, "evalsha");
        assertThat(Plain.of(store.eval(script, keys, List.of("4")))).isEqualTo(List.of(2L, "4"));
        assertThat(calls(backend, "eval")).isEqualTo(evals + 1);
        assertThat(calls(backend, "evalsha")).isEqualTo(evalShas + 1);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void call_nonNumericScore_throwsStoreExceptionWithRedisText(Backend backend) {
        Store store = backend.store();
        String board = Backend.uniqueName("board");

        assertThatThrownBy(() -> store.call(StoreCommand.of("ZADD").key(board).arg("high").arg("a")))
                .isInstanceOf(StoreException.class)
                .hasMessage("ERR value is not a valid float");
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void clustered_anyBackend_trueOnlyForRedisCluster(Backend backend) {
        assertThat(backend.store().clustered()).isEqualTo(backend == Backend.REDIS_CLUSTER);
        assertThat(backend.nodes()).hasSize(backend == Backend.REDIS_CLUSTER ? 3 : 1);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void flush_afterWritesUnderManyTags_leavesEveryNodeEmpty(Backend backend) {
        for (int i = 0; i < 10; i++) {
            backend.store().call(StoreCommand.of("ZADD").key("{" + Backend.uniqueName("flush") + "}").arg(i).arg("m"));
        }

        backend.flush();

        for (Store node : backend.nodes()) {
            assertThat(Plain.of(node.call(StoreCommand.of("DBSIZE")))).isEqualTo(0L);
        }
    }

    @Test
    void ordoAcl_theUserReachesOnlyTheTestsKeys_andNoDangerousCommand() {
        Store store = Backend.ORDO_ACL.store();
        assertThat(Plain.of(store.call(StoreCommand.of("ACL").arg("WHOAMI")))).isEqualTo("patterns");
        assertThatThrownBy(() -> store.call(StoreCommand.of("ZADD").key("other").arg(1).arg("m")))
                .isInstanceOf(StoreException.class).hasMessage("NOPERM No permissions to access a key");
        assertThatThrownBy(() -> store.call(StoreCommand.of("FLUSHALL")))
                .isInstanceOf(StoreException.class).hasMessageContaining("NOPERM User patterns has no permissions to run the 'flushall' command");
    }

    @Test
    void redisCluster_twentyHashTags_spreadOverNodesAndEachWorksThroughClusterConnection() {
        Backend cluster = Backend.REDIS_CLUSTER;
        Store store = cluster.store();
        List<Store> nodes = cluster.nodes();
        String suffix = Backend.uniqueName("spread");
        Set<Integer> owners = new HashSet<>();

        for (int i = 0; i < 20; i++) {
            String key = "{x" + i + "}:" + suffix;
            assertThat(Plain.of(store.call(StoreCommand.of("ZADD").key(key).arg(i).arg("m")))).isEqualTo(1L);
            assertThat(Plain.of(store.call(StoreCommand.of("ZSCORE").key(key).arg("m")))).isEqualTo(Long.toString(i));

            long slot = nodes.get(0).call(StoreCommand.of("CLUSTER").arg("KEYSLOT").arg(key)).asLong();
            int holders = 0;
            for (int n = 0; n < nodes.size(); n++) {
                if (nodes.get(n).call(StoreCommand.of("CLUSTER").arg("COUNTKEYSINSLOT").arg(slot)).asLong() > 0) {
                    owners.add(n);
                    holders++;
                }
            }
            assertThat(holders).as("nodes holding %s (slot %s)", key, slot).isEqualTo(1);
        }

        assertThat(owners).hasSizeGreaterThanOrEqualTo(2);
    }

    /** Whether any node of {@code backend} has {@code script} in its script cache. */
    private static boolean known(Backend backend, Script script) {
        for (Store node : backend.nodes()) {
            List<Reply> exists = node.call(StoreCommand.of("SCRIPT").arg("EXISTS").arg(script.sha1())).asList();
            if (exists.get(0).asLong() == 1L) {
                return true;
            }
        }
        return false;
    }

    /** Calls of {@code command} so far, summed over the nodes' INFO commandstats. */
    private static long calls(Backend backend, String command) {
        Pattern stat = Pattern.compile("(?m)^cmdstat_" + command + ":calls=(\\d+)");
        long total = 0;
        for (Store node : backend.nodes()) {
            Matcher m = stat.matcher(node.call(StoreCommand.of("INFO").arg("commandstats")).asString());
            if (m.find()) {
                total += Long.parseLong(m.group(1));
            }
        }
        return total;
    }
}
