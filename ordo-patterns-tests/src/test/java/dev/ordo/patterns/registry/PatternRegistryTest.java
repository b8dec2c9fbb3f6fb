package dev.ordo.patterns.registry;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.StoreCommand;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The pattern registry: one hash, settings that survive any characters, entries of unknown kinds skipped. */
class PatternRegistryTest {
    @OnEveryBackend
    void register_thenList_roundTripsSettingsWithAnyCharacters(Backend backend) {
        PatternRegistry registry = PatternRegistry.on(backend.store(), Backend.uniqueName("registry"));
        Map<String, String> odd = Map.of("limits", "5/PT1M,100/PT1H", "a=b&c", "x y%z\u00e9=&");

        registry.register(List.of(new PatternInfo(PatternInfo.Kind.RATE_LIMITER, "api:v1", odd),
                new PatternInfo(PatternInfo.Kind.LEADERBOARD, "game", Map.of())));
        registry.register(List.of(new PatternInfo(PatternInfo.Kind.LEADERBOARD, "game", Map.of("tie-rule", "dense"))));

        assertThat(registry.list()).containsExactly(
                new PatternInfo(PatternInfo.Kind.LEADERBOARD, "game", Map.of("tie-rule", "dense")),
                new PatternInfo(PatternInfo.Kind.RATE_LIMITER, "api:v1", odd));
        assertThat(registry.remove(PatternInfo.Kind.LEADERBOARD, "game")).isTrue();
        assertThat(registry.remove(PatternInfo.Kind.LEADERBOARD, "game")).isFalse();
        assertThat(registry.list()).hasSize(1);
    }

    @OnEveryBackend
    void list_skipsFieldsOfKindsItDoesNotKnow(Backend backend) {
        String key = Backend.uniqueName("registry");
        backend.store().call(StoreCommand.of("HSET").key(key).arg("stream-queue:x").arg("a=1").arg("garbage").arg("").arg("leaderboard:b").arg("order=lowest-first"));

        assertThat(PatternRegistry.on(backend.store(), key).list())
                .containsExactly(new PatternInfo(PatternInfo.Kind.LEADERBOARD, "b", Map.of("order", "lowest-first")));
    }

    @Test
    void patternInfo_refusesAnEmptyName() {
        assertThatThrownBy(() -> new PatternInfo(PatternInfo.Kind.LEADERBOARD, "", Map.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
