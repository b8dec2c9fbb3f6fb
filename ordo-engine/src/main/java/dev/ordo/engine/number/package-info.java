/** Redis-compatible conversion between score text and doubles: strict and range-bound parsing, shortest formatting. */
package dev.ordo.engine.number;
