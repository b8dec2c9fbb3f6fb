package dev.ordo.engine.value;

/**
 * The two ways Redis's DEBUG DIGEST takes in a value's content ({@link Value#digest}): ordered
 * content (a string, a list's elements in order) is mixed in, so order matters; an unordered
 * collection's elements (set members, hash fields with values, sorted-set members with scores)
 * are each digested alone and xored in, so iteration order does not.
 */
public interface ValueDigest {
    /** Mixes {@code buf[off, off+len)} in: the digest becomes SHA-1 of (digest xor SHA-1 of the bytes). */
    void mix(byte[] buf, int off, int len);

    /** Xors in one unordered element made of one part (a set member). */
    void element(byte[] part);

    /** Xors in one unordered element made of two parts mixed in order (a field and its value, a member and its score). */
    void element(byte[] first, int off, int len, byte[] second);
}
