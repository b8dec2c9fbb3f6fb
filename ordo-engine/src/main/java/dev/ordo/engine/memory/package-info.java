/**
 * Memory accounting: the heap layout rules ({@link dev.ordo.engine.memory.Footprint}) and the
 * contract every stored value meets ({@link dev.ordo.engine.memory.MemorySized}). Depends on no
 * other package of the engine.
 */
package dev.ordo.engine.memory;
