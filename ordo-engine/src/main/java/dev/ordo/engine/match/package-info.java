/**
 * Redis's glob-style pattern matching over bytes, as KEYS, SCAN MATCH, CONFIG GET, Pub/Sub
 * patterns and ACL key and channel patterns use it. Imports nothing else from the engine, so any
 * layer may use it.
 */
package dev.ordo.engine.match;
