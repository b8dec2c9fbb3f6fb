package dev.ordo.spring.boot.test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

import java.util.List;

/**
 * Makes the test class part of the context's cache key when it is annotated
 * {@code @AutoConfigureOrdo(isolation = CLASS)}, so Spring's test context cache gives it a
 * context, and an in-process Ordo, of its own. Changes nothing in the context itself; the flush
 * listener closes such a context after its class, as no other class can use it.
 */
public final class OrdoIsolationContextCustomizerFactory implements ContextCustomizerFactory {
    /** Creates the factory; Spring's test framework calls this. */
    public OrdoIsolationContextCustomizerFactory() {
    }

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        return isolatedPerClass(testClass) ? new PerClass(testClass) : null;
    }

    /** Whether {@code testClass}, its superclasses or (for {@code @Nested} classes) its enclosing classes ask for {@code isolation = CLASS}. */
    static boolean isolatedPerClass(Class<?> testClass) {
        AutoConfigureOrdo ordo = TestContextAnnotationUtils.findMergedAnnotation(testClass, AutoConfigureOrdo.class);
        return ordo != null && ordo.isolation() == AutoConfigureOrdo.Isolation.CLASS;
    }

    /** A customizer equal only to the one of the same test class. */
    private record PerClass(Class<?> testClass) implements ContextCustomizer {
        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
        }
    }
}
