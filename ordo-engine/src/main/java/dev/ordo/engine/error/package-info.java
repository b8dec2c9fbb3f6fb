/** The exception that carries an error reply to the caller, with Redis's exact text. */
package dev.ordo.engine.error;
