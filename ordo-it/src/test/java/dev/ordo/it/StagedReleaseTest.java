package dev.ordo.it;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * What {@code mvn deploy} wrote: every published module's POM, jar, sources and Javadoc jars with
 * their checksums, and the metadata a public repository asks for, read back from the staging
 * repository this build deployed to (the parent POM's {@code stage} execution). Modules that are
 * not published must not be there.
 */
class StagedReleaseTest {
    /** Every published artifact with its packaging. */
    private static final List<String[]> PUBLISHED = List.of(
            new String[] {"ordo-parent", "pom"},
            new String[] {"ordo-bom", "pom"},
            new String[] {"ordo-engine", "jar"},
            new String[] {"ordo-server", "jar"},
            new String[] {"ordo-patterns", "jar"},
            new String[] {"ordo-patterns-lettuce", "jar"},
            new String[] {"ordo-patterns-embedded", "jar"},
            new String[] {"ordo-console", "jar"},
            new String[] {"ordo-spring-boot-starter", "jar"});

    private static final List<String> UNPUBLISHED = List.of("ordo-bench", "ordo-it", "ordo-patterns-tests", "ordo-console-tests");

    private static Path staging;
    private static String version;

    @BeforeAll
    static void locateStaging() {
        assumeFalse(Boolean.getBoolean("ordo.offline"), "an offline build (-o) deploys nothing: Maven refuses to");
        staging = Path.of(System.getProperty("ordo.staging.dir"));
        version = System.getProperty("ordo.version");
        assertThat(staging.resolve("dev/ordo"))
                .as("the staging repository; build the whole project (or -pl ordo-it -am) so every module deploys to it")
                .isDirectory();
    }

    static Stream<String> jarModules() {
        return PUBLISHED.stream().filter(a -> a[1].equals("jar")).map(a -> a[0]);
    }

    static Stream<String> allModules() {
        return PUBLISHED.stream().map(a -> a[0]);
    }

    @ParameterizedTest
    @MethodSource("jarModules")
    void deploy_jarModule_hasJarSourcesJavadocAndChecksums(String artifactId) throws IOException {
        for (String suffix : List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar")) {
            Path file = deployed(artifactId, suffix);
            assertThat(file).isRegularFile();
            assertThat(Path.of(file + ".sha1")).isRegularFile();
            assertThat(Path.of(file + ".md5")).isRegularFile();
        }
        assertThat(entries(deployed(artifactId, "-sources.jar"))).anyMatch(name -> name.endsWith(".java"));
        assertThat(entries(deployed(artifactId, "-javadoc.jar"))).contains("index.html");
    }

    @ParameterizedTest
    @MethodSource("allModules")
    void deploy_everyPom_describesItselfAndCarriesLicenceUrlScmAndDevelopers(String artifactId) throws Exception {
        Element pom = pom(deployed(artifactId, ".pom"));
        assertThat(text(pom, "description")).as("%s's own <description>", artifactId).isNotBlank();
        assertThat(inherited(pom, "url")).as("%s <url>", artifactId).startsWith("https://");
        assertThat(inherited(pom, "licenses/license/name")).as("%s licence", artifactId).isEqualTo("Apache-2.0");
        assertThat(inherited(pom, "developers/developer/name")).as("%s developers", artifactId).isNotBlank();
        assertThat(inherited(pom, "scm/url")).as("%s <scm><url>", artifactId).isNotBlank();
        assertThat(inherited(pom, "scm/connection")).as("%s <scm><connection>", artifactId).startsWith("scm:git:");
    }

    @Test
    void deploy_bom_managesEveryPublishedModuleAndTheTestedNettyAndReactor() throws IOException {
        Element bom = pom(deployed("ordo-bom", ".pom"));
        assertThat(child(bom, "parent")).as("a BOM with a parent exports the parent's dependencyManagement").isNull();
        List<String> managed = new ArrayList<>();
        NodeList dependencies = child(child(bom, "dependencyManagement"), "dependencies").getChildNodes();
        for (int i = 0; i < dependencies.getLength(); i++) {
            if (dependencies.item(i) instanceof Element dependency) {
                managed.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId"));
            }
        }
        List<String> modules = PUBLISHED.stream().filter(a -> a[1].equals("jar")).map(a -> "dev.ordo:" + a[0]).toList();
        assertThat(managed).containsAll(modules).contains("io.netty:netty-bom", "io.projectreactor:reactor-core");
        assertThat(text(bom, "properties/netty.version")).isEqualTo(System.getProperty("netty.version"));
        assertThat(text(bom, "properties/reactor.version")).isEqualTo(System.getProperty("reactor.version"));
    }

    @Test
    void deploy_serverLibraryJar_holdsOnlyOrdosOwnClasses() throws IOException {
        List<String> classes = entries(deployed("ordo-server", ".jar")).stream()
                .filter(name -> name.endsWith(".class") && !name.equals("module-info.class")).toList();
        assertThat(classes).isNotEmpty().allMatch(name -> name.startsWith("dev/ordo/server/"));
    }

    @Test
    void deploy_runnableServerJar_isAttachedWithMainClassAndLicence() throws IOException {
        Path all = deployed("ordo-server", "-all.jar");
        try (JarFile jar = new JarFile(all.toFile())) {
            Manifest manifest = jar.getManifest();
            assertThat(manifest.getMainAttributes().getValue("Main-Class")).isEqualTo("dev.ordo.server.Main");
            assertThat(jar.getEntry("io/netty/channel/Channel.class")).isNotNull();
            assertThat(jar.getEntry("org/luaj/vm2/LuaValue.class")).isNotNull();
            assertThat(jar.getEntry("META-INF/LICENSE")).isNotNull();
            assertThat(jar.getEntry("META-INF/NOTICE")).isNotNull();
        }
    }

    @Test
    void deploy_runnableConsoleJar_isAttachedWithMainClassTheUiAndLicences() throws IOException {
        Path all = deployed("ordo-console", "-all.jar");
        try (JarFile jar = new JarFile(all.toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("dev.ordo.console.ConsoleMain");
            assertThat(jar.getEntry("io/lettuce/core/RedisClient.class")).as("the standalone console's client").isNotNull();
            assertThat(jar.getEntry("dev/ordo/console/ui/index.html")).isNotNull();
            try (var licence = jar.getInputStream(jar.getEntry("META-INF/LICENSE"))) {
                String text = new String(licence.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                assertThat(text).as("Ordo's licence first, then the dependencies' own").startsWith("\n                                 Apache License")
                        .contains("MIT");
            }
        }
    }

    @Test
    void deploy_unpublishedModules_areNotThere() {
        for (String artifactId : UNPUBLISHED) {
            assertThat(staging.resolve("dev/ordo").resolve(artifactId)).doesNotExist();
        }
    }

    /** The deployed file of artifactId whose name ends in suffix (a classifier and extension). */
    private static Path deployed(String artifactId, String suffix) throws IOException {
        Path dir = staging.resolve("dev/ordo").resolve(artifactId).resolve(version);
        assertThat(dir).as("deployed %s %s", artifactId, version).isDirectory();
        String fileVersion = version;
        if (version.endsWith("-SNAPSHOT")) {
            // a deployed snapshot is named by its timestamp and build number, kept in the metadata
            Element metadata = pom(dir.resolve("maven-metadata.xml"));
            String timestamp = text(metadata, "versioning/snapshot/timestamp");
            String build = text(metadata, "versioning/snapshot/buildNumber");
            fileVersion = version.substring(0, version.length() - "SNAPSHOT".length()) + timestamp + "-" + build;
        }
        return dir.resolve(artifactId + "-" + fileVersion + suffix);
    }

    private static List<String> entries(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().map(ZipEntry::getName).toList();
        }
    }

    private static Element pom(Path file) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(file.toFile());
            return document.getDocumentElement();
        } catch (Exception e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }

    /** The text at a slash-separated path of child elements, or null. */
    private static String text(Element root, String path) {
        Element at = root;
        for (String name : path.split("/")) {
            at = child(at, name);
            if (at == null) {
                return null;
            }
        }
        return at.getTextContent().trim();
    }

    /** As {@link #text}, looking in the staged parent POMs when this one does not say. */
    private static String inherited(Element pom, String path) throws IOException {
        List<String> seen = new ArrayList<>();
        Element at = pom;
        while (at != null) {
            String value = text(at, path);
            if (value != null) {
                return value;
            }
            Element parent = child(at, "parent");
            if (parent == null) {
                return null;
            }
            String parentId = text(parent, "artifactId");
            seen.add(parentId);
            assertThat(text(parent, "groupId")).as("parent of %s", seen).isEqualTo("dev.ordo");
            at = pom(deployed(parentId, ".pom"));
        }
        return null;
    }

    private static Element child(Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            Node node = children.item(i);
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element;
            }
        }
        return null;
    }
}
