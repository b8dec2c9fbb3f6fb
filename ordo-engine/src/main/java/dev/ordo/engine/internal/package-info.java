/**
 * Shared internals of the engine's packages. Public only because Java needs it across packages:
 * not an API, may change at any time.
 */
package dev.ordo.engine.internal;
