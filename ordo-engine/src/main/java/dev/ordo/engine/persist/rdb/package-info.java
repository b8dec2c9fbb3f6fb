/**
 * Redis's RDB snapshot format: {@link dev.ordo.engine.persist.rdb.RdbWriter} writes version 10
 * (Redis 7.0's) and {@link dev.ordo.engine.persist.rdb.RdbReader} reads what Redis 7.0 and 7.2
 * write for strings, hashes, sets and sorted sets, into an
 * {@link dev.ordo.engine.persist.rdb.RdbSink}. The codecs they share with FUNCTION DUMP /
 * RESTORE live here too: {@link dev.ordo.engine.encoding.Crc64} and
 * {@link dev.ordo.engine.encoding.Lzf}. The format itself is described in {@code Rdb} and
 * {@code PackedList}.
 */
package dev.ordo.engine.persist.rdb;
