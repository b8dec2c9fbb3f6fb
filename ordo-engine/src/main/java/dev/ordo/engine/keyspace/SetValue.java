package dev.ordo.engine.keyspace;

import dev.ordo.engine.zset.EntryVisitor;
import dev.ordo.engine.zset.ScoredMembers;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A set value. Its members also serve as an input to the sorted-set algebra, each scoring 1, as
 * Redis treats sets given to ZUNIONSTORE and friends.
 */
public final class SetValue implements ScoredMembers {
    private final Set<Key> members = new LinkedHashSet<>();
    private String encoding = "listpack";

    public Set<Key> members() {
        return members;
    }

    /** The name OBJECT ENCODING reports. */
    public String encoding() {
        return encoding;
    }

    public void setEncoding(String encoding) {
        this.encoding = encoding;
    }

    @Override
    public int size() {
        return members.size();
    }

    @Override
    public void forEachEntry(EntryVisitor visitor) {
        for (Key k : members) {
            visitor.visit(k.bytes(), 0, k.bytes().length, 1.0);
        }
    }

    @Override
    public double score(byte[] m, int off, int len) {
        byte[] copy = off == 0 && len == m.length ? m : java.util.Arrays.copyOfRange(m, off, off + len);
        return members.contains(Key.of(copy)) ? 1.0 : Double.NaN;
    }
}
