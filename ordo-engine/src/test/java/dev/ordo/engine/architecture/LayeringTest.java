package dev.ordo.engine.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Keeps the engine's packages layered as the README's architecture section draws them. From the
 * bottom: foundations that import nothing else of the engine (time, memory, numbers, errors,
 * byte codecs, the value contract, glob matching, the emulated Redis version); the value types;
 * configuration; services over the keyspace (Pub/Sub, ACL); the commands and scripting;
 * persistence; the face the network server sees ({@code host}); and the {@code Engine} on top,
 * which wires them together. No package cycle anywhere.
 */
class LayeringTest {
    private static JavaClasses engine;

    @BeforeAll
    static void importEngine() {
        engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.ordo.engine");
    }

    @Test
    void noPackageCycles() {
        ArchRule rule = slices().matching("dev.ordo.engine.(**)").should().beFreeOfCycles();
        rule.check(engine);
    }

    @Test
    void nothingBelowTheEngineDependsOnIt() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.ordo.engine.(*)..")
                .should().dependOnClassesThat().resideInAPackage("dev.ordo.engine");
        rule.check(engine);
    }

    @Test
    void layersOnlyLookDown() {
        ArchRule rule = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Foundation").definedBy("dev.ordo.engine.time..", "dev.ordo.engine.memory..",
                        "dev.ordo.engine.number..", "dev.ordo.engine.error..", "dev.ordo.engine.encoding..",
                        "dev.ordo.engine.internal..", "dev.ordo.engine.value..", "dev.ordo.engine.match..",
                        "dev.ordo.engine.version..")
                .layer("Types").definedBy("dev.ordo.engine.zset..", "dev.ordo.engine.list..", "dev.ordo.engine.keyspace..")
                .layer("Config").definedBy("dev.ordo.engine.config..")
                .layer("Services").definedBy("dev.ordo.engine.pubsub..", "dev.ordo.engine.acl..")
                .layer("Commands").definedBy("dev.ordo.engine.command..", "dev.ordo.engine.script..")
                .layer("Persistence").definedBy("dev.ordo.engine.persist..")
                .layer("Host").definedBy("dev.ordo.engine.host..")
                .layer("Engine").definedBy("dev.ordo.engine")
                .whereLayer("Engine").mayNotBeAccessedByAnyLayer()
                .whereLayer("Host").mayOnlyBeAccessedByLayers("Engine")
                .whereLayer("Persistence").mayOnlyBeAccessedByLayers("Host", "Engine")
                .whereLayer("Commands").mayOnlyBeAccessedByLayers("Persistence", "Host", "Engine")
                .whereLayer("Services").mayOnlyBeAccessedByLayers("Commands", "Persistence", "Host", "Engine")
                .whereLayer("Config").mayOnlyBeAccessedByLayers("Services", "Commands", "Persistence", "Host", "Engine")
                .whereLayer("Types").mayOnlyBeAccessedByLayers("Config", "Services", "Commands", "Persistence", "Host", "Engine")
                .withOptionalLayers(true);
        rule.check(engine);
    }

    @Test
    void collectionTypesKnowNothingOfTheKeyspaceThatStoresThem() {
        ArchRule rule = noClasses().that().resideInAnyPackage("dev.ordo.engine.zset..", "dev.ordo.engine.list..")
                .should().dependOnClassesThat().resideInAPackage("dev.ordo.engine.keyspace..");
        rule.check(engine);
    }
}
