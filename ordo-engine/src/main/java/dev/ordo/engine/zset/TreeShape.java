package dev.ordo.engine.zset;

/**
 * Node and chunk sizes of the skiplist encoding. Production uses {@link #DEFAULT}; tests shrink
 * them so that a few hundred entries already exercise deep trees, rebalancing and compaction.
 *
 * @param leafCapacity  entries per B+-tree leaf
 * @param innerCapacity children per inner node
 * @param chunkSize     bytes per arena chunk, at most {@link MemberArena#MAX_CHUNK_SIZE}
 */
record TreeShape(int leafCapacity, int innerCapacity, int chunkSize) {
    /** 64-entry leaves fill about a cache-friendly 512 bytes of scores; 64 KiB chunks. */
    static final TreeShape DEFAULT = new TreeShape(64, 64, MemberArena.MAX_CHUNK_SIZE);

    TreeShape {
        if (leafCapacity < 4 || innerCapacity < 4 || chunkSize < 64 || chunkSize > MemberArena.MAX_CHUNK_SIZE
                || chunkSize % MemberArena.ALIGNMENT != 0) {
            throw new IllegalArgumentException("bad tree shape");
        }
    }
}
