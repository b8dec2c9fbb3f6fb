/**
 * The append-only file on disk: its layout and manifest ({@link dev.ordo.engine.persist.aof.AofLayout}),
 * reading its commands with torn tails told apart from damage ({@link dev.ordo.engine.persist.aof.AofReader}),
 * and the check and repair tool ({@link dev.ordo.engine.persist.aof.AofCheck}). The format is Redis 7's
 * multi-part AOF, so a data directory moves between Redis and Ordo in both directions.
 */
package dev.ordo.engine.persist.aof;
