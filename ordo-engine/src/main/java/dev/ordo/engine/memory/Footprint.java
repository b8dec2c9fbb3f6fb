package dev.ordo.engine.memory;

/**
 * How many bytes Java objects take on HotSpot's heap, for the memory accounting: 12-byte object
 * headers and 16-byte array headers with compressed class pointers, references of 4 bytes while
 * the heap is under 32 GB (compressed oops) and 8 beyond, and every object rounded up to 8 bytes.
 * The figures are those of the running JVM's layout, read once.
 */
public final class Footprint {
    /** Bytes of a reference field or array slot. */
    public static final int REFERENCE = compressedOops() ? 4 : 8;
    /** Bytes of an object's header. */
    public static final int OBJECT_HEADER = 12;
    /** Bytes of an array's header (object header and length). */
    public static final int ARRAY_HEADER = 16;

    private Footprint() {
    }

    /**
     * The bytes of an array whose elements take {@code payload} bytes.
     *
     * @param payload the elements' bytes
     * @return the array's bytes, header and alignment included
     */
    public static long array(long payload) {
        return align(ARRAY_HEADER + payload);
    }

    /**
     * The bytes of an array of {@code length} references.
     *
     * @param length the number of references
     * @return the array's bytes, header and alignment included
     */
    public static long referenceArray(long length) {
        return array(length * REFERENCE);
    }

    /**
     * The bytes of an object with {@code references} reference fields and {@code primitiveBytes} of other fields.
     *
     * @param references the number of reference fields
     * @param primitiveBytes the bytes of the other fields
     * @return the object's bytes, header and alignment included
     */
    public static long object(int references, int primitiveBytes) {
        return align(OBJECT_HEADER + (long) references * REFERENCE + primitiveBytes);
    }

    /**
     * {@code bytes} rounded up to the 8-byte object alignment.
     *
     * @param bytes a size
     * @return the size aligned
     */
    public static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }

    /**
     * Whether references take 4 bytes: what the JVM's own array layout says (Unsafe's reference
     * index scale, read reflectively, without loading the management classes); else the rule
     * HotSpot follows by default, compressed under a 32 GB heap.
     */
    private static boolean compressedOops() {
        try {
            return Class.forName("sun.misc.Unsafe").getField("ARRAY_OBJECT_INDEX_SCALE").getInt(null) == 4;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Runtime.getRuntime().maxMemory() < (32L << 30);
        }
    }
}
