package dev.ordo.engine.persist.aof;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Where the append-only file lives and how its parts are named: Redis 7's multi-part layout, which
 * Ordo reads and writes unchanged so that a data directory moves between the two.
 *
 * <h2>The directory</h2>
 * <pre>
 * &lt;dir&gt;/&lt;appenddirname&gt;/                        default appendonlydir
 *     &lt;appendfilename&gt;.manifest                  default appendonly.aof.manifest
 *     &lt;appendfilename&gt;.&lt;seq&gt;.base.rdb             the base: an RDB snapshot ...
 *     &lt;appendfilename&gt;.&lt;seq&gt;.base.aof             ... or commands (aof-use-rdb-preamble no)
 *     &lt;appendfilename&gt;.&lt;seq&gt;.incr.aof             commands appended after the base, oldest first
 *     temp-...                                   files being written; never listed in a manifest
 * </pre>
 * The data set is the base followed by every incremental file in the manifest's order. Only the
 * last incremental file is ever appended to, so only it can end in a torn write. A rewrite writes a
 * new base (under {@link #tempRewriteName()}, renamed into place when complete), and the manifest
 * written after it moves the old base and the incremental files it replaced to the history list:
 * files kept only until they are deleted, never loaded.
 *
 * <h2>The manifest</h2>
 * One line per file, each ending in {@code \n}, as Redis 7.0 writes them: the base first, then the
 * history, then the incremental files in order:
 * <pre>
 * file appendonly.aof.2.base.rdb seq 2 type b
 * file appendonly.aof.1.incr.aof seq 1 type h
 * file appendonly.aof.2.incr.aof seq 2 type i
 * </pre>
 * Reading accepts what Redis's own reader accepts: the key/value pairs in any order, keys in any
 * case, unknown keys ignored (a newer writer may add some), lines whose first non-blank byte is
 * {@code #} skipped as comments, a trailing {@code \r} tolerated, and names quoted as Redis quotes
 * arguments: in double quotes with the escapes {@code \" \\ \n \r \t \a \b \xHH}, or in single
 * quotes with {@code \'}. Anything else is refused with an {@link AofManifestException} naming the
 * line: an odd number of words, a missing or repeated key, a sequence that is not a positive
 * decimal number, a type other than {@code b h i}, a name that is not a plain file name (empty,
 * {@code .}, {@code ..}, or containing {@code /} or NUL), a line longer than
 * {@value #MAX_MANIFEST_LINE} bytes or without its final newline (a truncated manifest), a blank
 * line. So are lists that break the layout: two bases, one name listed twice, incremental files
 * whose sequence numbers do not increase, and a manifest that lists neither a base nor an
 * incremental file.
 *
 * <p>Names that need it are written in double quotes with those escapes; every other name is
 * written bare, byte for byte as Redis writes it.
 *
 * <h2>Sequence numbers</h2>
 * Bases and incremental files are numbered separately, each from 1, each one more than the highest
 * number that kind has had ({@link Manifest#nextBaseSeq()}, {@link Manifest#nextIncrSeq()}): history
 * entries count too, so a name is never reused while an old file of that name may still exist.
 *
 * @param parent   the server's working directory ({@code dir})
 * @param dirName  {@code appenddirname}: a plain directory name, not a path
 * @param fileName {@code appendfilename}: a plain file name, not a path
 */
public record AofLayout(Path parent, String dirName, String fileName) {
    /** The default {@code appenddirname}. */
    public static final String DEFAULT_DIR_NAME = "appendonlydir";
    /** The default {@code appendfilename}. */
    public static final String DEFAULT_FILE_NAME = "appendonly.aof";
    /** Ends the manifest's name: {@code <appendfilename>.manifest}. */
    public static final String MANIFEST_SUFFIX = ".manifest";
    /** Ends the name of a base holding a snapshot. */
    public static final String BASE_RDB_SUFFIX = ".base.rdb";
    /** Ends the name of a base holding commands. */
    public static final String BASE_AOF_SUFFIX = ".base.aof";
    /** Ends the name of an incremental file. */
    public static final String INCR_SUFFIX = ".incr.aof";
    /** Every file this layout writes before renaming it into place starts with this. */
    public static final String TEMP_PREFIX = "temp-";
    /** Redis's limit for one manifest line, kept so that Redis can read every manifest Ordo writes. */
    public static final int MAX_MANIFEST_LINE = 1024;

    /**
     * Refuses a missing parent, and directory or file names that are empty or hold a path.
     *
     * @param parent the server's working directory ({@code dir})
     * @param dirName {@code appenddirname}
     * @param fileName {@code appendfilename}
     */
    public AofLayout {
        Objects.requireNonNull(parent, "parent");
        checkName(dirName, "appenddirname");
        checkName(fileName, "appendfilename");
    }

    /**
     * The default names under {@code parent}: {@code appendonlydir/appendonly.aof.*}.
     *
     * @param parent the server's working directory
     * @return the layout with the default names
     */
    public static AofLayout defaults(Path parent) {
        return new AofLayout(parent, DEFAULT_DIR_NAME, DEFAULT_FILE_NAME);
    }

    /**
     * The directory holding the manifest and every file it lists.
     *
     * @return {@code parent/dirName}
     */
    public Path dir() {
        return parent.resolve(dirName);
    }

    /**
     * The manifest's file name, {@code <appendfilename>.manifest}.
     *
     * @return the name
     */
    public String manifestName() {
        return fileName + MANIFEST_SUFFIX;
    }

    /**
     * The manifest's path, in {@link #dir()}.
     *
     * @return the path
     */
    public Path manifestPath() {
        return dir().resolve(manifestName());
    }

    /**
     * {@code <appendfilename>.<seq>.base.rdb}, or {@code .base.aof} when the base holds commands.
     *
     * @param seq the base's sequence number
     * @param rdb whether the base is a snapshot rather than commands
     * @return the file name
     */
    public String baseName(long seq, boolean rdb) {
        return fileName + "." + checkSeq(seq) + (rdb ? BASE_RDB_SUFFIX : BASE_AOF_SUFFIX);
    }

    /**
     * {@code <appendfilename>.<seq>.incr.aof}.
     *
     * @param seq the file's sequence number
     * @return the file name
     */
    public String incrName(long seq) {
        return fileName + "." + checkSeq(seq) + INCR_SUFFIX;
    }

    /**
     * The name a rewrite writes its new base under, in {@link #dir()}, before renaming it to {@link #baseName}.
     *
     * @return the temporary name
     */
    public String tempRewriteName() {
        return TEMP_PREFIX + "rewriteaof-" + fileName;
    }

    /**
     * The name {@link #writeAtomically} writes a new manifest under before renaming it over the old one.
     *
     * @param manifestName the manifest's name
     * @return the temporary name
     */
    public static String tempManifestName(String manifestName) {
        return TEMP_PREFIX + manifestName;
    }

    /**
     * True for names this layout only ever uses for files being written: leftovers of a crash, safe to delete at startup.
     *
     * @param name a file name found in the directory
     * @return whether it is a temporary name
     */
    public static boolean isTempName(String name) {
        return name.startsWith(TEMP_PREFIX);
    }

    /**
     * The path of a listed file.
     *
     * @param entry an entry of the manifest
     * @return its path, in {@link #dir()}
     */
    public Path resolve(FileEntry entry) {
        return dir().resolve(entry.name());
    }

    /** The kind of a manifest entry, with the letter the manifest uses for it. */
    public enum Type {
        /** The file the others apply on top of: a snapshot or commands. */
        BASE('b'),
        /** A file a rewrite replaced, listed until it is deleted. */
        HISTORY('h'),
        /** A file of commands logged after the base, appended to while it is the last one. */
        INCR('i');

        private final char letter;

        Type(char letter) {
            this.letter = letter;
        }

        /**
         * The letter the manifest writes after {@code type}.
         *
         * @return the letter
         */
        public char letter() {
            return letter;
        }

        /**
         * The type for a manifest letter, or null.
         *
         * @param c the letter read
         * @return the type
         */
        public static Type ofLetter(char c) {
            for (Type t : values()) {
                if (t.letter == c) {
                    return t;
                }
            }
            return null;
        }
    }

    /** One line of the manifest: a file in {@link #dir()}. */
    public record FileEntry(String name, long seq, Type type) {
        /**
         * Refuses a name that is empty or holds a path, a sequence number below 1, and a missing type.
         *
         * @param name the file's name, in the layout's directory
         * @param seq its sequence number, from 1
         * @param type what the file is to the manifest
         */
        public FileEntry {
            checkName(name, "AOF file name");
            checkSeq(seq);
            Objects.requireNonNull(type, "type");
        }

        /**
         * The same file as a history entry.
         *
         * @return a history entry for this file
         */
        public FileEntry asHistory() {
            return new FileEntry(name, seq, Type.HISTORY);
        }
    }

    /**
     * The content of a manifest: at most one base, the incremental files in the order they are
     * loaded (increasing sequence numbers), and the history files waiting to be deleted. Immutable;
     * the {@code with...} methods return changed copies.
     */
    public record Manifest(FileEntry base, List<FileEntry> incrs, List<FileEntry> history) {
        /** The manifest of an AOF with no files yet. */
        public static final Manifest EMPTY = new Manifest(null, List.of(), List.of());

        /**
         * Copies the lists and refuses entries of the wrong type, names listed twice, and incremental files out of order.
         *
         * @param base the base file, or null
         * @param incrs the incremental files, in loading order
         * @param history the files to delete
         */
        public Manifest {
            incrs = List.copyOf(incrs);
            history = List.copyOf(history);
            if (base != null && base.type() != Type.BASE) {
                throw new IllegalArgumentException("the base entry has type " + base.type() + ": " + base.name());
            }
            Set<String> names = new HashSet<>();
            if (base != null) {
                names.add(base.name());
            }
            long last = 0;
            for (FileEntry e : incrs) {
                if (e.type() != Type.INCR) {
                    throw new IllegalArgumentException("an incremental entry has type " + e.type() + ": " + e.name());
                }
                if (e.seq() <= last) {
                    throw new IllegalArgumentException("incremental sequence numbers must increase: " + e.seq() + " after " + last);
                }
                last = e.seq();
                if (!names.add(e.name())) {
                    throw new IllegalArgumentException("file listed twice: " + e.name());
                }
            }
            for (FileEntry e : history) {
                if (e.type() != Type.HISTORY) {
                    throw new IllegalArgumentException("a history entry has type " + e.type() + ": " + e.name());
                }
                if (!names.add(e.name())) {
                    throw new IllegalArgumentException("file listed twice: " + e.name());
                }
            }
        }

        /**
         * True when nothing is to be loaded: no base and no incremental file. Such a manifest is never written.
         *
         * @return whether there is nothing to load
         */
        public boolean isEmpty() {
            return base == null && incrs.isEmpty();
        }

        /**
         * The files to load, in order: the base (if any), then the incremental files.
         *
         * @return the base, then the incremental files
         */
        public List<FileEntry> loadOrder() {
            List<FileEntry> out = new ArrayList<>(incrs.size() + 1);
            if (base != null) {
                out.add(base);
            }
            out.addAll(incrs);
            return List.copyOf(out);
        }

        /**
         * The last incremental file: the one appended to, the only one that may end in a torn write. Null when there is none.
         *
         * @return the last incremental file, or null
         */
        public FileEntry lastIncr() {
            return incrs.isEmpty() ? null : incrs.get(incrs.size() - 1);
        }

        /**
         * One more than the highest base number ever listed (the base and history entries named as bases).
         *
         * @return the sequence number for the next base
         */
        public long nextBaseSeq() {
            long max = base == null ? 0 : base.seq();
            for (FileEntry e : history) {
                if (!isIncrName(e.name())) {
                    max = Math.max(max, e.seq());
                }
            }
            return max + 1;
        }

        /**
         * One more than the highest incremental number ever listed (incremental and history entries named as incremental files).
         *
         * @return the sequence number for the next incremental file
         */
        public long nextIncrSeq() {
            long max = 0;
            for (FileEntry e : incrs) {
                max = Math.max(max, e.seq());
            }
            for (FileEntry e : history) {
                if (!isBaseName(e.name())) {
                    max = Math.max(max, e.seq());
                }
            }
            return max + 1;
        }

        /**
         * This manifest with one more incremental file appended at the end.
         *
         * @param incr the new incremental file
         * @return the new manifest
         */
        public Manifest withIncr(FileEntry incr) {
            List<FileEntry> list = new ArrayList<>(incrs);
            list.add(incr);
            return new Manifest(base, list, history);
        }

        /**
         * The manifest after a rewrite: {@code newBase} replaces the base, and the old base and every
         * incremental file but the last {@code keptIncrs} (those opened after the rewrite started,
         * whose commands the new base does not hold) move to the history.
         *
         * @param newBase the base the rewrite wrote
         * @param keptIncrs how many of the last incremental files the rewrite did not cover
         * @return the new manifest
         */
        public Manifest afterRewrite(FileEntry newBase, int keptIncrs) {
            if (keptIncrs < 0 || keptIncrs > incrs.size()) {
                throw new IllegalArgumentException("cannot keep " + keptIncrs + " of " + incrs.size() + " incremental files");
            }
            List<FileEntry> hist = new ArrayList<>(history);
            if (base != null) {
                hist.add(base.asHistory());
            }
            int cut = incrs.size() - keptIncrs;
            for (FileEntry e : incrs.subList(0, cut)) {
                hist.add(e.asHistory());
            }
            return new Manifest(newBase, incrs.subList(cut, incrs.size()), hist);
        }

        /**
         * This manifest without history entries: what is written once the history files are deleted.
         *
         * @return the new manifest
         */
        public Manifest withoutHistory() {
            return new Manifest(base, incrs, List.of());
        }

        /**
         * The manifest's text, as Redis writes it: base, history, then incremental files.
         *
         * @return the text, one line per entry
         */
        public String toText() {
            StringBuilder sb = new StringBuilder();
            if (base != null) {
                appendLine(sb, base);
            }
            for (FileEntry e : history) {
                appendLine(sb, e);
            }
            for (FileEntry e : incrs) {
                appendLine(sb, e);
            }
            return sb.toString();
        }

        private static void appendLine(StringBuilder sb, FileEntry e) {
            sb.append("file ").append(quoteIfNeeded(e.name())).append(" seq ").append(e.seq())
                    .append(" type ").append(e.type().letter()).append('\n');
        }
    }

    static boolean isIncrName(String name) {
        return name.endsWith(INCR_SUFFIX);
    }

    static boolean isBaseName(String name) {
        return name.endsWith(BASE_RDB_SUFFIX) || name.endsWith(BASE_AOF_SUFFIX);
    }

    // ------------------------------------------------------------------------------------------
    // Reading

    /**
     * Reads and checks a manifest; see the class comment for what is accepted.
     *
     * @param manifestFile the manifest to read
     * @return the manifest
     * @throws IOException when it cannot be read, or ({@link AofManifestException}) cannot be trusted
     */
    public static Manifest read(Path manifestFile) throws IOException {
        return parse(Files.readAllBytes(manifestFile), manifestFile);
    }

    /**
     * Parses manifest text; {@code source} names it in errors.
     *
     * @param text the manifest's bytes
     * @param source where they come from, for error messages
     * @return the manifest
     * @throws AofManifestException when a line is malformed or the files listed break the layout's rules
     */
    public static Manifest parse(byte[] text, Path source) throws AofManifestException {
        FileEntry base = null;
        List<FileEntry> incrs = new ArrayList<>();
        List<FileEntry> history = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int lineNo = 0;
        int pos = 0;
        while (pos < text.length) {
            lineNo++;
            int nl = indexOf(text, (byte) '\n', pos);
            int end = nl < 0 ? text.length : nl;
            if (end - pos > MAX_MANIFEST_LINE) {
                throw new AofManifestException(source, lineNo, "line longer than " + MAX_MANIFEST_LINE + " bytes");
            }
            if (nl < 0) {
                throw new AofManifestException(source, lineNo, "line does not end with a newline (truncated manifest?)");
            }
            int from = pos;
            int to = end;
            pos = nl + 1;
            while (from < to && isSpace(text[from])) {
                from++;
            }
            while (to > from && isSpace(text[to - 1])) {
                to--;
            }
            if (from == to) {
                throw new AofManifestException(source, lineNo, "blank line");
            }
            if (text[from] == '#') {
                continue;
            }
            FileEntry e = parseLine(text, from, to, source, lineNo);
            if (!names.add(e.name())) {
                throw new AofManifestException(source, lineNo, "file " + e.name() + " is listed twice");
            }
            switch (e.type()) {
                case BASE -> {
                    if (base != null) {
                        throw new AofManifestException(source, lineNo, "a second base file (" + e.name() + " after " + base.name() + ")");
                    }
                    base = e;
                }
                case INCR -> {
                    if (!incrs.isEmpty() && e.seq() <= incrs.get(incrs.size() - 1).seq()) {
                        throw new AofManifestException(source, lineNo, "incremental file " + e.name() + " has sequence " + e.seq()
                                + ", not above the previous one's " + incrs.get(incrs.size() - 1).seq());
                    }
                    incrs.add(e);
                }
                case HISTORY -> history.add(e);
            }
        }
        if (base == null && incrs.isEmpty()) {
            throw new AofManifestException(source, 0, "the manifest lists neither a base nor an incremental file");
        }
        return new Manifest(base, incrs, history);
    }

    private static FileEntry parseLine(byte[] text, int from, int to, Path source, int lineNo) throws AofManifestException {
        List<byte[]> words;
        try {
            words = splitWords(text, from, to);
        } catch (IllegalArgumentException e) {
            throw new AofManifestException(source, lineNo, e.getMessage());
        }
        String shape = "expected 'file <name> seq <n> type <b|h|i>'";
        if (words.size() % 2 != 0) {
            throw new AofManifestException(source, lineNo, "odd number of words (" + words.size() + "): " + shape);
        }
        String name = null;
        String seqText = null;
        String typeText = null;
        for (int i = 0; i < words.size(); i += 2) {
            String key = new String(words.get(i), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
            String value = new String(words.get(i + 1), StandardCharsets.UTF_8);
            switch (key) {
                case "file" -> {
                    if (name != null) {
                        throw new AofManifestException(source, lineNo, "key 'file' repeated");
                    }
                    name = value;
                }
                case "seq" -> {
                    if (seqText != null) {
                        throw new AofManifestException(source, lineNo, "key 'seq' repeated");
                    }
                    seqText = value;
                }
                case "type" -> {
                    if (typeText != null) {
                        throw new AofManifestException(source, lineNo, "key 'type' repeated");
                    }
                    typeText = value;
                }
                default -> {
                    // An unknown key: written by a newer version, ignored as Redis ignores it.
                }
            }
        }
        if (name == null || seqText == null || typeText == null) {
            String missing = name == null ? "file" : seqText == null ? "seq" : "type";
            throw new AofManifestException(source, lineNo, "key '" + missing + "' missing: " + shape);
        }
        String nameProblem = nameProblem(name);
        if (nameProblem != null) {
            throw new AofManifestException(source, lineNo, "file name " + printable(name) + " " + nameProblem);
        }
        long seq = parseSeq(seqText);
        if (seq < 1) {
            throw new AofManifestException(source, lineNo, "seq " + printable(seqText) + " is not a positive decimal number");
        }
        Type type = typeText.length() == 1 ? Type.ofLetter(typeText.charAt(0)) : null;
        if (type == null) {
            throw new AofManifestException(source, lineNo, "type " + printable(typeText) + " is not one of b (base), h (history), i (incremental)");
        }
        return new FileEntry(name, seq, type);
    }

    /** A decimal number of digits only (no sign) that fits a long, or -1. */
    private static long parseSeq(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long v = 0;
        try {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                v = Math.addExact(Math.multiplyExact(v, 10), c - '0');
            }
        } catch (ArithmeticException e) {
            return -1;
        }
        return v;
    }

    /**
     * Splits a line into words as Redis splits arguments: blanks separate words; a double or single
     * quote opens a quoted part (which may join bare text before it) that must be followed by a
     * blank or the end of the line once closed.
     */
    static List<byte[]> splitWords(byte[] b, int from, int to) {
        List<byte[]> words = new ArrayList<>();
        int i = from;
        while (true) {
            while (i < to && isSpace(b[i])) {
                i++;
            }
            if (i >= to) {
                return words;
            }
            ByteArrayOutputStream w = new ByteArrayOutputStream();
            boolean word = true;
            while (word) {
                if (i >= to) {
                    break;
                }
                byte c = b[i];
                if (isSpace(c)) {
                    break;
                } else if (c == '"') {
                    i = readQuoted(b, i + 1, to, w, true);
                } else if (c == '\'') {
                    i = readQuoted(b, i + 1, to, w, false);
                } else {
                    w.write(c);
                    i++;
                    continue;
                }
                // After a closing quote: a blank or the end of the line.
                if (i < to && !isSpace(b[i])) {
                    throw new IllegalArgumentException("closing quote followed by '" + (char) (b[i] & 0xff) + "' instead of a blank");
                }
                word = false;
            }
            words.add(w.toByteArray());
        }
    }

    /** Reads a quoted part starting just after its opening quote; returns the index after the closing quote. */
    private static int readQuoted(byte[] b, int i, int to, ByteArrayOutputStream w, boolean dq) {
        while (i < to) {
            byte c = b[i];
            if (dq) {
                if (c == '\\' && i + 3 < to && b[i + 1] == 'x' && hex(b[i + 2]) >= 0 && hex(b[i + 3]) >= 0) {
                    w.write(hex(b[i + 2]) * 16 + hex(b[i + 3]));
                    i += 4;
                } else if (c == '\\' && i + 1 < to) {
                    byte e = b[i + 1];
                    w.write(switch (e) {
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 't' -> '\t';
                        case 'b' -> '\b';
                        case 'a' -> 7;
                        default -> e;
                    });
                    i += 2;
                } else if (c == '"') {
                    return i + 1;
                } else {
                    w.write(c);
                    i++;
                }
            } else {
                if (c == '\\' && i + 1 < to && b[i + 1] == '\'') {
                    w.write('\'');
                    i += 2;
                } else if (c == '\'') {
                    return i + 1;
                } else {
                    w.write(c);
                    i++;
                }
            }
        }
        throw new IllegalArgumentException("unbalanced " + (dq ? "double" : "single") + " quote");
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0x0b || c == 0x0c;
    }

    private static int indexOf(byte[] b, byte x, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------------------------------
    // Writing

    /**
     * Replaces {@code dir/manifestName} with {@code m} so that a crash at any point leaves either the
     * old manifest or the new one, never a mix: writes {@link #tempManifestName} in the same
     * directory, fsyncs it, renames it over the old manifest, then fsyncs the directory so the
     * rename itself is durable.
     *
     * @param dir the directory holding the manifest
     * @param manifestName the manifest's name
     * @param m the manifest to write
     * @throws IOException when it cannot be written; the old manifest then stays
     * @throws IllegalArgumentException for an empty manifest (no base and no incremental file),
     *                                  which {@link #read} would refuse
     */
    public static void writeAtomically(Path dir, String manifestName, Manifest m) throws IOException {
        checkName(manifestName, "manifest name");
        if (m.isEmpty()) {
            throw new IllegalArgumentException("refusing to write a manifest that lists neither a base nor an incremental file");
        }
        byte[] text = m.toText().getBytes(StandardCharsets.UTF_8);
        Path tmp = dir.resolve(tempManifestName(manifestName));
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(text);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        moveIntoPlace(tmp, dir.resolve(manifestName));
    }

    /**
     * Renames a complete, fsynced file over {@code target} in one step and fsyncs the directory,
     * so after a crash the name holds either the old file or the new one, never a part.
     *
     * @param written the complete file
     * @param target the name it takes
     * @throws IOException when the rename or the fsync fails
     */
    public static void moveIntoPlace(Path written, Path target) throws IOException {
        Files.move(written, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(target.toAbsolutePath().getParent());
    }

    /**
     * Makes a directory's entries (creations, renames, deletions) durable.
     *
     * @param dir the directory
     * @throws IOException when the fsync fails
     */
    public static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (AccessDeniedException e) {
            // Some platforms (Windows) cannot open a directory for reading; POSIX systems can, and there the fsync is real.
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
                throw e;
            }
        }
    }

    /** The name in manifest form: bare when it can be, else double-quoted with escapes. */
    static String quoteIfNeeded(String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        boolean plain = b.length > 0;
        for (byte c : b) {
            if (c <= ' ' || c >= 0x7f || c == '"' || c == '\'' || c == '\\') {
                plain = false;
                break;
            }
        }
        if (plain) {
            return name;
        }
        StringBuilder sb = new StringBuilder("\"");
        for (byte c : b) {
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case 7 -> sb.append("\\a");
                case '\b' -> sb.append("\\b");
                default -> {
                    if (c >= ' ' && c < 0x7f) {
                        sb.append((char) c);
                    } else {
                        sb.append(String.format(Locale.ROOT, "\\x%02x", c & 0xff));
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    // ------------------------------------------------------------------------------------------
    // Checks

    /** Why {@code name} is not a plain file name, or null when it is one. */
    static String nameProblem(String name) {
        if (name == null || name.isEmpty()) {
            return "is empty";
        }
        if (name.equals(".") || name.equals("..")) {
            return "is a directory reference, not a file name";
        }
        if (name.indexOf('/') >= 0) {
            return "contains '/': it must be a file name, not a path";
        }
        if (name.indexOf('\0') >= 0) {
            return "contains a NUL byte";
        }
        return null;
    }

    private static void checkName(String name, String what) {
        String problem = nameProblem(name);
        if (problem != null) {
            throw new IllegalArgumentException(what + " " + (name == null ? "null" : printable(name)) + " " + problem);
        }
    }

    private static long checkSeq(long seq) {
        if (seq < 1) {
            throw new IllegalArgumentException("sequence numbers start at 1: " + seq);
        }
        return seq;
    }

    private static String printable(String s) {
        return "'" + s.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0") + "'";
    }
}
