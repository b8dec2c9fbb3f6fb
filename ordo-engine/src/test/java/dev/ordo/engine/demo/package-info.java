/** A small example of the ZSet API: the seed articles' leaderboard. */
package dev.ordo.engine.demo;
