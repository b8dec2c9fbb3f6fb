/** The error replies clients see, with Redis's exact texts, and the exception that carries them. */
package dev.ordo.engine.error;
