/**
 * The Redis version Ordo emulates. A foundation: imports nothing else from the engine, so every
 * layer, and the server's command line, can report it.
 */
package dev.ordo.engine.version;
