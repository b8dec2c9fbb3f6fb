package dev.ordo.engine.script.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every snippet of {@link RedisRecordings}, run on LuaJ with this package's libraries, must print what it printed on
 * redis-server: results, type choices, byte layouts and error texts.
 */
class RecordedRedisBehaviourTest {

    /** One recorded snippet: the section it belongs to, its Lua code, and Redis's result line. */
    record Recording(String section, String snippet, String expected) {
    }

    static List<Recording> recordings() {
        List<Recording> all = new ArrayList<>();
        String section = "";
        String snippet = null;
        for (String chunk : RedisRecordings.scripts()) {
            for (String line : chunk.split("\n", -1)) {
                if (line.startsWith("## ")) {
                    section = line.substring(3);
                } else if (line.startsWith("lua: ")) {
                    snippet = line.substring(5);
                } else if (line.startsWith("=> ")) {
                    all.add(new Recording(section, snippet, line.substring(3)));
                    snippet = null;
                }
            }
        }
        return all;
    }

    @Test
    void recordings_parsed_coverEveryLibrary() {
        List<Recording> all = recordings();
        assertThat(all).hasSizeGreaterThan(900);
        assertThat(all).extracting(Recording::section)
                .anyMatch(s -> s.startsWith("cjson"))
                .anyMatch(s -> s.startsWith("cmsgpack"))
                .anyMatch(s -> s.startsWith("bit"))
                .anyMatch(s -> s.startsWith("struct"));
    }

    @TestFactory
    Stream<DynamicTest> recordedSnippet_runOnLuaJ_printsWhatRedisPrinted() {
        LuaScripts lua = new LuaScripts();
        return recordings().stream().map(r -> dynamicTest(r.section() + ": " + abbreviate(r.snippet()),
                () -> assertThat(lua.runRecorded(r.snippet())).as(r.snippet()).isEqualTo(r.expected())));
    }

    private static String abbreviate(String s) {
        return s.length() <= 100 ? s : s.substring(0, 97) + "...";
    }
}
