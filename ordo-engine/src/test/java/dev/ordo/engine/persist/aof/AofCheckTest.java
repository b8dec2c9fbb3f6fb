package dev.ordo.engine.persist.aof;

import dev.ordo.engine.persist.aof.AofLayout.FileEntry;
import dev.ordo.engine.persist.aof.AofLayout.Manifest;
import dev.ordo.engine.persist.aof.AofLayout.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The check tool's verdicts, exit codes and repairs, on single files and on manifests. */
class AofCheckTest {
    @TempDir
    Path tmp;

    private String output;

    private int check(Path file, boolean fix) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int code;
        try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            code = AofCheck.run(file, fix, out);
        }
        output = buf.toString(StandardCharsets.UTF_8);
        return code;
    }

    private static AofBytes someCommands(int n) {
        AofBytes f = new AofBytes();
        for (int i = 0; i < n; i++) {
            f.command("ZADD", "board", Integer.toString(i), "member-" + i);
        }
        return f;
    }

    @Test
    void aValidFile() throws IOException {
        Path file = someCommands(5).transaction(List.of(List.of("INCR", "x"))).write(tmp.resolve("appendonly.aof"));
        byte[] before = Files.readAllBytes(file);
        assertThat(check(file, false)).isZero();
        assertThat(output).contains("valid, 8 command(s) in " + before.length + " bytes").contains("AOF is valid");
        assertThat(check(file, true)).isZero();
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void aTornFileIsReportedThenCutByFixAndThenValid() throws IOException {
        AofBytes f = someCommands(3);
        byte[] all = f.bytes();
        int cut = all.length - 5;
        Path file = Files.write(tmp.resolve("appendonly.aof"), Arrays.copyOf(all, cut));
        long valid = f.boundaries().get(2);

        assertThat(check(file, false)).isEqualTo(1);
        assertThat(output).contains("torn tail: size " + cut + " bytes, valid up to offset " + valid + ", " + (cut - valid)
                + " bytes would be cut").contains("run with --fix");
        assertThat(Files.size(file)).isEqualTo(cut);

        assertThat(check(file, true)).isZero();
        assertThat(output).contains("Truncated appendonly.aof from " + cut + " to " + valid).contains("valid after the repair");
        assertThat(Files.readAllBytes(file)).isEqualTo(Arrays.copyOf(all, (int) valid));

        assertThat(check(file, false)).isZero();
        assertThat(output).contains("AOF is valid");
    }

    @Test
    void aTornTransactionIsCutAtItsMulti() throws IOException {
        AofBytes f = someCommands(2).transaction(List.of(List.of("INCR", "x"), List.of("INCR", "y")));
        byte[] all = f.bytes();
        Path file = Files.write(tmp.resolve("a.aof"), Arrays.copyOf(all, all.length - 3));
        assertThat(check(file, true)).isZero();
        assertThat(Files.size(file)).isEqualTo(f.boundaries().get(2));
    }

    @Test
    void damageInTheMiddleIsRefusedEvenWithFix() throws IOException {
        AofBytes f = someCommands(400);
        byte[] bad = f.bytes();
        long recordStart = f.boundaries().get(10);
        bad[(int) recordStart] = '?';
        Path file = Files.write(tmp.resolve("appendonly.aof"), bad);

        assertThat(check(file, false)).isEqualTo(1);
        assertThat(output).contains("corrupt at offset " + recordStart).contains("expected '*'");
        assertThat(check(file, true)).isEqualTo(1);
        assertThat(output).contains("--fix will not repair it").contains("by hand at offset " + recordStart);
        assertThat(Files.readAllBytes(file)).isEqualTo(bad);
    }

    @Test
    void damageWithinTheLastPageIsCutByFix() throws IOException {
        AofBytes f = someCommands(400);
        byte[] bad = f.bytes();
        long lastStart = f.boundaries().get(399);
        bad[(int) lastStart + 1] = 'z';
        Path file = Files.write(tmp.resolve("appendonly.aof"), bad);
        assertThat(check(file, false)).isEqualTo(1);
        assertThat(output).contains("corrupt at offset " + (lastStart + 1)).contains("run with --fix");
        assertThat(check(file, true)).isZero();
        assertThat(Files.size(file)).isEqualTo(lastStart);
    }

    @Test
    void aLongZeroFilledTailIsCutByFix() throws IOException {
        AofBytes f = someCommands(3);
        Path file = Files.write(tmp.resolve("appendonly.aof"), new AofBytes().raw(f.bytes()).raw(new byte[20_000]).bytes());
        assertThat(check(file, true)).isZero();
        assertThat(Files.size(file)).isEqualTo(f.size());
        // The same length of non-zero garbage is refused.
        Path garbage = Files.write(tmp.resolve("g.aof"), new AofBytes().raw(f.bytes()).raw("x".repeat(20_000).getBytes(StandardCharsets.US_ASCII)).bytes());
        assertThat(check(garbage, true)).isEqualTo(1);
        assertThat(Files.size(garbage)).isEqualTo(f.size() + 20_000);
    }

    @Test
    void aMissingFileOrAnRdbFile() throws IOException {
        assertThat(check(tmp.resolve("nope.aof"), false)).isEqualTo(1);
        assertThat(output).contains("no such file");
        Path rdb = Files.write(tmp.resolve("dump.rdb"), validRdb());
        assertThat(check(rdb, false)).isZero();
        assertThat(output).contains("RDB format: valid, 1 keys, checksum OK");
        byte[] valid = validRdb();
        Path torn = Files.write(tmp.resolve("torn.rdb"), Arrays.copyOf(valid, valid.length - 3));
        assertThat(check(torn, false)).isEqualTo(1);
        assertThat(output).contains("RDB format: not valid");
        Path badVersion = Files.write(tmp.resolve("bad.rdb"), "REDISxx".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(check(badVersion, false)).isEqualTo(1);
    }

    // ------------------------------------------------------------------------------------------
    // Manifests

    private Path dir() throws IOException {
        return Files.createDirectories(tmp.resolve(AofLayout.DEFAULT_DIR_NAME));
    }

    private Path manifest(FileEntry base, List<FileEntry> incrs, List<FileEntry> history) throws IOException {
        AofLayout.writeAtomically(dir(), "appendonly.aof.manifest", new Manifest(base, incrs, history));
        return dir().resolve("appendonly.aof.manifest");
    }

    private static FileEntry incr(long seq) {
        return new FileEntry("appendonly.aof." + seq + ".incr.aof", seq, Type.INCR);
    }

    private static final FileEntry BASE_AOF = new FileEntry("appendonly.aof.1.base.aof", 1, Type.BASE);
    private static final FileEntry BASE_RDB = new FileEntry("appendonly.aof.2.base.rdb", 2, Type.BASE);

    @Test
    void aManifestWithSeveralFilesChecksEachInOrder() throws IOException {
        someCommands(4).write(dir().resolve(BASE_AOF.name()));
        someCommands(2).write(dir().resolve(incr(1).name()));
        someCommands(3).write(dir().resolve(incr(2).name()));
        Path m = manifest(BASE_AOF, List.of(incr(1), incr(2)), List.of(new FileEntry("appendonly.aof.0.incr.aof", 1, Type.HISTORY)));
        assertThat(check(m, false)).isZero();
        assertThat(output)
                .contains("base appendonly.aof.1.base.aof, 2 incremental file(s)")
                .contains("History files (never loaded, not checked): appendonly.aof.0.incr.aof")
                .contains("appendonly.aof.1.base.aof: valid, 4 command(s)")
                .contains("appendonly.aof.1.incr.aof: valid, 2 command(s)")
                .contains("appendonly.aof.2.incr.aof: valid, 3 command(s)")
                .contains("AOF is valid");
        assertThat(output.indexOf("1.base.aof: valid")).isLessThan(output.indexOf("1.incr.aof: valid"));
        // The directory alone finds its manifest.
        assertThat(check(dir(), false)).isZero();
    }

    @Test
    void onlyTheLastIncrementalFileMayBeCut() throws IOException {
        Files.write(dir().resolve(BASE_RDB.name()), validRdb());
        byte[] incr1 = someCommands(2).bytes();
        byte[] incr2 = someCommands(3).bytes();
        Path p1 = Files.write(dir().resolve(incr(1).name()), incr1);
        Path p2 = Files.write(dir().resolve(incr(2).name()), Arrays.copyOf(incr2, incr2.length - 4));
        Path m = manifest(BASE_RDB, List.of(incr(1), incr(2)), List.of());

        assertThat(check(m, false)).isEqualTo(1);
        assertThat(output).contains("appendonly.aof.2.base.rdb: RDB format: valid, 1 keys")
                .contains("appendonly.aof.2.incr.aof: torn tail");
        assertThat(check(m, true)).isZero();
        assertThat(Files.size(p2)).isEqualTo(someCommands(2).size());

        // A torn file before the last is not repairable, and --fix then touches nothing, not even the last file.
        Files.write(p1, Arrays.copyOf(incr1, incr1.length - 2));
        Files.write(p2, Arrays.copyOf(incr2, incr2.length - 4));
        assertThat(check(m, true)).isEqualTo(1);
        assertThat(output).contains("appendonly.aof.1.incr.aof is torn but is not the last file");
        assertThat(Files.size(p1)).isEqualTo(incr1.length - 2);
        assertThat(Files.size(p2)).isEqualTo(incr2.length - 4);
    }

    @Test
    void aMissingListedFileABadRdbBaseOrAMalformedManifestIsInvalid() throws IOException {
        someCommands(1).write(dir().resolve(BASE_AOF.name()));
        Path m = manifest(BASE_AOF, List.of(incr(1)), List.of());
        assertThat(check(m, true)).isEqualTo(1);
        assertThat(output).contains("appendonly.aof.1.incr.aof: listed in the manifest but missing");

        Files.write(dir().resolve(BASE_RDB.name()), "REDIS".getBytes(StandardCharsets.US_ASCII));
        someCommands(1).write(dir().resolve(incr(1).name()));
        Path m2 = manifest(BASE_RDB, List.of(incr(1)), List.of());
        assertThat(check(m2, false)).isEqualTo(1);
        assertThat(output).contains("appendonly.aof.2.base.rdb: RDB format: not valid");

        Files.writeString(m2, "file appendonly.aof.1.incr.aof seq 1 type q\n");
        assertThat(check(m2, false)).isEqualTo(1);
        assertThat(output).contains("AOF manifest is not valid").contains("line 1").contains("type 'q'");
    }

    @Test
    void aManifestIsRecognisedByItsContentWhateverItsName() throws IOException {
        someCommands(2).write(dir().resolve(incr(1).name()));
        Path m = dir().resolve("renamed");
        Files.writeString(m, "# comment first\nfile appendonly.aof.1.incr.aof seq 1 type i\n");
        assertThat(check(m, false)).isZero();
        assertThat(output).contains("Checking AOF manifest").contains("appendonly.aof.1.incr.aof: valid, 2 command(s)");
    }

    /** A small, complete RDB file: one key, with its checksum. */
    static byte[] validRdb() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        dev.ordo.engine.persist.rdb.RdbWriter w = new dev.ordo.engine.persist.rdb.RdbWriter(out, true, true);
        w.header(java.util.Map.of("redis-ver", "7.0.15"));
        w.selectDb(0, 1, 0);
        w.entry(dev.ordo.engine.keyspace.Key.of("k"), new dev.ordo.engine.keyspace.StringValue("v".getBytes(StandardCharsets.US_ASCII)), -1);
        w.finish();
        return out.toByteArray();
    }
}
