package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.Crc64;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Hand-built RDB files and packed blobs for tests, written from the format description alone
 * (independently of {@link RdbWriter} and {@link PackedList}): listpacks, ziplists and intsets as
 * Redis lays them out, and a raw file builder that can put anything anywhere.
 */
final class RawRdb {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    RawRdb(int version) {
        out.writeBytes(String.format("REDIS%04d", version).getBytes(StandardCharsets.US_ASCII));
    }

    RawRdb b(int... bytes) {
        for (int x : bytes) {
            out.write(x);
        }
        return this;
    }

    RawRdb raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    RawRdb length(long n) {
        if (n < 64) {
            return b((int) n);
        }
        if (n < 16384) {
            return b(0x40 | (int) (n >>> 8), (int) n & 0xFF);
        }
        if (n <= 0xFFFFFFFFL) {
            return b(0x80, (int) (n >>> 24) & 0xFF, (int) (n >>> 16) & 0xFF, (int) (n >>> 8) & 0xFF, (int) n & 0xFF);
        }
        b(0x81);
        for (int s = 56; s >= 0; s -= 8) {
            b((int) (n >>> s) & 0xFF);
        }
        return this;
    }

    RawRdb string(byte[] s) {
        length(s.length);
        out.writeBytes(s);
        return this;
    }

    RawRdb string(String s) {
        return string(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A key-value entry whose value is one string (a blob, or a type-0 string). */
    RawRdb entry(int type, String key, byte[] value) {
        return b(type).string(key).string(value);
    }

    RawRdb doubleLE(double d) {
        return int64LE(Double.doubleToRawLongBits(d));
    }

    RawRdb int64LE(long v) {
        for (int i = 0; i < 8; i++) {
            b((int) (v >>> (8 * i)) & 0xFF);
        }
        return this;
    }

    /** EOF and the checksum. */
    byte[] finish() {
        b(0xFF);
        byte[] body = out.toByteArray();
        long crc = Crc64.of(body, 0, body.length);
        int64LE(crc);
        return out.toByteArray();
    }

    /** EOF without the checksum (versions before 5). */
    byte[] finishWithoutChecksum() {
        b(0xFF);
        return out.toByteArray();
    }

    // ---- blobs

    /** A listpack of the given entries: {@code Long} for integers, {@code String} (Latin-1) or {@code byte[]} for strings. */
    static byte[] listpack(Object... entries) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Object e : entries) {
            byte[] enc = listpackEncoding(e);
            body.writeBytes(enc);
            body.writeBytes(backlen(enc.length));
        }
        int total = 6 + body.size() + 1;
        ByteArrayOutputStream lp = new ByteArrayOutputStream();
        le(lp, total, 4);
        le(lp, entries.length < 65535 ? entries.length : 65535, 2);
        lp.writeBytes(body.toByteArray());
        lp.write(0xFF);
        return lp.toByteArray();
    }

    private static byte[] listpackEncoding(Object e) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        if (e instanceof Long v) {
            if (v >= 0 && v <= 127) {
                b.write((int) (long) v);
            } else if (v >= -4096 && v <= 4095) {
                b.write(0xC0 | (int) ((v >> 8) & 0x1F));
                b.write((int) (v & 0xFF));
            } else if (v == (short) (long) v) {
                b.write(0xF1);
                le(b, v, 2);
            } else if (v >= -(1 << 23) && v < (1 << 23)) {
                b.write(0xF2);
                le(b, v, 3);
            } else if (v == (int) (long) v) {
                b.write(0xF3);
                le(b, v, 4);
            } else {
                b.write(0xF4);
                le(b, v, 8);
            }
            return b.toByteArray();
        }
        byte[] s = e instanceof byte[] raw ? raw : ((String) e).getBytes(StandardCharsets.ISO_8859_1);
        if (s.length <= 63) {
            b.write(0x80 | s.length);
        } else if (s.length <= 4095) {
            b.write(0xE0 | (s.length >> 8));
            b.write(s.length & 0xFF);
        } else {
            b.write(0xF0);
            le(b, s.length, 4);
        }
        b.writeBytes(s);
        return b.toByteArray();
    }

    static byte[] backlen(int l) {
        if (l <= 127) {
            return new byte[] {(byte) l};
        }
        if (l < 16383) {
            return new byte[] {(byte) (l >> 7), (byte) ((l & 127) | 128)};
        }
        return new byte[] {(byte) (l >> 14), (byte) (((l >> 7) & 127) | 128), (byte) ((l & 127) | 128)};
    }

    /** A ziplist of the given entries (as for {@link #listpack}). */
    static byte[] ziplist(Object... entries) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int previous = 0;
        int lastStart = 10;
        for (Object e : entries) {
            ByteArrayOutputStream entry = new ByteArrayOutputStream();
            if (previous < 254) {
                entry.write(previous);
            } else {
                entry.write(0xFE);
                le(entry, previous, 4);
            }
            entry.writeBytes(ziplistEncoding(e));
            lastStart = 10 + body.size();
            previous = entry.size();
            body.writeBytes(entry.toByteArray());
        }
        ByteArrayOutputStream zl = new ByteArrayOutputStream();
        le(zl, 10 + body.size() + 1, 4);
        le(zl, lastStart, 4);
        le(zl, entries.length, 2);
        zl.writeBytes(body.toByteArray());
        zl.write(0xFF);
        return zl.toByteArray();
    }

    private static byte[] ziplistEncoding(Object e) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        if (e instanceof Long v) {
            if (v >= 0 && v <= 12) {
                b.write(0xF1 + (int) (long) v);
            } else if (v == (byte) (long) v) {
                b.write(0xFE);
                le(b, v, 1);
            } else if (v == (short) (long) v) {
                b.write(0xC0);
                le(b, v, 2);
            } else if (v >= -(1 << 23) && v < (1 << 23)) {
                b.write(0xF0);
                le(b, v, 3);
            } else if (v == (int) (long) v) {
                b.write(0xD0);
                le(b, v, 4);
            } else {
                b.write(0xE0);
                le(b, v, 8);
            }
            return b.toByteArray();
        }
        byte[] s = e instanceof byte[] raw ? raw : ((String) e).getBytes(StandardCharsets.ISO_8859_1);
        if (s.length <= 63) {
            b.write(s.length);
        } else if (s.length <= 16383) {
            b.write(0x40 | (s.length >> 8));
            b.write(s.length & 0xFF);
        } else {
            b.write(0x80);
            for (int sh = 24; sh >= 0; sh -= 8) {
                b.write((s.length >>> sh) & 0xFF);
            }
        }
        b.writeBytes(s);
        return b.toByteArray();
    }

    /** An intset of the given values (sorted here), with the narrowest width that holds them all. */
    static byte[] intset(long... values) {
        long[] v = values.clone();
        Arrays.sort(v);
        int width = 2;
        for (long x : v) {
            if (x != (int) x) {
                width = 8;
            } else if (x != (short) x && width < 4) {
                width = 4;
            }
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        le(b, width, 4);
        le(b, v.length, 4);
        for (long x : v) {
            le(b, x, width);
        }
        return b.toByteArray();
    }

    /** Values {@code from, from+1, ...}: {@code count} of them as Longs, for building large packs. */
    static Object[] longs(long from, int count) {
        List<Object> l = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            l.add(from + i);
        }
        return l.toArray();
    }

    static void le(ByteArrayOutputStream b, long v, int n) {
        for (int i = 0; i < n; i++) {
            b.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }
}
