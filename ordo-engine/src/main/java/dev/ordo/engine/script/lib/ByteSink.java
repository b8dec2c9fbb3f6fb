package dev.ordo.engine.script.lib;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.luaj.vm2.LuaString;

/**
 * A growable byte buffer that the encoders write into and turn into one Lua string. Growing past what the heap or a
 * Java array allows is Lua's {@code not enough memory} error. Not thread-safe.
 */
final class ByteSink {

    private byte[] bytes;
    private int length;

    ByteSink(int initialCapacity) {
        bytes = new byte[Math.max(initialCapacity, 16)];
    }

    void append(int b) {
        ensure(1);
        bytes[length++] = (byte) b;
    }

    void append(byte[] src, int offset, int count) {
        ensure(count);
        System.arraycopy(src, offset, bytes, length, count);
        length += count;
    }

    void append(LuaString s) {
        append(s.m_bytes, s.m_offset, s.m_length);
    }

    /** Appends the characters of an ASCII string, one byte each. */
    void appendAscii(String ascii) {
        byte[] b = ascii.getBytes(StandardCharsets.ISO_8859_1);
        append(b, 0, b.length);
    }

    /** Appends the low {@code count} bytes of {@code value}, most significant first. */
    void appendBigEndian(long value, int count) {
        ensure(count);
        for (int i = count - 1; i >= 0; i--) {
            bytes[length++] = (byte) (value >>> (8 * i));
        }
    }

    /** Discards everything written. */
    void clear() {
        length = 0;
    }

    LuaString toLuaString() {
        return LuaString.valueUsing(Arrays.copyOf(bytes, length));
    }

    private void ensure(int extra) {
        if (length + extra > bytes.length) {
            long wanted = Math.max((long) bytes.length * 2, (long) length + extra);
            if (wanted > Integer.MAX_VALUE - 8) {
                throw LuaArgs.error("not enough memory");
            }
            try {
                bytes = Arrays.copyOf(bytes, (int) wanted);
            } catch (OutOfMemoryError e) {
                // Lua's answer to a failed allocation; Redis itself dies here, which a script must not make us do.
                throw LuaArgs.error("not enough memory");
            }
        }
    }
}
