package dev.ordo.engine.persist;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.list.ListValue;
import dev.ordo.engine.Engine;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.zset.ZSet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every live key of an engine as comparable text ("db:key" to type, contents and absolute
 * expiry), so two keyspaces can be compared key by key: hash fields and set members sorted,
 * sorted sets in their order with exact scores.
 */
public final class KeyspaceDigest {
    private KeyspaceDigest() {
    }

    public static Map<String, String> of(Engine engine) {
        Map<String, String> out = new TreeMap<>();
        engine.withLock(() -> {
            Keyspace ks = HostedEngine.of(engine).keyspace();
            ks.beginCommand();
            for (int d = 0; d < ks.databases(); d++) {
                int db = d;
                ks.db(d).forEach((key, e) -> out.put(db + ":" + hex(key.bytes()), describe(e)));
            }
        });
        return out;
    }

    private static String describe(Database.Entry e) {
        String ttl = e.expireAt() == Database.NO_EXPIRY ? "" : " @" + e.expireAt();
        Object v = e.value();
        if (v instanceof StringValue s) {
            return "string " + hex(s.bytes()) + ttl;
        }
        if (v instanceof ZSet z) {
            StringBuilder sb = new StringBuilder("zset");
            z.forEachEntry((buf, off, len, score) -> sb.append(' ').append(hex(java.util.Arrays.copyOfRange(buf, off, off + len)))
                    .append('=').append(Double.doubleToLongBits(score)));
            return sb + ttl;
        }
        if (v instanceof HashValue h) {
            List<String> fields = new ArrayList<>();
            h.forEach((f, value) -> fields.add(hex(f.bytes()) + "=" + hex(value)));
            fields.sort(null);
            return "hash " + String.join(" ", fields) + ttl;
        }
        if (v instanceof SetValue s) {
            List<String> members = new ArrayList<>();
            s.members().forEach(m -> members.add(hex(m)));
            members.sort(null);
            return "set " + String.join(" ", members) + ttl;
        }
        if (v instanceof ListValue l) {
            StringBuilder sb = new StringBuilder("list");
            l.forEach((buf, off, len) -> sb.append(' ').append(hex(java.util.Arrays.copyOfRange(buf, off, off + len))));
            return sb + ttl;
        }
        return "unknown " + v;
    }

    private static String hex(byte[] b) {
        String text = new String(b, StandardCharsets.ISO_8859_1);
        return text.chars().allMatch(c -> c > 32 && c < 127 && c != '=') ? text : "0x" + HexFormat.of().formatHex(b);
    }
}
