package dev.ordo.spring.boot.test;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.List;

/**
 * Makes the test class part of the context's cache key when it is annotated
 * {@code @AutoConfigureOrdo(isolation = CLASS)}, so Spring's test context cache gives it a
 * context, and an in-process Ordo, of its own. Changes nothing in the context itself.
 */
public final class OrdoIsolationContextCustomizerFactory implements ContextCustomizerFactory {
    /** Creates the factory; Spring's test framework calls this. */
    public OrdoIsolationContextCustomizerFactory() {
    }

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        MergedAnnotation<AutoConfigureOrdo> ordo = MergedAnnotations
                .from(testClass, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY).get(AutoConfigureOrdo.class);
        if (ordo.isPresent() && ordo.getEnum("isolation", AutoConfigureOrdo.Isolation.class) == AutoConfigureOrdo.Isolation.CLASS) {
            return new PerClass(testClass);
        }
        return null;
    }

    /** A customizer equal only to the one of the same test class. */
    private record PerClass(Class<?> testClass) implements ContextCustomizer {
        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
        }
    }
}
