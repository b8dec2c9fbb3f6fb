package dev.ordo.spring.boot.test;

import dev.ordo.spring.boot.EmbeddedOrdo;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.net.ConnectException;
import java.net.Socket;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * Test classes that run at the same time, with the same configuration: with
 * {@code isolation = CLASS} each has its own Ordo; shared, they see each other's writes. Each
 * pair is run by JUnit's launcher with classes in parallel; the two classes write, meet at a
 * barrier, and read back.
 */
class ParallelClassesTest {
    static final CyclicBarrier BOTH_WROTE = new CyclicBarrier(2);
    /** The ports of the in-process Ordos the classes ran on. */
    static final Set<Integer> PORTS = ConcurrentHashMap.newKeySet();

    @Test
    void isolationClass_parallelClassesEachHaveTheirOwnOrdo_closedAfterTheirClass() {
        PORTS.clear();
        TestExecutionSummary summary = runInParallel(IsolatedA.class, IsolatedB.class);
        assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(2);
        assertThat(PORTS).hasSize(2).allSatisfy(port -> assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
                .as("port %d still open", port).isInstanceOf(ConnectException.class));
    }

    @Test
    void isolationShared_parallelClassesShareOneOrdo() {
        TestExecutionSummary summary = runInParallel(SharedA.class, SharedB.class);
        // both wrote the same key before either read it back: one of them reads the other's value
        assertThat(summary.getTestsFailedCount()).as(failures(summary)).isEqualTo(1);
    }

    private static TestExecutionSummary runInParallel(Class<?> a, Class<?> b) {
        BOTH_WROTE.reset();
        LauncherDiscoveryRequest request = request().selectors(selectClass(a), selectClass(b))
                .configurationParameters(Map.of(
                        "junit.jupiter.execution.parallel.enabled", "true",
                        "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
                        "junit.jupiter.execution.parallel.config.strategy", "fixed",
                        "junit.jupiter.execution.parallel.config.fixed.parallelism", "2"))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        return listener.getSummary();
    }

    private static String failures(TestExecutionSummary summary) {
        StringBuilder out = new StringBuilder();
        summary.getFailures().forEach(f -> out.append(f.getTestIdentifier().getDisplayName()).append(": ").append(f.getException()).append('\n'));
        return out.toString();
    }

    /** Writes its name under one key, waits for the other class to do the same, and reads it back. */
    abstract static class Writer {
        @Autowired StringRedisTemplate redis;
        @Autowired EmbeddedOrdo ordo;

        @Test
        void writeMeetRead() throws Exception {
            PORTS.add(ordo.port());
            String me = getClass().getSimpleName();
            redis.opsForValue().set("owner", me);
            BOTH_WROTE.await(60, TimeUnit.SECONDS);
            String read = redis.opsForValue().get("owner");
            BOTH_WROTE.await(60, TimeUnit.SECONDS); // neither writes again before both have read
            assertThat(read).isEqualTo(me);
        }
    }

    @SpringBootTest(classes = TestApp.class)
    @AutoConfigureOrdo(isolation = AutoConfigureOrdo.Isolation.CLASS)
    static class IsolatedA extends Writer {
    }

    @SpringBootTest(classes = TestApp.class)
    @AutoConfigureOrdo(isolation = AutoConfigureOrdo.Isolation.CLASS)
    static class IsolatedB extends Writer {
    }

    @SpringBootTest(classes = TestApp.class)
    @AutoConfigureOrdo(flush = AutoConfigureOrdo.Flush.NONE)
    static class SharedA extends Writer {
    }

    @SpringBootTest(classes = TestApp.class)
    @AutoConfigureOrdo(flush = AutoConfigureOrdo.Flush.NONE)
    static class SharedB extends Writer {
    }
}
