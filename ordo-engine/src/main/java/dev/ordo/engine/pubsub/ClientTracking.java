package dev.ordo.engine.pubsub;

import java.util.List;

/**
 * One client's CLIENT TRACKING settings, fixed from ON to OFF except for the one-command
 * CACHING choice and the broken-redirect mark. {@code redirect} is 0 when the client receives its
 * own invalidations; {@code prefixes} are for BCAST mode (empty: every key).
 */
public final class ClientTracking {
    private final boolean bcast;
    private final boolean optin;
    private final boolean optout;
    private final boolean noloop;
    private final long redirect;
    private final List<byte[]> prefixes;
    /** CLIENT CACHING's answer for the next command: null when not given. */
    private Boolean caching;
    private boolean redirectBroken;

    public ClientTracking(boolean bcast, boolean optin, boolean optout, boolean noloop, long redirect, List<byte[]> prefixes) {
        this.bcast = bcast;
        this.optin = optin;
        this.optout = optout;
        this.noloop = noloop;
        this.redirect = redirect;
        this.prefixes = List.copyOf(prefixes);
    }

    public boolean bcast() {
        return bcast;
    }

    public boolean optin() {
        return optin;
    }

    public boolean optout() {
        return optout;
    }

    public boolean noloop() {
        return noloop;
    }

    public long redirect() {
        return redirect;
    }

    public List<byte[]> prefixes() {
        return prefixes;
    }

    /** CLIENT CACHING YES or NO, for the next command. */
    public void setCaching(Boolean caching) {
        this.caching = caching;
    }

    public Boolean caching() {
        return caching;
    }

    public boolean redirectBroken() {
        return redirectBroken;
    }

    public void markRedirectBroken() {
        redirectBroken = true;
    }

    /** Whether the keys a read command fetches are remembered: not in BCAST mode, and as OPTIN/OPTOUT with CACHING say. */
    public boolean remembersReads() {
        if (bcast) {
            return false;
        }
        if (optin) {
            return Boolean.TRUE.equals(caching);
        }
        return !(optout && Boolean.FALSE.equals(caching));
    }
}
