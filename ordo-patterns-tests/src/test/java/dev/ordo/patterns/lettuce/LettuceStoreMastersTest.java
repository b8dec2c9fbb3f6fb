package dev.ordo.patterns.lettuce;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link LettuceStore#masters()}: a store per master of a cluster, over the cluster connection's own node connections. */
class LettuceStoreMastersTest {

    @Test
    void masters_onACluster_areEveryMaster_andTheirKeyCountsAddUpToTheCluster() {
        LettuceStore cluster = (LettuceStore) Backend.REDIS_CLUSTER.store();
        Backend.REDIS_CLUSTER.flush();
        for (int i = 0; i < 30; i++) {
            cluster.call(StoreCommand.of("SET").key("spread:" + i).arg("v"));
        }

        List<Store> masters = cluster.masters();
        long keys = 0;
        for (Store node : masters) {
            long own = node.call(StoreCommand.of("DBSIZE")).asLong();
            assertThat(own).as("the slots spread the keys over every master").isPositive();
            keys += own;
        }

        assertThat(masters).hasSize(3);
        assertThat(keys).isEqualTo(30);
        masters.forEach(Store::close);
        assertThat(cluster.call(StoreCommand.of("GET").key("spread:0")).asString()).as("closing a node's store leaves the cluster's").isEqualTo("v");
    }

    @Test
    void masters_ofAStoreOnOneServer_isThatStore() {
        LettuceStore single = (LettuceStore) Backend.REDIS.store();

        assertThat(single.masters()).containsExactly(single);
    }
}
