/** The embedded leaderboard demo that the README's first command runs. */
package dev.ordo.engine.demo;
