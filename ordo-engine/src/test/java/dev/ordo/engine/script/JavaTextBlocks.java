package dev.ordo.engine.script;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The text blocks of a Java source file, as the compiler makes them (indentation stripped, escapes translated). */
final class JavaTextBlocks {
    private static final String DELIMITER = "\"\"\"";

    private JavaTextBlocks() {
    }

    /** Every text block in {@code source}, in order. */
    static List<String> all(String source) {
        List<String> blocks = new ArrayList<>();
        int from = 0;
        for (int open = source.indexOf(DELIMITER, from); open >= 0; open = source.indexOf(DELIMITER, from)) {
            int end = closing(source, open);
            blocks.add(content(source, open, end));
            from = end + DELIMITER.length();
        }
        return blocks;
    }

    /** The text blocks assigned to a variable or constant named {@code name}. */
    static List<String> assignedTo(String source, String name) {
        List<String> blocks = new ArrayList<>();
        Matcher m = Pattern.compile("\\b" + Pattern.quote(name) + "\\s*=\\s*" + DELIMITER).matcher(source);
        while (m.find()) {
            int open = m.end() - DELIMITER.length();
            blocks.add(content(source, open, closing(source, open)));
        }
        return blocks;
    }

    private static int closing(String source, int open) {
        int i = source.indexOf('\n', open) + 1;
        while (!source.startsWith(DELIMITER, i)) {
            if (i >= source.length()) {
                throw new IllegalArgumentException("unclosed text block at offset " + open);
            }
            i += source.charAt(i) == '\\' ? 2 : 1;
        }
        return i;
    }

    private static String content(String source, int open, int close) {
        return source.substring(source.indexOf('\n', open) + 1, close).stripIndent().translateEscapes();
    }
}
