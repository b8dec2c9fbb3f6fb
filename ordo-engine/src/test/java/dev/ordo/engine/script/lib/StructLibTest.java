package dev.ordo.engine.script.lib;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.Varargs;

/** {@link StructLib}: lua-struct as Redis 7 ships it on x86-64; expected values are redis-server 7.0.15's. */
class StructLibTest {

    private final LuaScripts lua = new LuaScripts();

    private String packHex(String luaArgs) {
        LuaString s = lua.eval("return struct.pack(" + luaArgs + ")").arg1().checkstring();
        byte[] bytes = new byte[s.m_length];
        System.arraycopy(s.m_bytes, s.m_offset, bytes, 0, s.m_length);
        return HexFormat.of().formatHex(bytes);
    }

    private String error(String code) {
        Varargs r = lua.eval("return pcall(" + code + ")");
        assertThat(r.arg1().toboolean()).as("%s should fail", code).isFalse();
        return r.arg(2).tojstring();
    }

    @ParameterizedTest(name = "pack({0}) = {1}")
    @CsvSource(delimiter = '|', value = {
        "'b', -1 | ff",
        "'>h', 1 | 0001",
        "'<H', 65535 | ffff",
        "'l', 1 | 0100000000000000",
        "'>L', 1 | 0000000000000001",
        "'i', 1 | 01000000",
        "'>i3', -2 | fffffe",
        "'<i16', -1 | ffffffffffffffff0000000000000000",
        "'>i8', 2^63 | 8000000000000000",
        "'>i8', 2^64 | 0000000000000000",
        "'>f', 1.5 | 3fc00000",
        "'<d', 1.5 | 000000000000f83f",
        "'s', 'ab' | 616200",
        "'c3', 'abcd' | 616263",
        "'c0', 'abcd' | 61626364",
        "'bxb', 1, 2 | 010002",
        "'!4bi', 1, 2 | 0100000002000000",
        "'!bd', 1, 2 | 01000000000000000000000000000040",
        "'!i3i3', 1, 2 | 00000100000000020000",
    })
    void pack_formats_writeRedisBytes(String args, String hex) {
        assertThat(packHex(args)).isEqualTo(hex);
    }

    @Test
    void unpack_values_returnsThemThenTheNextPosition() {
        Varargs r = lua.eval("return struct.unpack('>i3 B s d', struct.pack('>i3 B s d', -2, 255, 'hi', 0.5))");
        assertThat(r.narg()).isEqualTo(5);
        assertThat(r.arg(1).toint()).isEqualTo(-2);
        assertThat(r.arg(2).toint()).isEqualTo(255);
        assertThat(r.tojstring(3)).isEqualTo("hi");
        assertThat(r.arg(4).todouble()).isEqualTo(0.5);
        assertThat(r.arg(5).toint()).isEqualTo(3 + 1 + 3 + 8 + 1);
    }

    @Test
    void unpack_c0_takesThePreviousNumberAsLength() {
        Varargs r = lua.eval("return struct.unpack('bc0', '\\2abcd')");
        assertThat(r.tojstring(1)).isEqualTo("ab");
        assertThat(r.arg(2).toint()).isEqualTo(4);
    }

    @Test
    void unpack_startPosition_skipsBytes() {
        Varargs r = lua.eval("return struct.unpack('b', '\\1\\2', 2)");
        assertThat(r.arg(1).toint()).isEqualTo(2);
        assertThat(r.arg(2).toint()).isEqualTo(3);
    }

    @Test
    void size_fixedFormats_addSizesAndPadding() {
        assertThat(lua.eval("return struct.size('!bd')").arg1().toint()).isEqualTo(16);
        assertThat(lua.eval("return struct.size('bhilTfdxc7I3')").arg1().toint()).isEqualTo(46);
    }

    @Test
    void formats_invalid_raiseLuaStructErrors() {
        assertThat(error("struct.pack, 'z'")).isEqualTo("bad argument #1 to 'pack' (invalid format option 'z')");
        assertThat(error("struct.pack, '!3bi', 1, 2")).isEqualTo("alignment 3 is not a power of 2");
        assertThat(error("struct.pack, 'i33', 1")).isEqualTo("integral size 33 is larger than limit of 32");
        assertThat(error("struct.pack, 'i99999999999', 1")).isEqualTo("integral size overflow");
        assertThat(error("struct.pack, 'c5', 'ab'")).isEqualTo("bad argument #3 to 'pack' (string too short)");
        assertThat(error("struct.pack, 'b'")).isEqualTo("bad argument #2 to 'pack' (number expected, got nil)");
        assertThat(error("struct.size, 's'")).isEqualTo("bad argument #1 to 'size' (option 's' has no fixed size)");
        assertThat(error("struct.size, 'c0'")).isEqualTo("bad argument #1 to 'size' (option 'c0' has no fixed size)");
    }

    @Test
    void unpack_shortOrBadData_raisesLuaStructErrors() {
        assertThat(error("struct.unpack, 'b', ''")).isEqualTo("bad argument #2 to 'unpack' (data string too short)");
        assertThat(error("struct.unpack, 'b', '\\1', 0"))
                .isEqualTo("bad argument #3 to 'unpack' (offset must be 1 or greater)");
        assertThat(error("struct.unpack, 's', 'abc'")).isEqualTo("unfinished string in data");
        assertThat(error("struct.unpack, 'c0', 'abc'")).isEqualTo("format 'c0' needs a previous size");
    }
}
