package dev.ordo.engine.zset;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A copied (member, score) pair; equality compares member bytes and the score bit for bit. */
public record ZEntry(byte[] member, double score) {

    /** Returns an entry for a UTF-8 member. */
    public static ZEntry of(String member, double score) {
        return new ZEntry(member.getBytes(StandardCharsets.UTF_8), score);
    }

    /** Returns the member decoded as UTF-8. */
    public String memberAsString() {
        return new String(member, StandardCharsets.UTF_8);
    }

    /** Returns a visitor that copies every entry it receives into {@code into}. */
    public static EntryVisitor collectInto(List<ZEntry> into) {
        return (buf, off, len, score) -> into.add(new ZEntry(Arrays.copyOfRange(buf, off, off + len), score));
    }

    /** Runs {@code producer} with a collecting visitor and returns what it collected. */
    public static List<ZEntry> collect(java.util.function.Consumer<EntryVisitor> producer) {
        List<ZEntry> out = new ArrayList<>();
        producer.accept(collectInto(out));
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ZEntry e && Arrays.equals(member, e.member)
                && Double.doubleToLongBits(score) == Double.doubleToLongBits(e.score);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(member) + Double.hashCode(score);
    }

    @Override
    public String toString() {
        return memberAsString() + "=" + score;
    }
}
