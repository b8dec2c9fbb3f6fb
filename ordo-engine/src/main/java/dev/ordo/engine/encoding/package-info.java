/**
 * Byte formats Redis defines and Ordo keeps in memory and on disk: the CRC-64 of RDB files and
 * DUMP payloads, LZF compression (RDB strings, function dumps, compressed list nodes) and the
 * listpack entry layout. Low level: this package imports nothing from the rest of the engine, so
 * that both the value types and the persistence code can build on it.
 */
package dev.ordo.engine.encoding;
