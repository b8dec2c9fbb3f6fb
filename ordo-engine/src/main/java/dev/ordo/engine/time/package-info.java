/**
 * Time as the engine sees it: the wall clock it reads ({@link dev.ordo.engine.time.Clock}) and
 * the timer it runs delayed work on ({@link dev.ordo.engine.time.Scheduler}). Passed in from
 * outside, so tests can drive both; imports nothing else of the engine.
 */
package dev.ordo.engine.time;
