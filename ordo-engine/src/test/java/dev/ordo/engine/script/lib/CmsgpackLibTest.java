package dev.ordo.engine.script.lib;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.Varargs;

/** {@link CmsgpackLib}: lua-cmsgpack 0.4.0 as Redis 7 ships it; expected bytes are redis-server 7.0.15's. */
class CmsgpackLibTest {

    private final LuaScripts lua = new LuaScripts();

    private String packHex(String luaArgs) {
        LuaString s = lua.eval("return cmsgpack.pack(" + luaArgs + ")").arg1().checkstring();
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
    @CsvSource({
        "0, 00", "127, 7f", "128, cc80", "255, ccff", "256, cd0100", "65535, cdffff", "65536, ce00010000",
        "4294967295, ceffffffff", "4294967296, cf0000000100000000", "-1, ff", "-32, e0", "-33, d0df",
        "-128, d080", "-129, d1ff7f", "-32768, d18000", "-32769, d2ffff7fff", "-2147483648, d280000000",
        "-2147483649, d3ffffffff7fffffff", "2^53, cf0020000000000000", "-2^63, d38000000000000000",
    })
    void pack_integralNumbers_useTheSmallestIntegerFormat(String number, String hex) {
        assertThat(packHex(number)).isEqualTo(hex);
    }

    @ParameterizedTest(name = "pack({0}) = {1}")
    @CsvSource({
        "0.5, ca3f000000", "1.5, ca3fc00000", "0.1, cb3fb999999999999a", "1e300, cb7e37e43c8800759c",
        "1/0, ca7f800000", "-1/0, caff800000", "2^63, ca5f000000", "2^64, ca5f800000",
    })
    void pack_otherNumbers_useFloat32WhenLossless(String number, String hex) {
        assertThat(packHex(number)).isEqualTo(hex);
    }

    @Test
    void pack_strings_useFixstrThenStr8Str16Str32() {
        assertThat(packHex("''")).isEqualTo("a0");
        assertThat(packHex("string.rep('a', 31)")).startsWith("bf61");
        assertThat(packHex("string.rep('a', 32)")).startsWith("d92061");
        assertThat(packHex("string.rep('a', 256)")).startsWith("da010061");
        assertThat(packHex("string.rep('a', 65536)")).startsWith("db0001000061");
    }

    @Test
    void pack_severalValues_concatenatesTheirObjects() {
        assertThat(packHex("1.5, 'a', true, false, nil")).isEqualTo("ca3fc00000a161c3c2c0");
    }

    @Test
    void pack_tables_areArraysOnlyWhenKeysAreOneToN() {
        assertThat(packHex("{}")).isEqualTo("90");
        assertThat(packHex("{1, 2, 3}")).isEqualTo("93010203");
        assertThat(packHex("{a = 1}")).isEqualTo("81a16101");
        assertThat(packHex("{[2] = 2}")).isEqualTo("810202");
        assertThat(packHex("{[1.5] = 1}")).isEqualTo("81ca3fc0000001");
        assertThat(packHex("(function() local t = {} for i = 1, 16 do t[i] = i end return t end)()"))
                .isEqualTo("dc00100102030405060708090a0b0c0d0e0f10");
    }

    @Test
    void pack_unsupportedTypes_areNil() {
        assertThat(packHex("function() end, cjson.null, coroutine.create(function() end)")).isEqualTo("c0c0c0");
    }

    @Test
    void pack_seventeenNestedTables_writesTheInnermostAsNil() {
        assertThat(packHex("(function() local t = {} t[1] = t return t end)()"))
                .isEqualTo("91".repeat(16) + "c0");
    }

    @Test
    void pack_noArguments_isAnError() {
        assertThat(error("cmsgpack.pack")).isEqualTo("bad argument #0 to 'pack' (MessagePack pack needs input.)");
    }

    @Test
    void unpack_packedValues_returnsEveryValue() {
        Varargs r = lua.eval("return cmsgpack.unpack(cmsgpack.pack(1, 2.5, 'x', true, nil, {1, 2}, {a = 'b'}))");
        assertThat(r.narg()).isEqualTo(7);
        assertThat(r.arg(1).todouble()).isEqualTo(1);
        assertThat(r.arg(2).todouble()).isEqualTo(2.5);
        assertThat(r.tojstring(3)).isEqualTo("x");
        assertThat(r.arg(4).toboolean()).isTrue();
        assertThat(r.arg(5).isnil()).isTrue();
        assertThat(r.arg(6).get(2).toint()).isEqualTo(2);
        assertThat(r.arg(7).get("a").tojstring()).isEqualTo("b");
    }

    @Test
    void unpack_uint64_isReadAsSigned() {
        String uint64Max = "'\\207" + "\\255".repeat(8) + "'";
        assertThat(lua.eval("return cmsgpack.unpack(" + uint64Max + ")").arg1().todouble()).isEqualTo(-1);
    }

    @Test
    void unpack_badInput_raisesLuaCmsgpackErrors() {
        assertThat(error("cmsgpack.unpack, '\\196\\1a'")).isEqualTo("Bad data format in input.");
        assertThat(error("cmsgpack.unpack, '\\205\\1'")).isEqualTo("Missing bytes in input.");
        assertThat(error("cmsgpack.unpack, '\\129\\192\\1'")).isEqualTo("table index is nil");
        assertThat(error("cmsgpack.unpack")).isEqualTo("bad argument #1 to 'unpack' (string expected, got no value)");
    }

    @Test
    void unpackOne_returnsNextOffsetThenOneValue() {
        Varargs first = lua.eval("return cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3))");
        assertThat(first.arg(1).toint()).isEqualTo(1);
        assertThat(first.arg(2).toint()).isEqualTo(1);
        Varargs last = lua.eval("return cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 2)");
        assertThat(last.arg(1).toint()).isEqualTo(-1);
        assertThat(last.arg(2).toint()).isEqualTo(3);
    }

    @Test
    void unpackLimit_limitAndOffset_returnsOffsetThenValues() {
        Varargs r = lua.eval("return cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2, 1)");
        assertThat(r.narg()).isEqualTo(3);
        assertThat(r.arg(1).toint()).isEqualTo(-1);
        assertThat(r.arg(2).toint()).isEqualTo(2);
        assertThat(r.arg(3).toint()).isEqualTo(3);
    }

    @Test
    void unpackLimit_zeroLimitAndOffset_decodesAllWithoutOffset() {
        assertThat(lua.eval("return cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 0)").narg()).isEqualTo(3);
    }

    @Test
    void unpackOne_offsetOutsideTheInput_isAnError() {
        assertThat(error("cmsgpack.unpack_one, cmsgpack.pack(1, 2, 3), 4"))
                .isEqualTo("Start offset 4 greater than input length 3.");
        assertThat(error("cmsgpack.unpack_one, cmsgpack.pack(1, 2, 3), -1"))
                .isEqualTo("Invalid request to unpack with offset of -1 and limit of 3.");
    }

    @Test
    void unpack_deepNesting_isBoundedByLuaStackNotJavaStack() {
        assertThat(error("cmsgpack.unpack, string.rep('\\145', 100000) .. '\\1'"))
                .isEqualTo("stack overflow (in function mp_decode_to_lua_array)");
        assertThat(error("cmsgpack.unpack, string.rep('\\1', 8000)"))
                .isEqualTo("stack overflow (too many return values at once; use unpack_one or unpack_limit instead.)");
    }
}
