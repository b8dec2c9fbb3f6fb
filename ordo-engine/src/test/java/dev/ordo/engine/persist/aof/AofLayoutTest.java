package dev.ordo.engine.persist.aof;

import dev.ordo.engine.persist.aof.AofLayout.FileEntry;
import dev.ordo.engine.persist.aof.AofLayout.Manifest;
import dev.ordo.engine.persist.aof.AofLayout.Type;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Names, the manifest's text both ways, its checks, sequence numbers and the atomic write. */
class AofLayoutTest {
    private static final Path SRC = Path.of("appendonly.aof.manifest");

    @TempDir
    Path tmp;

    private static Manifest parse(String text) throws AofManifestException {
        return AofLayout.parse(text.getBytes(StandardCharsets.UTF_8), SRC);
    }

    private static FileEntry base(long seq) {
        return new FileEntry("appendonly.aof." + seq + ".base.rdb", seq, Type.BASE);
    }

    private static FileEntry incr(long seq) {
        return new FileEntry("appendonly.aof." + seq + ".incr.aof", seq, Type.INCR);
    }

    private static FileEntry hist(String name, long seq) {
        return new FileEntry(name, seq, Type.HISTORY);
    }

    @Test
    void namesFollowTheMultiPartScheme() {
        AofLayout l = AofLayout.defaults(Path.of("/data"));
        assertThat(l.dir()).isEqualTo(Path.of("/data/appendonlydir"));
        assertThat(l.manifestPath()).isEqualTo(Path.of("/data/appendonlydir/appendonly.aof.manifest"));
        assertThat(l.baseName(3, true)).isEqualTo("appendonly.aof.3.base.rdb");
        assertThat(l.baseName(3, false)).isEqualTo("appendonly.aof.3.base.aof");
        assertThat(l.incrName(12)).isEqualTo("appendonly.aof.12.incr.aof");
        assertThat(AofLayout.isTempName(l.tempRewriteName())).isTrue();
        assertThat(AofLayout.isTempName(AofLayout.tempManifestName(l.manifestName()))).isTrue();
        assertThat(l.resolve(incr(2))).isEqualTo(Path.of("/data/appendonlydir/appendonly.aof.2.incr.aof"));

        AofLayout custom = new AofLayout(Path.of("/d"), "aofs", "my.aof");
        assertThat(custom.manifestName()).isEqualTo("my.aof.manifest");
        assertThat(custom.incrName(1)).isEqualTo("my.aof.1.incr.aof");
    }

    @Test
    void namesThatArePathsAreRefused() {
        assertThatThrownBy(() -> new AofLayout(Path.of("/d"), "a/b", "x.aof")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("appenddirname").hasMessageContaining("'/'");
        assertThatThrownBy(() -> new AofLayout(Path.of("/d"), "dir", "../x.aof")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("appendfilename");
        assertThatThrownBy(() -> new AofLayout(Path.of("/d"), "..", "x.aof")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AofLayout(Path.of("/d"), "dir", "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FileEntry("sub/x.incr.aof", 1, Type.INCR)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FileEntry("x.incr.aof", 0, Type.INCR)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AofLayout.defaults(Path.of("/d")).incrName(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsRedisLinesAndWritesThemTheSameWay() throws Exception {
        String redis = "file appendonly.aof.2.base.rdb seq 2 type b\n"
                + "file appendonly.aof.1.incr.aof seq 1 type h\n"
                + "file appendonly.aof.2.incr.aof seq 2 type i\n"
                + "file appendonly.aof.3.incr.aof seq 3 type i\n";
        Manifest m = parse(redis);
        assertThat(m.base()).isEqualTo(base(2));
        assertThat(m.history()).containsExactly(hist("appendonly.aof.1.incr.aof", 1));
        assertThat(m.incrs()).containsExactly(incr(2), incr(3));
        assertThat(m.loadOrder()).containsExactly(base(2), incr(2), incr(3));
        assertThat(m.lastIncr()).isEqualTo(incr(3));
        assertThat(m.toText()).isEqualTo(redis);
    }

    @Test
    void keysInAnyOrderAnyCaseUnknownKeysCommentsAndCrlf() throws Exception {
        Manifest m = parse("# written by hand\n"
                + "type b seq 1 file appendonly.aof.1.base.aof\n"
                + "   # indented comment\n"
                + "SEQ 4 FILE appendonly.aof.4.incr.aof TYPE i future-key future-value\r\n");
        assertThat(m.base()).isEqualTo(new FileEntry("appendonly.aof.1.base.aof", 1, Type.BASE));
        assertThat(m.incrs()).containsExactly(incr(4));
    }

    @Test
    void quotedNamesAsRedisQuotesThem() throws Exception {
        Manifest m = parse("file \"my file.1.base.rdb\" seq 1 type b\n"
                + "file 'it\\'s.1.incr.aof' seq 1 type i\n"
                + "file \"tab\\there\\x41\\\\\\\"q\" seq 2 type i\n"
                + "file pre\"fix x\" seq 3 type i\n");
        assertThat(m.base().name()).isEqualTo("my file.1.base.rdb");
        assertThat(m.incrs()).extracting(FileEntry::name).containsExactly("it's.1.incr.aof", "tab\thereA\\\"q", "prefix x");
        assertThat(parse(m.toText())).isEqualTo(m);
        assertThat(m.toText()).startsWith("file \"my file.1.base.rdb\" seq 1 type b\n");
    }

    static Stream<Arguments> malformedLines() {
        return Stream.of(
                Arguments.of("file a.aof seq 1", "key 'type' missing"),
                Arguments.of("file a.aof seq 1 type", "odd number of words"),
                Arguments.of("file a.aof seq 1 kind i", "key 'type' missing"),
                Arguments.of("seq 1 type i x y", "key 'file' missing"),
                Arguments.of("file a.aof seq -1 type i", "not a positive decimal"),
                Arguments.of("file a.aof seq 0 type i", "not a positive decimal"),
                Arguments.of("file a.aof seq 1x type i", "not a positive decimal"),
                Arguments.of("file a.aof seq 99999999999999999999 type i", "not a positive decimal"),
                Arguments.of("file a.aof seq 1 type x", "type 'x' is not one of"),
                Arguments.of("file a.aof seq 1 type ii", "type 'ii'"),
                Arguments.of("file a.aof seq 1 type i file b.aof", "key 'file' repeated"),
                Arguments.of("file dir/a.aof seq 1 type i", "contains '/'"),
                Arguments.of("file .. seq 1 type i", "directory reference"),
                Arguments.of("file \"\" seq 1 type i", "is empty"),
                Arguments.of("file \"a.aof seq 1 type i", "unbalanced double quote"),
                Arguments.of("file 'a.aof seq 1 type i", "unbalanced single quote"),
                Arguments.of("file \"a\"b seq 1 type i", "closing quote followed by 'b'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedLines")
    void malformedLinesAreRefusedNamingTheLine(String line, String why) {
        String text = "# comment\nfile appendonly.aof.1.base.rdb seq 1 type b\n" + line + "\n";
        assertThatThrownBy(() -> parse(text)).isInstanceOfSatisfying(AofManifestException.class, e -> {
            assertThat(e.line()).isEqualTo(3);
            assertThat(e.getMessage()).contains(SRC.toString()).contains("line 3").contains(why);
        });
    }

    @Test
    void listsThatBreakTheLayoutAreRefused() {
        assertThatThrownBy(() -> parse("file a.rdb seq 1 type b\nfile b.rdb seq 2 type b\n"))
                .isInstanceOf(AofManifestException.class).hasMessageContaining("line 2").hasMessageContaining("second base");
        assertThatThrownBy(() -> parse("file a seq 2 type i\nfile b seq 2 type i\n"))
                .isInstanceOf(AofManifestException.class).hasMessageContaining("line 2").hasMessageContaining("not above");
        assertThatThrownBy(() -> parse("file a seq 1 type b\nfile a seq 2 type i\n"))
                .isInstanceOf(AofManifestException.class).hasMessageContaining("listed twice");
        assertThatThrownBy(() -> parse("file a seq 1 type h\n"))
                .isInstanceOfSatisfying(AofManifestException.class, e -> assertThat(e.line()).isZero())
                .hasMessageContaining("neither a base nor an incremental");
        assertThatThrownBy(() -> parse(""))
                .isInstanceOf(AofManifestException.class).hasMessageContaining("neither");
        assertThatThrownBy(() -> parse("file a seq 1 type b\n\nfile b seq 1 type i\n"))
                .isInstanceOf(AofManifestException.class).hasMessageContaining("line 2").hasMessageContaining("blank");
        assertThatThrownBy(() -> parse("file a seq 1 type b\nfile b seq 1 type i"))
                .isInstanceOf(AofManifestException.class).hasMessageContaining("line 2").hasMessageContaining("newline");
        assertThatThrownBy(() -> parse("file " + "x".repeat(1100) + " seq 1 type b\n"))
                .isInstanceOf(AofManifestException.class).hasMessageContaining("longer than 1024");
    }

    @Test
    void sequenceNumbersNeverReuseANameEvenOneStillInHistory() {
        Manifest m = new Manifest(base(2), List.of(incr(5)),
                List.of(hist("appendonly.aof.1.base.rdb", 1), hist("appendonly.aof.7.incr.aof", 7), hist("appendonly.aof.3.base.aof", 3)));
        assertThat(m.nextBaseSeq()).isEqualTo(4);
        assertThat(m.nextIncrSeq()).isEqualTo(8);
        assertThat(Manifest.EMPTY.nextBaseSeq()).isEqualTo(1);
        assertThat(Manifest.EMPTY.nextIncrSeq()).isEqualTo(1);
        // A history name of neither kind counts for both, to be safe.
        Manifest odd = new Manifest(base(1), List.of(incr(1)), List.of(hist("renamed-by-hand", 9)));
        assertThat(odd.nextBaseSeq()).isEqualTo(10);
        assertThat(odd.nextIncrSeq()).isEqualTo(10);
    }

    @Test
    void rewriteMovesTheReplacedFilesToHistory() {
        Manifest m = new Manifest(base(1), List.of(incr(1), incr(2)), List.of());
        Manifest after = m.afterRewrite(base(2), 1);
        assertThat(after.base()).isEqualTo(base(2));
        assertThat(after.incrs()).containsExactly(incr(2));
        assertThat(after.history()).containsExactly(base(1).asHistory(), incr(1).asHistory());
        assertThat(after.withoutHistory().history()).isEmpty();
        assertThat(after.withIncr(incr(3)).incrs()).containsExactly(incr(2), incr(3));
        assertThatThrownBy(() -> after.withIncr(incr(2))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.afterRewrite(base(2), 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Manifest(incr(1), List.of(), List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writeAtomicallyReplacesTheManifestAndLeavesNoTemporaryFile() throws IOException {
        Manifest first = new Manifest(base(1), List.of(incr(1)), List.of());
        AofLayout.writeAtomically(tmp, "appendonly.aof.manifest", first);
        Manifest second = first.afterRewrite(base(2), 0).withIncr(incr(2));
        AofLayout.writeAtomically(tmp, "appendonly.aof.manifest", second);
        assertThat(AofLayout.read(tmp.resolve("appendonly.aof.manifest"))).isEqualTo(second);
        try (var files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("appendonly.aof.manifest");
        }
        assertThatThrownBy(() -> AofLayout.writeAtomically(tmp, "appendonly.aof.manifest", Manifest.EMPTY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AofLayout.writeAtomically(tmp, "../escape.manifest", first))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Property(tries = 300)
    void anyManifestSurvivesTheRoundTrip(@ForAll("manifests") Manifest m) throws Exception {
        assertThat(AofLayout.parse(m.toText().getBytes(StandardCharsets.UTF_8), SRC)).isEqualTo(m);
    }

    @Provide
    Arbitrary<Manifest> manifests() {
        Arbitrary<String> names = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12),
                // Anything but '/' and NUL: spaces, quotes, backslashes, control and non-ASCII characters.
                Arbitraries.strings().withCharRange((char) 1, (char) 0x3000).excludeChars('/').ofMinLength(1).ofMaxLength(20)
                        .filter(s -> !s.equals(".") && !s.equals("..")));
        return names.list().ofMinSize(1).ofMaxSize(8).uniqueElements().flatMap(list -> Arbitraries.integers().between(0, 2)
                .map(baseMode -> {
                    FileEntry b = baseMode == 0 ? null : new FileEntry(list.get(0), 1 + list.size(), Type.BASE);
                    List<FileEntry> incrs = new ArrayList<>();
                    List<FileEntry> history = new ArrayList<>();
                    for (int i = 1; i < list.size(); i++) {
                        if (i % 3 == 0) {
                            history.add(new FileEntry(list.get(i), i, Type.HISTORY));
                        } else {
                            incrs.add(new FileEntry(list.get(i), 10L * i, Type.INCR));
                        }
                    }
                    if (b == null && incrs.isEmpty()) {
                        b = new FileEntry(list.get(0), 1, Type.BASE);
                    }
                    return new Manifest(b, incrs, history);
                }));
    }
}
