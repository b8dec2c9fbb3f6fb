/**
 * The contract every stored value meets ({@link dev.ordo.engine.value.Value}) and the names of
 * the types ({@link dev.ordo.engine.value.KeyType}). The lowest layer above memory accounting:
 * value types implement it, the keyspace stores it, commands and persistence ask it.
 */
package dev.ordo.engine.value;
