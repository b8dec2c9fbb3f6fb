package dev.ordo.spring.boot.test;

import dev.ordo.spring.boot.OrdoProperties;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives the test's application context an Ordo in-process, on a free loopback port, that Spring
 * Data Redis ({@code StringRedisTemplate}, {@code RedisTemplate}...) talks to: no Docker and no
 * redis-server. It beats a Redis host set in the application's properties. Each cached context
 * has its own Ordo, closed with the context; classes whose contexts differ never share one.
 * Works on a {@code @SpringBootTest} and, as it imports Ordo's and Spring Data Redis's
 * auto-configuration, on test slices.
 *
 * <p>Classes with the same configuration share one cached context, and so one Ordo, which
 * flushing empties between their test methods. For test classes that run in parallel, set
 * {@link #isolation()} to {@link Isolation#CLASS}: each class then gets its own context and its
 * own Ordo on its own port, at the cost of a context start per class.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("ordo")
public @interface AutoConfigureOrdo {
    /**
     * The mode: embedded, or redis to run the same tests against the server named in {@code spring.data.redis.*}.
     *
     * @return the mode
     */
    OrdoProperties.Mode mode() default OrdoProperties.Mode.EMBEDDED;

    /**
     * The port of the in-process Ordo; 0 (the default) for a free one.
     *
     * @return the port
     */
    @PropertyMapping("embedded.port")
    int port() default 0;

    /**
     * When to empty the in-process Ordo (FLUSHALL) around each test method.
     *
     * @return when to flush
     */
    @PropertyMapping("test.flush")
    Flush flush() default Flush.AFTER_EACH;

    /**
     * Whether test classes with the same configuration share a context and its Ordo.
     *
     * @return the isolation
     */
    @PropertyMapping(skip = PropertyMapping.Skip.YES)
    Isolation isolation() default Isolation.SHARED;

    /** Whether test classes with the same configuration share a context, and so an Ordo. */
    enum Isolation {
        /** Shared, as Spring caches contexts: one Ordo for every class with the same configuration. */
        SHARED,
        /** One context, and one Ordo, per test class: for classes that run in parallel. */
        CLASS
    }

    /** When to empty the in-process Ordo around each test method. */
    enum Flush {
        /** Never: tests see what earlier tests left. */
        NONE,
        /** Before each test method. */
        BEFORE_EACH,
        /** After each test method. */
        AFTER_EACH
    }
}
