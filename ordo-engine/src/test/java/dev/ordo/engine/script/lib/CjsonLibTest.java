package dev.ordo.engine.script.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/** {@link CjsonLib}: lua-cjson 2.1.0 as Redis 7 ships it; expected values are redis-server 7.0.15's. */
class CjsonLibTest {

    private final LuaScripts lua = new LuaScripts();

    private String eval(String code) {
        return lua.eval(code).arg1().tojstring();
    }

    /** The message of the error {@code code} raises, called directly by pcall so that it has no position. */
    private String error(String code) {
        Varargs r = lua.eval("return pcall(" + code + ")");
        assertThat(r.arg1().toboolean()).as("%s should fail", code).isFalse();
        return r.arg(2).tojstring();
    }

    @Test
    void call_installsGlobalTable_withRedisFunctionsAndFields() {
        Varargs r = lua.eval("return type(cjson.encode), type(cjson.decode), type(cjson.new), cjson._NAME, "
                + "cjson._VERSION, type(cjson.null), tostring(cjson.null)");
        assertThat(r.tojstring(1)).isEqualTo("function");
        assertThat(r.tojstring(2)).isEqualTo("function");
        assertThat(r.tojstring(3)).isEqualTo("function");
        assertThat(r.tojstring(4)).isEqualTo("cjson");
        assertThat(r.tojstring(5)).isEqualTo("2.1.0");
        assertThat(r.tojstring(6)).isEqualTo("userdata");
        assertThat(r.tojstring(7)).isEqualTo("userdata: (nil)");
    }

    @Test
    void call_returnsTheModuleItSetsOnEnv() {
        LuaTable env = new LuaTable();
        LuaValue module = new CjsonLib().call(LuaValue.valueOf("cjson"), env);
        assertThat(env.get("cjson")).isSameAs(module);
    }

    @Test
    void encode_nestedArrayAndObject_writesCompactJson() {
        assertThat(eval("return cjson.encode({1,2,3,{a=1}})")).isEqualTo("[1,2,3,{\"a\":1}]");
    }

    @Test
    void encode_numbers_usePercent14g() {
        assertThat(eval("return cjson.encode({0.1, 1/3, 1e300, 1e15, 100, -2.25, 123456789012345678})"))
                .isEqualTo("[0.1,0.33333333333333,1e+300,1e+15,100,-2.25,1.2345678901235e+17]");
    }

    @Test
    void encode_strings_escapeAsLuaCjson() {
        assertThat(eval("return cjson.encode('a/b\"\\\\\\n\\r\\t\\b\\f\\1\\127')"))
                .isEqualTo("\"a\\/b\\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u007f\"");
    }

    @Test
    void encode_emptyTable_isAnObject() {
        assertThat(eval("return cjson.encode({})")).isEqualTo("{}");
    }

    @Test
    void encode_nilAndNull_areJsonNull() {
        assertThat(eval("return cjson.encode({1, cjson.null, 3})")).isEqualTo("[1,null,3]");
        assertThat(eval("return cjson.encode(nil)")).isEqualTo("null");
    }

    @Test
    void encode_holesWithinTheSparseLimit_becomeNull() {
        assertThat(eval("return cjson.encode({[1]=1,[4]=4})")).isEqualTo("[1,null,null,4]");
        assertThat(eval("return cjson.encode({[10]=1})"))
                .isEqualTo("[null,null,null,null,null,null,null,null,null,1]");
    }

    @Test
    void encode_excessivelySparseArray_isAnError() {
        assertThat(error("cjson.encode, {[11]=1}")).isEqualTo("Cannot serialise table: excessively sparse array");
    }

    @Test
    void encode_sparseArrayWithConvertOn_isAnObject() {
        assertThat(eval("cjson.encode_sparse_array(true) return cjson.encode({[1]=1,[100]=2})"))
                .isIn("{\"1\":1,\"100\":2}", "{\"100\":2,\"1\":1}");
    }

    @Test
    void encode_nonPositiveOrFractionalKeys_makeAnObjectWithNumberKeysAsStrings() {
        assertThat(eval("return cjson.encode({[0]=1})")).isEqualTo("{\"0\":1}");
        assertThat(eval("return cjson.encode({[1.5]=1})")).isEqualTo("{\"1.5\":1}");
        assertThat(eval("return cjson.encode({[2^31]=1})")).isEqualTo("{\"2147483648\":1}");
    }

    @Test
    void encode_unsupportedValues_nameTheirType() {
        assertThat(error("cjson.encode, function() end")).isEqualTo("Cannot serialise function: type not supported");
        assertThat(error("cjson.encode, {[true]=1}"))
                .isEqualTo("Cannot serialise boolean: table key must be a number or string");
        assertThat(error("cjson.encode, 0/0")).isEqualTo("Cannot serialise number: must not be NaN or Inf");
        assertThat(error("cjson.encode")).isEqualTo("bad argument #1 to 'encode' (expected 1 argument)");
    }

    @Test
    void encode_nestingPastTheLimit_isAnError() {
        assertThat(eval("local t = {} t[1] = t return select(2, pcall(cjson.encode, t))"))
                .isEqualTo("Cannot serialise, excessive nesting (1001)");
        assertThat(eval("cjson.encode_max_depth(3) return select(2, pcall(cjson.encode, {{{{}}}}))"))
                .isEqualTo("Cannot serialise, excessive nesting (4)");
    }

    @Test
    void encodeNumberPrecision_three_roundsToThreeDigits() {
        assertThat(eval("cjson.encode_number_precision(3) return cjson.encode({1234.5, 0.12345, 100})"))
                .isEqualTo("[1.23e+03,0.123,100]");
    }

    @Test
    void encodeInvalidNumbers_onAndNull_writeNanInfOrNull() {
        assertThat(eval("cjson.encode_invalid_numbers(true) return cjson.encode({0/0, 1/0, -1/0})"))
                .isEqualTo("[nan,inf,-inf]");
        assertThat(eval("cjson.encode_invalid_numbers('null') return cjson.encode({0/0, 1/0})"))
                .isEqualTo("[null,null]");
    }

    @Test
    void configuration_defaults_areRedisDefaults() {
        Varargs r = lua.eval("return cjson.encode_keep_buffer(), cjson.encode_max_depth(), cjson.decode_max_depth(), "
                + "cjson.encode_number_precision(), cjson.encode_invalid_numbers(), cjson.decode_invalid_numbers(), "
                + "cjson.encode_sparse_array()");
        assertThat(r.arg(1).toboolean()).isTrue();
        assertThat(r.arg(2).toint()).isEqualTo(1000);
        assertThat(r.arg(3).toint()).isEqualTo(1000);
        assertThat(r.arg(4).toint()).isEqualTo(14);
        assertThat(r.arg(5).toboolean()).isFalse();
        assertThat(r.arg(6).toboolean()).isTrue();
        assertThat(r.arg(7).toboolean()).isFalse();
        assertThat(r.arg(8).toint()).isEqualTo(2);
        assertThat(r.arg(9).toint()).isEqualTo(10);
    }

    @Test
    void configuration_badArguments_raiseLuaCjsonErrors() {
        assertThat(error("cjson.encode_max_depth, 0"))
                .isEqualTo("bad argument #1 to 'encode_max_depth' (expected integer between 1 and 2147483647)");
        assertThat(error("cjson.encode_number_precision, 15"))
                .isEqualTo("bad argument #1 to 'encode_number_precision' (expected integer between 1 and 14)");
        assertThat(error("cjson.encode_keep_buffer, 'x'"))
                .isEqualTo("bad argument #1 to 'encode_keep_buffer' (invalid option 'x')");
        assertThat(error("cjson.encode_sparse_array, 1, 2, 3, 4"))
                .isEqualTo("bad argument #4 to 'encode_sparse_array' (found too many arguments)");
    }

    @Test
    void new_instance_hasItsOwnSettings() {
        Varargs r = lua.eval("local c = cjson.new() c.encode_max_depth(5) "
                + "return cjson.encode_max_depth(), c.encode_max_depth(), c.null == cjson.null");
        assertThat(r.arg(1).toint()).isEqualTo(1000);
        assertThat(r.arg(2).toint()).isEqualTo(5);
        assertThat(r.arg(3).toboolean()).isTrue();
    }

    @Test
    void decode_document_buildsTablesAndNull() {
        Varargs r = lua.eval("local t = cjson.decode('{\"a\":[1,2,{\"b\":null}],\"c\":\"x\"}') "
                + "return t.a[1], t.a[2], t.a[3].b == cjson.null, t.c, #t.a");
        assertThat(r.arg(1).toint()).isEqualTo(1);
        assertThat(r.arg(2).toint()).isEqualTo(2);
        assertThat(r.arg(3).toboolean()).isTrue();
        assertThat(r.tojstring(4)).isEqualTo("x");
        assertThat(r.arg(5).toint()).isEqualTo(3);
        assertThat(lua.eval("return cjson.decode('null')").arg1()).isSameAs(CjsonLib.NULL);
    }

    @Test
    void decode_unicodeEscapes_becomeUtf8() {
        assertThat(lua.eval("return cjson.decode('\"\\\\u00e9\\\\ud83d\\\\ude00\"')").arg1().checkstring().m_length)
                .isEqualTo(2 + 4);
    }

    @Test
    void decode_numbers_acceptWhatStrtodAccepts() {
        Varargs r = lua.eval("local t = cjson.decode('[+5, 0x10, 007, 1e400, nan, -Infinity]') "
                + "return t[1], t[2], t[3], t[4], t[5] ~= t[5], t[6]");
        assertThat(r.arg(1).todouble()).isEqualTo(5);
        assertThat(r.arg(2).todouble()).isEqualTo(16);
        assertThat(r.arg(3).todouble()).isEqualTo(7);
        assertThat(r.arg(4).todouble()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(r.arg(5).toboolean()).isTrue();
        assertThat(r.arg(6).todouble()).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void decode_syntaxErrors_nameTheTokenAndItsPosition() {
        assertThat(error("cjson.decode, ''")).isEqualTo("Expected value but found T_END at character 1");
        assertThat(error("cjson.decode, '[1,2'"))
                .isEqualTo("Expected comma or array end but found T_END at character 5");
        assertThat(error("cjson.decode, '{\"a\":1,}'"))
                .isEqualTo("Expected object key string but found T_OBJ_END at character 8");
        assertThat(error("cjson.decode, 'tru'")).isEqualTo("Expected value but found invalid token at character 1");
        assertThat(error("cjson.decode, '\"abc'"))
                .isEqualTo("Expected value but found unexpected end of string at character 5");
        assertThat(error("cjson.decode, '[1] x'")).isEqualTo("Expected the end but found invalid token at character 5");
    }

    @Test
    void decode_nestingPastTheLimit_isAnError() {
        assertThat(eval("return select(2, pcall(cjson.decode, string.rep('[', 1001)))"))
                .isEqualTo("Found too many nested data structures (1001) at character 1001");
    }

    @Test
    void decode_deepNestingAllowedByTheLimit_isBoundedByLuaStackNotJavaStack() {
        assertThat(eval("cjson.decode_max_depth(1000000) "
                + "return select(2, pcall(cjson.decode, string.rep('[', 100000)))"))
                .isEqualTo("Found too many nested data structures (7999) at character 7999");
    }

    @Test
    void decode_invalidNumbersOff_rejectsNonJsonNumbers() {
        assertThat(eval("cjson.decode_invalid_numbers(false) return select(2, pcall(cjson.decode, '[0x10]'))"))
                .isEqualTo("Expected value but found invalid number at character 2");
    }

    @Test
    void decode_utf16Input_isRefused() {
        assertThat(error("cjson.decode, 'a\\0'")).isEqualTo("JSON parser does not support UTF-16 or UTF-32");
    }

    @Test
    void errors_raisedFromLuaCode_carryTheCallersPosition() {
        assertThatThrownBy(() -> lua.eval("local x = cjson.decode('[') return x"))
                .isInstanceOf(LuaError.class)
                .hasMessageStartingWith("user_script:1")
                .hasMessageEndingWith("Expected value but found T_END at character 2");
    }

    @Test
    void knownDifference_negativeZero_decodesAsZeroBecauseLuaJHasNone() {
        // Redis returns -0 here (cjson.encode of it gives "-0"); LuaJ stores -0.0 as the integer 0.
        assertThat(eval("return cjson.encode(cjson.decode('-0'))")).isEqualTo("0");
    }
}
