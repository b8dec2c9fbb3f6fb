/**
 * Byte-level codecs Redis's formats share: the CRC-64 of RDB files and DUMP payloads, and LZF
 * compression (RDB strings, function dumps, compressed list nodes), and the listpack layout the
 * list keeps its nodes in. Pure functions over byte arrays; imports nothing else of the engine.
 */
package dev.ordo.engine.encoding;
