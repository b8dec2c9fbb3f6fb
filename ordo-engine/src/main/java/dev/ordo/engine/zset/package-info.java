/**
 * The sorted set: {@link dev.ordo.engine.zset.ZSet} with Redis's semantics, its two encodings
 * (listpack for small sets, a counted B+-tree with a hash index for large ones), score and lex
 * ranges, and the union / intersection / difference algebra.
 */
package dev.ordo.engine.zset;
