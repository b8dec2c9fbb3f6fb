package dev.ordo.engine.zset;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The skiplist encoding gives memory back when members go, and survives every compaction intact. */
class ArenaCompactionTest {

    private static byte[] member(int i) {
        return String.format("player:%07d", i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void removingMostMembers_releasesArenaChunks() {
        ZSet z = new ZSet(ListpackLimits.of(0, 0));
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            z.add(member(i), i % 1000);
        }
        long full = z.memoryUsage();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(3));
        for (int k = 0; k < n * 9 / 10; k++) {
            assertThat(z.remove(member(order.get(k)))).isTrue();
        }
        z.checkInvariants();
        assertThat(z.size()).isEqualTo(n / 10);
        for (int k = n * 9 / 10; k < n; k++) {
            int i = order.get(k);
            assertThat(z.score(member(i))).isEqualTo(i % 1000);
        }
        assertThat(z.memoryUsage()).isLessThan(full / 4);
    }

    @Test
    void tinyChunks_underChurn_keepEveryInvariant() {
        ZSet z = new ZSet(ListpackLimits.of(0, 0), new TreeShape(4, 4, 64));
        Random rnd = new Random(9);
        SortedListModel model = new SortedListModel();
        for (int step = 0; step < 20_000; step++) {
            byte[] m = member(rnd.nextInt(300));
            if (rnd.nextInt(3) == 0) {
                assertThat(z.remove(m)).isEqualTo(model.remove(m));
            } else {
                double s = rnd.nextInt(50);
                assertThat(z.add(m, s)).isEqualTo(model.add(m, s, ZAddOptions.NONE));
            }
            if (step % 500 == 0) {
                z.checkInvariants();
            }
        }
        z.checkInvariants();
        assertThat(ZEntry.collect(z::forEachEntry)).isEqualTo(model.entries());
    }
}
