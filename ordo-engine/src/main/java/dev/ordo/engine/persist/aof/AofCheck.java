package dev.ordo.engine.persist.aof;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.persist.rdb.RdbException;
import dev.ordo.engine.persist.rdb.RdbReader;

import dev.ordo.engine.persist.aof.AofLayout.FileEntry;
import dev.ordo.engine.persist.aof.AofLayout.Manifest;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The check and repair tool behind {@code ordo-server --check-aof FILE [--fix]}, in the spirit of
 * {@code redis-check-aof}.
 *
 * <h2>What it checks</h2>
 * FILE is one of:
 * <ul>
 * <li>a manifest (recognised by its content: its first line that is not a comment starts with
 *     {@code file}), or the AOF directory holding exactly one: the base, then every incremental file
 *     in order, each read with {@link AofReader}; history files are listed, not read. Only the last
 *     incremental file is appended to, so only it may be repaired;</li>
 * <li>a file starting with {@code REDIS}: RDB format (an RDB base, or an old single-file AOF with an
 *     RDB preamble), handed to {@link #checkRdbBase};</li>
 * <li>anything else: a single command file, which counts as the last file.</li>
 * </ul>
 * An RDB base listed in a manifest goes to {@link #checkRdbBase} too, whatever its name says: like
 * Redis, the content decides.
 *
 * <h2>Verdicts and repair</h2>
 * <ul>
 * <li>Every file complete and well formed: the AOF is valid, exit 0.</li>
 * <li>The last file has a torn tail (it ends inside a command, annotation or transaction): reported
 *     with its size, the offset it is valid up to and the bytes a repair cuts; exit 1. With
 *     {@code --fix} the file is truncated to that offset and fsynced, checked again, and the exit
 *     code is 0 when it is then valid.</li>
 * <li>Damage ({@link AofFormatException}): reported with the file and byte offset, exit 1. Repair
 *     rule: {@code --fix} cuts damage only when it is in the <em>tail region</em> of the last file,
 *     meaning either everything from the start of the damaged unit to the end of the file fits in
 *     the last {@value #TAIL_WINDOW} bytes (one page: what an interrupted page write can garble),
 *     or every byte from the first wrong one to the end is zero (a crash after the file grew but
 *     before its data reached the disk). Anything else is refused with exit 1, and the report says
 *     at which offset a manual truncation would keep the valid prefix: a bit flip in the middle of
 *     a file is not a crash, and cutting everything after it is a decision for a person.</li>
 * <li>A torn tail or damage in any file but the last, a missing file, a manifest that does not
 *     parse, an RDB base that fails its check: not repairable, exit 1. {@code --fix} changes nothing
 *     unless every problem found is repairable.</li>
 * </ul>
 */
public final class AofCheck {
    /** Damage this close to the end of the last file counts as a garbled final page, repairable. */
    public static final long TAIL_WINDOW = 4096;


    private AofCheck() {
    }

    /** The result of checking an RDB base: {@code detail} says what was checked, or what is wrong. */
    record RdbCheck(boolean ok, String detail) {
    }

    /**
     * Checks an RDB base (or an old single-file AOF's RDB preamble) by reading it whole with
     * {@link RdbReader}, into nothing: format, lengths, encodings and the checksum. Commands after
     * a preamble are not checked here.
     */
    static RdbCheck checkRdbBase(Path rdb) throws IOException {
        long[] keys = new long[1];
        try {
            RdbReader.read(rdb, (db, key, value, expireAt) -> keys[0]++, new Config());
        } catch (RdbException e) {
            return new RdbCheck(false, e.getMessage());
        }
        return new RdbCheck(true, "valid, " + keys[0] + " keys, checksum OK");
    }

    /** What one file's check found. */
    private sealed interface Verdict permits Valid, Torn, Damaged, Missing, Rdb {
    }

    private record Valid(long size, long commands) implements Verdict {
    }

    private record Torn(long size, long validUpTo) implements Verdict {
    }

    private record Damaged(long size, AofFormatException error, boolean inTail) implements Verdict {
    }

    private record Missing(String why) implements Verdict {
    }

    private record Rdb(RdbCheck check) implements Verdict {
    }

    /** A file to check and whether it is the last one: the only one a repair may cut. */
    private record Target(Path path, String label, boolean last) {
    }

    /**
     * Checks {@code file} and, with {@code fix}, repairs a torn tail of its last file; writes a report
     * to {@code out}. Returns 0 when the AOF is valid (or was repaired into a valid one), 1 otherwise.
     *
     * @param file the manifest, the AOF directory, or a single AOF file
     * @param fix whether to truncate a torn tail
     * @param out where the report goes
     * @return the exit status, 0 or 1
     */
    public static int run(Path file, boolean fix, PrintStream out) {
        try {
            return check(file, fix, out);
        } catch (AofManifestException e) {
            out.println("AOF manifest is not valid: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            out.println("Cannot check " + file + ": " + e);
            return 1;
        }
    }

    private static int check(Path file, boolean fix, PrintStream out) throws IOException {
        if (Files.isDirectory(file)) {
            Path manifest = soleManifest(file);
            if (manifest == null) {
                out.println(file + " is a directory without exactly one *" + AofLayout.MANIFEST_SUFFIX + " file: name the manifest or a single AOF file");
                return 1;
            }
            file = manifest;
        }
        if (!Files.isRegularFile(file)) {
            out.println("Cannot check " + file + ": no such file");
            return 1;
        }
        List<Target> targets = new ArrayList<>();
        if (AofReader.startsWithRdb(file)) {
            out.println("Checking " + file + " (" + Files.size(file) + " bytes): RDB format, an RDB base or an AOF with an RDB preamble");
            targets.add(new Target(file, file.getFileName().toString(), true));
        } else if (file.getFileName().toString().endsWith(AofLayout.MANIFEST_SUFFIX) || looksLikeManifest(file)) {
            Manifest m = AofLayout.read(file);
            Path dir = file.toAbsolutePath().getParent();
            out.println("Checking AOF manifest " + file + ": base " + (m.base() == null ? "none" : m.base().name()) + ", "
                    + m.incrs().size() + " incremental file(s)");
            if (!m.history().isEmpty()) {
                out.println("History files (never loaded, not checked): "
                        + String.join(", ", m.history().stream().map(FileEntry::name).toList()));
            }
            FileEntry lastIncr = m.lastIncr();
            for (FileEntry e : m.loadOrder()) {
                targets.add(new Target(dir.resolve(e.name()), e.name(), e == lastIncr));
            }
        } else {
            out.println("Checking AOF file " + file + " (" + Files.size(file) + " bytes)");
            targets.add(new Target(file, file.getFileName().toString(), true));
        }

        List<Verdict> verdicts = new ArrayList<>();
        for (Target t : targets) {
            Verdict v = checkOne(t);
            report(t, v, fix, out);
            verdicts.add(v);
        }

        Target repair = null;
        long repairTo = -1;
        List<String> unrepairable = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            Target t = targets.get(i);
            Verdict v = verdicts.get(i);
            if (v instanceof Torn torn) {
                if (t.last()) {
                    repair = t;
                    repairTo = torn.validUpTo();
                } else {
                    unrepairable.add(t.label() + " is torn but is not the last file: only the file being appended to can end in a torn write");
                }
            } else if (v instanceof Damaged d) {
                if (t.last() && d.inTail()) {
                    repair = t;
                    repairTo = d.error().validUpTo();
                } else {
                    unrepairable.add(t.label() + " is damaged at offset " + d.error().offset() + (t.last()
                            ? ", before its tail region: --fix cuts only damage within the last " + TAIL_WINDOW
                                    + " bytes or followed by nothing but zero bytes. Truncating it by hand at offset "
                                    + d.error().validUpTo() + " keeps the valid prefix and loses the "
                                    + (d.size() - d.error().validUpTo()) + " bytes after it"
                            : ", and it is not the last file: only the last file may be cut"));
                }
            } else if (v instanceof Missing missing) {
                unrepairable.add(t.label() + ": " + missing.why());
            } else if (v instanceof Rdb rdb && !rdb.check().ok()) {
                unrepairable.add(t.label() + ": " + rdb.check().detail());
            }
        }

        if (!unrepairable.isEmpty()) {
            out.println("AOF is not valid" + (fix ? ", and --fix will not repair it:" : ":"));
            for (String u : unrepairable) {
                out.println("  " + u);
            }
            return 1;
        }
        if (repair == null) {
            out.println("AOF is valid");
            return 0;
        }
        long size = Files.size(repair.path());
        if (!fix) {
            out.println("AOF is not valid: run with --fix to cut " + repair.label() + " from " + size + " to " + repairTo
                    + " bytes (" + (size - repairTo) + " bytes cut)");
            return 1;
        }
        try (FileChannel ch = FileChannel.open(repair.path(), StandardOpenOption.WRITE)) {
            ch.truncate(repairTo);
            ch.force(true);
        }
        out.println("Truncated " + repair.label() + " from " + size + " to " + repairTo + " bytes (" + (size - repairTo)
                + " bytes cut) and synced it to disk");
        Verdict after = checkOne(repair);
        if (after instanceof Valid) {
            out.println("AOF is valid after the repair");
            return 0;
        }
        report(repair, after, false, out);
        out.println("AOF is still not valid after the repair");
        return 1;
    }

    private static Verdict checkOne(Target t) throws IOException {
        Path p = t.path();
        if (!Files.isRegularFile(p)) {
            return new Missing("listed in the manifest but missing (" + p + ")");
        }
        if (AofReader.startsWithRdb(p)) {
            return new Rdb(checkRdbBase(p));
        }
        long size = Files.size(p);
        try {
            AofReader.Result r = AofReader.read(p, (args, offset) -> {
            });
            return r.torn() ? new Torn(size, r.validUpTo()) : new Valid(size, r.commands());
        } catch (AofFormatException e) {
            return new Damaged(size, e, inTailRegion(p, size, e));
        }
    }

    /** The repair rule for damage: see the class comment. */
    private static boolean inTailRegion(Path p, long size, AofFormatException e) throws IOException {
        if (e.validUpTo() < 0) {
            return false;
        }
        if (size - e.validUpTo() <= TAIL_WINDOW) {
            return true;
        }
        try (InputStream in = Files.newInputStream(p)) {
            in.skipNBytes(e.offset());
            byte[] chunk = new byte[1 << 16];
            int n;
            while ((n = in.read(chunk)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (chunk[i] != 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static void report(Target t, Verdict v, boolean fix, PrintStream out) {
        String name = t.label();
        if (v instanceof Valid valid) {
            out.println(name + ": valid, " + valid.commands() + " command(s) in " + valid.size() + " bytes");
        } else if (v instanceof Torn torn) {
            long cut = torn.size() - torn.validUpTo();
            out.println(name + ": torn tail: size " + torn.size() + " bytes, valid up to offset " + torn.validUpTo() + ", "
                    + cut + " bytes " + (fix && t.last() ? "to cut" : "would be cut"));
            if (cut > TAIL_WINDOW) {
                out.println(name + ": note: " + cut + " bytes is more than an interrupted write usually leaves;"
                        + " a damaged length at offset " + torn.validUpTo() + " or after reads the same way");
            }
        } else if (v instanceof Damaged d) {
            long cut = d.size() - d.error().validUpTo();
            out.println(name + ": corrupt at offset " + d.error().offset() + ": " + d.error().reason() + "; valid up to offset "
                    + d.error().validUpTo() + " (" + cut + " bytes from there to the end, file size " + d.size() + ")");
            if (t.last() && d.inTail()) {
                out.println(name + ": the damage is in the tail region of the last file (" + (cut <= TAIL_WINDOW
                        ? "within its last " + TAIL_WINDOW + " bytes" : "nothing but zero bytes after it")
                        + "), as a crash can leave it: " + cut + " bytes " + (fix ? "to cut" : "would be cut"));
            }
        } else if (v instanceof Missing missing) {
            out.println(name + ": " + missing.why());
        } else if (v instanceof Rdb rdb) {
            out.println(name + ": RDB format: " + (rdb.check().ok() ? "" : "not valid: ") + rdb.check().detail());
        }
    }

    /** True when the first line that is not a comment reads {@code file <...>}, as every manifest line does. */
    static boolean looksLikeManifest(Path p) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(p)) {
            head = in.readNBytes(AofLayout.MAX_MANIFEST_LINE * 4);
        }
        int pos = 0;
        while (pos < head.length) {
            int end = pos;
            while (end < head.length && head[end] != '\n') {
                end++;
            }
            String line = new String(head, pos, end - pos, StandardCharsets.ISO_8859_1).strip();
            pos = end + 1;
            if (line.startsWith("#")) {
                continue;
            }
            String lower = line.toLowerCase(Locale.ROOT);
            return lower.startsWith("file ") || lower.startsWith("file\t");
        }
        return false;
    }

    private static Path soleManifest(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> found = s.filter(f -> f.getFileName().toString().endsWith(AofLayout.MANIFEST_SUFFIX)
                    && !AofLayout.isTempName(f.getFileName().toString())).toList();
            return found.size() == 1 ? found.get(0) : null;
        }
    }
}
