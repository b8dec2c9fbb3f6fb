package dev.ordo.spring.boot.test;

import dev.ordo.spring.boot.EmbeddedOrdo;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Empties the context's in-process Ordo before or after each test method, as
 * {@link AutoConfigureOrdo#flush()} ({@code ordo.test.flush}) says. Does nothing without that
 * property, in redis mode, or before the context is loaded, so it never touches a real server.
 * After a class with {@code isolation = CLASS} it closes that class's context, and its Ordo:
 * no other class shares it, so Spring's cache would only keep its port and threads open.
 */
public final class OrdoFlushTestExecutionListener extends AbstractTestExecutionListener {
    /** Creates the listener; Spring's test framework calls this. */
    public OrdoFlushTestExecutionListener() {
    }

    /**
     * After Spring's own listeners that prepare the test instance.
     *
     * @return the order
     */
    @Override
    public int getOrder() {
        return 5000;
    }

    @Override
    public void beforeTestMethod(TestContext testContext) {
        flushIf(testContext, AutoConfigureOrdo.Flush.BEFORE_EACH);
    }

    @Override
    public void afterTestMethod(TestContext testContext) {
        flushIf(testContext, AutoConfigureOrdo.Flush.AFTER_EACH);
    }

    @Override
    public void afterTestClass(TestContext testContext) {
        if (OrdoIsolationContextCustomizerFactory.isolatedPerClass(testContext.getTestClass())) {
            testContext.markApplicationContextDirty(DirtiesContext.HierarchyMode.EXHAUSTIVE);
        }
    }

    private static void flushIf(TestContext testContext, AutoConfigureOrdo.Flush when) {
        if (!testContext.hasApplicationContext()) {
            return;
        }
        ApplicationContext context = testContext.getApplicationContext();
        AutoConfigureOrdo.Flush flush = Binder.get(context.getEnvironment())
                .bind("ordo.test.flush", AutoConfigureOrdo.Flush.class).orElse(AutoConfigureOrdo.Flush.NONE);
        if (flush == when) {
            context.getBeanProvider(EmbeddedOrdo.class).ifAvailable(EmbeddedOrdo::flushAll);
        }
    }
}
