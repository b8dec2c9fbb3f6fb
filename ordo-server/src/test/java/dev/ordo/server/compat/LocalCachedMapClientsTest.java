package dev.ordo.server.compat;

import dev.ordo.server.RawClient;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RClientSideCaching;
import org.redisson.api.RLocalCachedMap;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.ClientSideCachingOptions;
import org.redisson.api.options.LocalCachedMapOptions;
import org.redisson.api.options.LocalCachedMapOptions.SyncStrategy;
import org.redisson.config.Config;
import org.redisson.config.Protocol;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redisson's near caches run unchanged against Ordo and against redis-server: two clients, each
 * with an {@code RLocalCachedMap} over one hash, keep their caches right through the invalidation
 * (or update) messages Redisson publishes on the map's topic when one of them writes; and
 * {@code RClientSideCaching}, which rests on RESP3 CLIENT TRACKING instead, drops what another
 * client changed. A reader's map is made after the writes that set a test up, so that no
 * invalidation of theirs, published before it subscribed, can reach its cache late. Each wait is
 * for an outcome, bounded far above what it needs; none decides by timing.
 */
class LocalCachedMapClientsTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }


    private static RLocalCachedMap<String, String> map(RedissonClient client, String name, SyncStrategy sync) {
        return client.getLocalCachedMap(LocalCachedMapOptions.<String, String>name(name).syncStrategy(sync));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void invalidate_writeByOneClient_dropsTheOthersCachedEntry(SideBySide.Target target) throws Exception {
        RedissonClient a = target.redisson();
        RedissonClient b = target.redisson();
        try {
            RLocalCachedMap<String, String> writer = map(a, "lcm:invalidate", SyncStrategy.INVALIDATE);
            writer.delete();
            writer.put("k", "v1");
            writer.put("other", "x");
            RLocalCachedMap<String, String> reader = map(b, "lcm:invalidate", SyncStrategy.INVALIDATE);
            assertThat(reader.get("k")).isEqualTo("v1");
            assertThat(reader.getCachedMap()).containsEntry("k", "v1");

            writer.put("k", "v2");
            assertThat(SideBySide.eventually(() -> !reader.getCachedMap().containsKey("k")))
                    .as("the put's invalidation message reached the other client").isTrue();
            assertThat(reader.get("k")).isEqualTo("v2");

            assertThat(reader.get("other")).isEqualTo("x");
            writer.fastRemove("other");
            assertThat(SideBySide.eventually(() -> !reader.getCachedMap().containsKey("other")))
                    .as("the remove's invalidation message reached the other client").isTrue();
            assertThat(reader.get("other")).isNull();
            assertThat(reader.readAllMap()).containsExactlyEntriesOf(Map.of("k", "v2"));
        } finally {
            a.shutdown();
            b.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void update_writeByOneClient_replacesTheOthersCachedEntry(SideBySide.Target target) throws Exception {
        RedissonClient a = target.redisson();
        RedissonClient b = target.redisson();
        try {
            RLocalCachedMap<String, String> writer = map(a, "lcm:update", SyncStrategy.UPDATE);
            writer.delete();
            writer.put("k", "v1");
            RLocalCachedMap<String, String> reader = map(b, "lcm:update", SyncStrategy.UPDATE);
            assertThat(reader.get("k")).isEqualTo("v1");

            writer.putAll(Map.of("k", "v2", "n", "1"));
            assertThat(SideBySide.eventually(() -> "v2".equals(reader.getCachedMap().get("k"))))
                    .as("the update message carried the new value to the other client").isTrue();
            assertThat(reader.get("n")).isEqualTo("1");

            writer.delete();
            assertThat(SideBySide.eventually(() -> reader.getCachedMap().isEmpty()))
                    .as("deleting the map cleared the other client's cache").isTrue();
            assertThat(reader.get("k")).isNull();
            assertThat(reader.isExists()).isFalse();
        } finally {
            a.shutdown();
            b.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void mapOperations_throughTheirScripts_keepBothCachesAndTheHashInStep(SideBySide.Target target) throws Exception {
        RedissonClient a = target.redisson();
        RedissonClient b = target.redisson();
        try {
            RLocalCachedMap<String, String> writer = map(a, "lcm:ops", SyncStrategy.INVALIDATE);
            writer.delete();
            assertThat(writer.fastPutIfAbsent("a", "1")).isTrue();
            assertThat(writer.fastPutIfAbsent("a", "2")).isFalse();
            assertThat(writer.putIfAbsent("b", "2")).isNull();
            RLocalCachedMap<String, String> reader = map(b, "lcm:ops", SyncStrategy.INVALIDATE);
            assertThat(reader.getAll(Set.of("a", "b", "c"))).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "b", "2"));
            assertThat(reader.getCachedMap()).containsOnlyKeys("a", "b");

            assertThat(writer.replace("a", "10")).isEqualTo("1");
            assertThat(writer.remove("b", "wrong")).isFalse();
            assertThat(writer.remove("b", "2")).isTrue();
            assertThat(SideBySide.eventually(() -> !reader.getCachedMap().containsKey("a") && !reader.getCachedMap().containsKey("b")))
                    .as("replace and remove invalidated the other client's entries").isTrue();
            assertThat(reader.get("a")).isEqualTo("10");
            assertThat(reader.containsKey("b")).isFalse();

            for (int i = 0; i < 300; i++) {
                writer.fastPut("bulk" + i, String.valueOf(i));
            }
            assertThat(reader.keySet()).hasSize(301).contains("a", "bulk0", "bulk299");
            assertThat(reader.size()).isEqualTo(301);
            assertThat(writer.fastRemove("bulk0", "bulk1", "missing")).isEqualTo(2L);
            assertThat(reader.readAllKeySet()).hasSize(299).doesNotContain("bulk0", "bulk1");
        } finally {
            a.shutdown();
            b.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void clientSideCaching_overResp3Tracking_seesChangesMadeByAnotherClient(SideBySide.Target target) throws Exception {
        Config config = target.redissonConfig();
        config.setProtocol(Protocol.RESP3);
        RedissonClient cachingClient = Redisson.create(config);
        RedissonClient other = target.redisson();
        try {
            other.getKeys().delete("csc:bucket", "csc:map");
            other.<String>getBucket("csc:bucket").set("v1");
            other.<String, String>getMap("csc:map").put("f", "1");
            RClientSideCaching caching = cachingClient.getClientSideCaching(ClientSideCachingOptions.defaults());
            try {
                RBucket<String> bucket = caching.getBucket("csc:bucket");
                RMap<String, String> map = caching.getMap("csc:map");
                assertThat(bucket.get()).isEqualTo("v1");
                assertThat(map.get("f")).isEqualTo("1");
                try (RawClient admin = new RawClient(target.port())) {
                    assertThat(admin.call("CLIENT", "LIST")).as("a connection of the caching client tracks keys")
                            .containsPattern("flags=[A-Za-z]*t[A-Za-z]* ");
                }

                other.<String>getBucket("csc:bucket").set("v2");
                other.<String, String>getMap("csc:map").put("f", "2");
                assertThat(SideBySide.eventually(() -> "v2".equals(bucket.get()))).as("the bucket's invalidation arrived").isTrue();
                assertThat(SideBySide.eventually(() -> "2".equals(map.get("f")))).as("the map's invalidation arrived").isTrue();
            } finally {
                caching.destroy();
            }
        } finally {
            cachingClient.shutdown();
            other.shutdown();
        }
    }
}
