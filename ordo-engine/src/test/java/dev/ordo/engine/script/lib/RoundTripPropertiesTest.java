package dev.ordo.engine.script.lib;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.jse.JsePlatform;

/**
 * Random values survive {@code cmsgpack.pack} then {@code unpack}, {@code cjson.encode} then {@code decode}, and
 * {@code struct.pack} then {@code unpack}. Each try builds its values from the seed jqwik reports, so a failure
 * replays.
 */
class RoundTripPropertiesTest {

    /** String lengths around each MessagePack string format's bounds. */
    private static final int[] STRING_LENGTHS = {0, 5, 31, 32, 255, 256, 300};

    private final Globals globals = JsePlatform.standardGlobals();

    RoundTripPropertiesTest() {
        globals.load(new CjsonLib());
        globals.load(new CmsgpackLib());
        globals.load(new StructLib());
    }

    private LuaValue function(String library, String name) {
        return globals.get(library).get(name);
    }

    @Property(tries = 300)
    void cmsgpack_packThenUnpack_givesEqualValues(@ForAll long seed) {
        Random random = new Random(seed);
        LuaValue[] values = new LuaValue[1 + random.nextInt(4)];
        for (int i = 0; i < values.length; i++) {
            values[i] = msgpackValue(random, 0);
        }
        LuaValue packed = function("cmsgpack", "pack").invoke(LuaValue.varargsOf(values)).arg1();
        Varargs unpacked = function("cmsgpack", "unpack").invoke(packed);
        assertThat(unpacked.narg()).isEqualTo(values.length);
        for (int i = 0; i < values.length; i++) {
            assertDeepEqual(unpacked.arg(i + 1), values[i], "value " + (i + 1));
        }
        Varargs first = function("cmsgpack", "unpack_one").invoke(packed);
        assertDeepEqual(first.arg(2), values[0], "unpack_one");
        assertThat(first.arg1().toint()).isEqualTo(values.length == 1 ? -1 : msgpackLength(values[0]));
    }

    private int msgpackLength(LuaValue value) {
        return function("cmsgpack", "pack").call(value).checkstring().m_length;
    }

    @Property(tries = 300)
    void cjson_encodeThenDecode_givesEqualValues(@ForAll long seed) {
        Random random = new Random(seed);
        LuaValue value = jsonValue(random, 0);
        LuaValue json = function("cjson", "encode").call(value);
        assertDeepEqual(function("cjson", "decode").call(json), value, describe(json));
    }

    @Property(tries = 300)
    void struct_packThenUnpack_givesEqualValuesAndTheEndPosition(@ForAll long seed) {
        Random random = new Random(seed);
        StringBuilder format = new StringBuilder(random.nextBoolean() ? ">" : "<");
        if (random.nextBoolean()) {
            format.append('!').append(1 << random.nextInt(4));
        }
        List<LuaValue> values = new ArrayList<>();
        int fields = 1 + random.nextInt(8);
        for (int i = 0; i < fields; i++) {
            values.add(structField(random, format));
        }
        List<LuaValue> args = new ArrayList<>();
        args.add(LuaValue.valueOf(format.toString()));
        args.addAll(values);
        LuaString packed = function("struct", "pack").invoke(LuaValue.varargsOf(args.toArray(new LuaValue[0])))
                .arg1().checkstring();
        Varargs unpacked = function("struct", "unpack").invoke(LuaValue.valueOf(format.toString()), packed);
        assertThat(unpacked.narg()).as(format.toString()).isEqualTo(values.size() + 1);
        for (int i = 0; i < values.size(); i++) {
            assertDeepEqual(unpacked.arg(i + 1), values.get(i), format + " field " + (i + 1));
        }
        assertThat(unpacked.arg(values.size() + 1).toint()).isEqualTo(packed.m_length + 1);
        if (format.indexOf("s") < 0) {
            assertThat(function("struct", "size").call(LuaValue.valueOf(format.toString())).toint())
                    .as("size of %s", format).isEqualTo(packed.m_length);
        }
    }

    private static LuaValue structField(Random random, StringBuilder format) {
        switch (random.nextInt(10)) {
            case 0:
                format.append('b');
                return LuaValue.valueOf(random.nextInt(256) - 128);
            case 1:
                format.append('H');
                return LuaValue.valueOf(random.nextInt(65536));
            case 2:
                format.append('l');
                return LuaValue.valueOf((double) (random.nextLong() >> 11));
            case 3: {
                int size = 1 + random.nextInt(8);
                format.append('i').append(size);
                long bound = 1L << Math.min(8 * size - 1, 52);
                return LuaValue.valueOf((double) (random.nextLong() % bound));
            }
            case 4: {
                int size = 1 + random.nextInt(6);
                format.append('I').append(size);
                return LuaValue.valueOf((double) ((random.nextLong() >>> 1) % (1L << (8 * size))));
            }
            case 5:
                format.append('f');
                return LuaValue.valueOf((double) (float) (random.nextGaussian() * 1e6));
            case 6:
                format.append('d');
                return LuaValue.valueOf(Double.longBitsToDouble(random.nextLong() & 0x7fefffffffffffffL));
            case 7: {
                byte[] bytes = randomBytes(random, random.nextInt(12));
                format.append('c').append(bytes.length == 0 ? 1 : bytes.length);
                return LuaValue.valueOf(bytes.length == 0 ? new byte[] {'z'} : bytes);
            }
            case 8: {
                byte[] bytes = randomBytes(random, random.nextInt(12));
                for (int i = 0; i < bytes.length; i++) {
                    if (bytes[i] == 0) {
                        bytes[i] = 1;
                    }
                }
                format.append('s');
                return LuaValue.valueOf(bytes);
            }
            default:
                format.append('T');
                return LuaValue.valueOf((double) random.nextInt(Integer.MAX_VALUE));
        }
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static LuaValue msgpackValue(Random random, int depth) {
        int kind = random.nextInt(depth < 4 ? 9 : 6);
        switch (kind) {
            case 0:
                return LuaValue.valueOf(random.nextInt(200_000) - 100_000);
            case 1:
                return LuaValue.valueOf((double) (random.nextLong() >> random.nextInt(64)));
            case 2: {
                double d = Double.longBitsToDouble(random.nextLong());
                return LuaValue.valueOf(Double.isNaN(d) || d == 0 ? 0.25 : d);
            }
            case 3:
                return LuaValue.valueOf(randomBytes(random, STRING_LENGTHS[random.nextInt(STRING_LENGTHS.length)]));
            case 4:
                return LuaValue.valueOf(random.nextBoolean());
            case 5:
                return LuaValue.valueOf(random.nextGaussian());
            case 6:
            case 7: {
                LuaTable array = new LuaTable();
                int n = random.nextInt(20);
                for (int i = 1; i <= n; i++) {
                    array.rawset(i, msgpackValue(random, depth + 1));
                }
                return array;
            }
            default: {
                LuaTable map = new LuaTable();
                int n = random.nextInt(20);
                for (int i = 0; i < n; i++) {
                    LuaValue key = random.nextBoolean() ? LuaValue.valueOf(randomBytes(random, random.nextInt(6)))
                            : LuaValue.valueOf(random.nextInt(1000) - 500 + 0.5 * random.nextInt(2));
                    map.rawset(key, msgpackValue(random, depth + 1));
                }
                return map;
            }
        }
    }

    private static LuaValue jsonValue(Random random, int depth) {
        int kind = random.nextInt(depth < 4 ? 8 : 5);
        switch (kind) {
            case 0:
                return LuaValue.valueOf((double) (random.nextLong() >> 24));
            case 1:
                return LuaValue.valueOf((random.nextInt(2_000_000) - 1_000_000) / 64.0);
            case 2:
                return LuaValue.valueOf(randomBytes(random, random.nextInt(20)));
            case 3:
                return random.nextBoolean() ? LuaValue.valueOf(random.nextBoolean()) : CjsonLib.NULL;
            case 4:
                return LuaValue.valueOf("k" + random.nextInt(100) + "\"\\/\u00e9");
            case 5:
            case 6: {
                LuaTable array = new LuaTable();
                int n = random.nextInt(10);
                for (int i = 1; i <= n; i++) {
                    array.rawset(i, jsonValue(random, depth + 1));
                }
                return array;
            }
            default: {
                LuaTable object = new LuaTable();
                int n = random.nextInt(10);
                for (int i = 0; i < n; i++) {
                    object.rawset(LuaValue.valueOf(randomBytes(random, 1 + random.nextInt(6))),
                            jsonValue(random, depth + 1));
                }
                return object;
            }
        }
    }

    private static void assertDeepEqual(LuaValue actual, LuaValue expected, String context) {
        assertThat(actual.typename()).as(context).isEqualTo(expected.typename());
        if (expected.type() == LuaValue.TNUMBER) {
            assertThat(actual.todouble()).as(context).isEqualTo(expected.todouble());
        } else if (expected.type() == LuaValue.TTABLE) {
            assertThat(keyCount(actual)).as(context + " key count").isEqualTo(keyCount(expected));
            LuaValue key = LuaValue.NIL;
            while (!(key = expected.next(key).arg1()).isnil()) {
                assertDeepEqual(actual.rawget(key), expected.rawget(key), context + "[" + describe(key) + "]");
            }
        } else {
            assertThat(actual.raweq(expected)).as("%s: %s vs %s", context, describe(actual), describe(expected))
                    .isTrue();
        }
    }

    /** A value for failure messages; LuaJ's {@code tojstring} fails on some invalid UTF-8. */
    private static String describe(LuaValue v) {
        if (v.type() != LuaValue.TSTRING) {
            return String.valueOf(v);
        }
        LuaString s = v.checkstring();
        return '"' + new String(s.m_bytes, s.m_offset, s.m_length, java.nio.charset.StandardCharsets.ISO_8859_1) + '"';
    }

    private static int keyCount(LuaValue table) {
        int count = 0;
        LuaValue key = LuaValue.NIL;
        while (!(key = table.next(key).arg1()).isnil()) {
            count++;
        }
        return count;
    }
}
