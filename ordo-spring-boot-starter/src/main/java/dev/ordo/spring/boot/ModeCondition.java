package dev.ordo.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

import java.util.List;
import java.util.Locale;

/**
 * Matches when the active mode is this condition's: {@code ordo.mode} when set, otherwise
 * embedded unless the application names a Redis server in {@code spring.data.redis.*}.
 */
abstract class ModeCondition extends SpringBootCondition {
    private static final List<String> REDIS_SETTINGS = List.of("spring.data.redis.host", "spring.data.redis.url");

    private final OrdoProperties.Mode mode;

    ModeCondition(OrdoProperties.Mode mode) {
        this.mode = mode;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        OrdoProperties.Mode active = activeMode(context.getEnvironment());
        String explicit = context.getEnvironment().getProperty("ordo.mode");
        String because = explicit != null ? "ordo.mode is " + explicit
                : active == OrdoProperties.Mode.REDIS ? "spring.data.redis names a server" : "no Redis server is configured";
        return new ConditionOutcome(active == mode, "Ordo's mode is " + active.name().toLowerCase(Locale.ROOT) + ": " + because);
    }

    /** The mode {@code environment} asks for. */
    static OrdoProperties.Mode activeMode(Environment environment) {
        Binder binder = Binder.get(environment);
        OrdoProperties.Mode explicit = binder.bind("ordo.mode", OrdoProperties.Mode.class).orElse(null);
        if (explicit != null) {
            return explicit;
        }
        boolean redis = REDIS_SETTINGS.stream().anyMatch(environment::containsProperty)
                || binder.bind("spring.data.redis.cluster", Bindable.mapOf(String.class, Object.class)).isBound()
                || binder.bind("spring.data.redis.sentinel", Bindable.mapOf(String.class, Object.class)).isBound();
        return redis ? OrdoProperties.Mode.REDIS : OrdoProperties.Mode.EMBEDDED;
    }

    /** Matches in embedded mode. */
    static final class Embedded extends ModeCondition {
        Embedded() {
            super(OrdoProperties.Mode.EMBEDDED);
        }
    }

    /** Matches in redis mode. */
    static final class Redis extends ModeCondition {
        Redis() {
            super(OrdoProperties.Mode.REDIS);
        }
    }
}
