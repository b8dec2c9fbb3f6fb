package dev.ordo.engine.command;

/**
 * What the script engine holds, as INFO's memory section counts it: scripts cached for EVALSHA
 * ({@code number_of_cached_scripts}), functions and function libraries loaded.
 */
public record ScriptCounts(int cachedScripts, int functions, int libraries) {
    /** No scripts at all. */
    public static final ScriptCounts NONE = new ScriptCounts(0, 0, 0);
}
