package dev.ordo.engine.script;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap guard's verdicts with a fake clock, a fake reading and a fake collector: it judges
 * what a collection of its own leaves, asks for one at most once a second, and asks again
 * right after a script was stopped, so a stopped script's garbage refuses nobody.
 */
class HeapGuardTest {
    private long now = 1_000_000_000L;
    /** What the last collection left, as a fraction of the old generation. */
    private double held;
    /** What the next collection will leave. */
    private double heldAfterCollection;
    private int collections;

    /** What the old generation holds now, garbage included. */
    private double heldNow;

    private final HeapGuard guard = new HeapGuard(() -> now, () -> {
        collections++;
        held = heldAfterCollection;
        heldNow = heldAfterCollection;
    }, () -> held, () -> heldNow);

    @Test
    void exhaustedNow_underTheLimitNowAndAfterTheLastCollection_isFalseWithoutCollecting() {
        held = 0.5;
        heldNow = 0.85;
        assertThat(guard.exhaustedNow()).isFalse();
        assertThat(collections).isZero();
    }

    @Test
    void exhaustedNow_overTheLimitNow_collectsEachTime_andJudgesWhatIsLeft() {
        held = 0.4;
        heldNow = 0.95;
        heldAfterCollection = 0.6;
        assertThat(guard.exhaustedNow()).isFalse();
        heldNow = 0.97;
        heldAfterCollection = 0.93;
        // Paced by the script's allocation, not by time: the second check, at once, collects again.
        assertThat(guard.exhaustedNow()).isTrue();
        assertThat(collections).isEqualTo(2);
    }

    @Test
    void exhausted_underTheLimit_isFalseWithoutCollecting() {
        held = 0.5;
        assertThat(guard.exhausted()).isFalse();
        assertThat(collections).isZero();
    }

    @Test
    void exhausted_overTheLimitByGarbage_collectsAndIsFalse() {
        held = 0.95;
        heldAfterCollection = 0.3;
        assertThat(guard.exhausted()).isFalse();
        assertThat(collections).isEqualTo(1);
    }

    @Test
    void exhausted_overTheLimitAfterItsOwnCollection_isTrue() {
        held = 0.95;
        heldAfterCollection = 0.95;
        assertThat(guard.exhausted()).isTrue();
        assertThat(collections).isEqualTo(1);
    }

    @Test
    void exhausted_withinASecondOfItsCollection_keepsTheVerdictWithoutCollecting() {
        held = 0.95;
        heldAfterCollection = 0.95;
        assertThat(guard.exhausted()).isTrue();
        now += HeapGuard.MIN_INTERVAL_NANOS - 1;
        assertThat(guard.exhausted()).isTrue();
        assertThat(collections).isEqualTo(1);
    }

    @Test
    void exhausted_aSecondAfterItsCollection_collectsAgain() {
        held = 0.95;
        heldAfterCollection = 0.95;
        assertThat(guard.exhausted()).isTrue();
        now += HeapGuard.MIN_INTERVAL_NANOS;
        heldAfterCollection = 0.2;
        assertThat(guard.exhausted()).isFalse();
        assertThat(collections).isEqualTo(2);
    }

    /** The reported bug: the bomb's leftovers (over the limit until some collection) refused the next script. */
    @Test
    void exhausted_rightAfterAScriptWasStopped_collectsAgain_andLetsAHarmlessScriptRun() {
        held = 0.95;
        heldAfterCollection = 0.95;
        assertThat(guard.exhausted()).as("the bomb").isTrue();
        guard.scriptStopped();
        heldAfterCollection = 0.1;
        now += 1;
        assertThat(guard.exhausted()).as("a harmless script right after").isFalse();
        assertThat(collections).isEqualTo(2);
        assertThat(guard.exhausted()).isFalse();
        assertThat(collections).isEqualTo(2);
    }
}
