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

    /**
     * Settings as CLIENT TRACKING ON gave them.
     *
     * @param bcast    BCAST: invalidations for every key under the prefixes, not only keys read
     * @param optin    OPTIN: reads are remembered only after CLIENT CACHING YES
     * @param optout   OPTOUT: reads are remembered unless after CLIENT CACHING NO
     * @param noloop   NOLOOP: no invalidation for the client's own writes
     * @param redirect the client id invalidations go to, 0 for this client itself
     * @param prefixes the BCAST prefixes (empty: every key)
     */
    public ClientTracking(boolean bcast, boolean optin, boolean optout, boolean noloop, long redirect, List<byte[]> prefixes) {
        this.bcast = bcast;
        this.optin = optin;
        this.optout = optout;
        this.noloop = noloop;
        this.redirect = redirect;
        this.prefixes = List.copyOf(prefixes);
    }

    /**
     * Whether BCAST mode is on.
     *
     * @return true in BCAST mode
     */
    public boolean bcast() {
        return bcast;
    }

    /**
     * Whether OPTIN mode is on.
     *
     * @return true in OPTIN mode
     */
    public boolean optin() {
        return optin;
    }

    /**
     * Whether OPTOUT mode is on.
     *
     * @return true in OPTOUT mode
     */
    public boolean optout() {
        return optout;
    }

    /**
     * Whether NOLOOP is on.
     *
     * @return true when the client's own writes send it no invalidation
     */
    public boolean noloop() {
        return noloop;
    }

    /**
     * The client invalidations are redirected to.
     *
     * @return its id, or 0 when this client receives its own
     */
    public long redirect() {
        return redirect;
    }

    /**
     * The BCAST prefixes.
     *
     * @return the prefixes; empty for every key
     */
    public List<byte[]> prefixes() {
        return prefixes;
    }

    /**
     * CLIENT CACHING YES or NO, for the next command.
     *
     * @param caching true for YES, false for NO, null to forget the choice
     */
    public void setCaching(Boolean caching) {
        this.caching = caching;
    }

    /**
     * CLIENT CACHING's choice for the next command.
     *
     * @return true for YES, false for NO, null when none was given
     */
    public Boolean caching() {
        return caching;
    }

    /**
     * Whether the redirect target was found gone (told once).
     *
     * @return true once the client has been told
     */
    public boolean redirectBroken() {
        return redirectBroken;
    }

    /**
     * Records that the client has been told its redirect target is gone.
     */
    public void markRedirectBroken() {
        redirectBroken = true;
    }

    /**
     * Whether the keys a read command fetches are remembered: not in BCAST mode, and as OPTIN/OPTOUT with CACHING say.
     *
     * @return true when the next read's keys are remembered
     */
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
