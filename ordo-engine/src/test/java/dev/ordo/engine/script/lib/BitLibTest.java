package dev.ordo.engine.script.lib;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.luaj.vm2.Varargs;

/** {@link BitLib}: LuaBitOp as Redis 7 ships it; expected values are redis-server 7.0.15's. */
class BitLibTest {

    private final LuaScripts lua = new LuaScripts();

    private String eval(String expression) {
        return lua.eval("return " + expression).arg1().tojstring();
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "bit.tobit(2^31) | -2147483648",
        "bit.tobit(2^32 + 5) | 5",
        "bit.tobit(1.5) | 2",
        "bit.tobit(2.5) | 2",
        "bit.tobit(-1.5) | -2",
        "bit.tobit(1e300) | -2013235812",
        "bit.tobit('0x10') | 16",
        "bit.bnot(0) | -1",
        "bit.band(0xff, 0x0f, 0x3c) | 12",
        "bit.bor(1, 2, 4, 8) | 15",
        "bit.bxor(5, 3, 1) | 7",
        "bit.lshift(1, 31) | -2147483648",
        "bit.lshift(1, 33) | 2",
        "bit.rshift(-1, 28) | 15",
        "bit.arshift(-256, 4) | -16",
        "bit.rol(0x12345678, 4) | 591751041",
        "bit.ror(0x12345678, 4) | -2128394905",
        "bit.bswap(0x12345678) | 2018915346",
        "bit.tohex(1) | 00000001",
        "bit.tohex(-1) | ffffffff",
        "bit.tohex(255, -2) | FF",
        "bit.tohex(0x12345678, 4) | 5678",
        "bit.tohex(1, 10) | 00000001",
        "bit.tohex(0xabcdef, 2^31) | 00ABCDEF",
    })
    void functions_redisProbes_giveRedisResults(String expression, String expected) {
        assertThat(eval(expression)).isEqualTo(expected);
    }

    @Test
    void arguments_notNumbers_raiseLuaErrorsFromTheLastArgumentDown() {
        Varargs r = lua.eval("return pcall(bit.band, 1, 'x', nil)");
        assertThat(r.arg(2).tojstring()).isEqualTo("bad argument #3 to 'band' (number expected, got nil)");
        assertThat(lua.eval("return select(2, pcall(bit.tobit))").arg1().tojstring())
                .isEqualTo("bad argument #1 to 'tobit' (number expected, got no value)");
        assertThat(lua.eval("return select(2, pcall(bit.tobit, '-'))").arg1().tojstring())
                .isEqualTo("bad argument #1 to 'tobit' (number expected, got string)");
    }

    @Property(tries = 500)
    void shiftsAndRotations_anyIntegers_matchJavaIntArithmetic(@ForAll int x, @ForAll int n) {
        Varargs r = lua.eval("return bit.lshift(" + x + ", " + n + "), bit.rshift(" + x + ", " + n + "), bit.arshift("
                + x + ", " + n + "), bit.rol(" + x + ", " + n + "), bit.ror(" + x + ", " + n + "), bit.bxor(" + x + ", "
                + n + ")");
        assertThat(r.arg(1).toint()).isEqualTo(x << n);
        assertThat(r.arg(2).toint()).isEqualTo(x >>> n);
        assertThat(r.arg(3).toint()).isEqualTo(x >> n);
        assertThat(r.arg(4).toint()).isEqualTo(Integer.rotateLeft(x, n));
        assertThat(r.arg(5).toint()).isEqualTo(Integer.rotateRight(x, n));
        assertThat(r.arg(6).toint()).isEqualTo(x ^ n);
    }

    @Property(tries = 500)
    void tobit_anyLong_isItsLow32Bits(@ForAll long x) {
        if (Math.abs(x) >= 1L << 51) {
            return;
        }
        assertThat(lua.eval("return bit.tobit(" + x + ")").arg1().toint()).isEqualTo((int) x);
    }
}
