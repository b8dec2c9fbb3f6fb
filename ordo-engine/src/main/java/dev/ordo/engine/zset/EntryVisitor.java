package dev.ordo.engine.zset;

/**
 * Receives sorted-set entries without copying them: the member is {@code buf[off, off+len)}, valid
 * only during the call (it points into the set's own storage). Copy it to keep it.
 */
@FunctionalInterface
public interface EntryVisitor {
    /** Receives one entry. */
    void visit(byte[] buf, int off, int len, double score);
}
