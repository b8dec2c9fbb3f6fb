package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.pubsub.ClientTracking;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * CLIENT TRACKING, CACHING, TRACKINGINFO and GETREDIR: client-side caching's settings, checked
 * in Redis's order with Redis's texts; the tracking itself is {@link Tracking}'s. Turning
 * tracking on again keeps the mode (BCAST, OPTIN/OPTOUT must stay as they were), replaces the
 * redirect and NOLOOP, and adds BCAST prefixes to those the client has.
 */
final class ClientTrackingCommands {
    private ClientTrackingCommands() {
    }

    /** CLIENT TRACKING ON|OFF [REDIRECT id] [PREFIX prefix ...] [BCAST] [OPTIN] [OPTOUT] [NOLOOP]. */
    static void tracking(Call c) {
        long redirect = 0;
        boolean bcast = false;
        boolean optin = false;
        boolean optout = false;
        boolean noloop = false;
        Session target = null;
        List<byte[]> prefixes = new ArrayList<>();
        for (int i = 3; i < c.argc(); i++) {
            boolean more = i + 1 < c.argc();
            if (c.argIs(i, "REDIRECT") && more) {
                i++;
                if (redirect != 0) {
                    throw new ErrorReply("ERR A client can only redirect to a single other client");
                }
                redirect = Call.parseLong(c.arg(i), Errors.NOT_INTEGER);
                target = client(c, redirect);
                if (target == null) {
                    throw new ErrorReply("ERR The client ID you want redirect to does not exist");
                }
            } else if (c.argIs(i, "BCAST")) {
                bcast = true;
            } else if (c.argIs(i, "OPTIN")) {
                optin = true;
            } else if (c.argIs(i, "OPTOUT")) {
                optout = true;
            } else if (c.argIs(i, "NOLOOP")) {
                noloop = true;
            } else if (c.argIs(i, "PREFIX") && more) {
                prefixes.add(c.arg(++i));
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        Tracking tracking = c.context().tracking();
        ClientTracking now = c.session().tracking();
        if (c.argIs(2, "OFF")) {
            tracking.disable(c.session());
        } else if (c.argIs(2, "ON")) {
            check(now, bcast, optin, optout, prefixes);
            List<byte[]> all = new ArrayList<>(now == null ? List.of() : now.prefixes());
            all.addAll(prefixes);
            if (now != null) {
                tracking.disable(c.session());
            }
            tracking.enable(c.session(), new ClientTracking(bcast, optin, optout, noloop, redirect, all), target);
        } else {
            throw new ErrorReply(Errors.SYNTAX);
        }
        c.reply().simpleString("OK");
    }

    /** Redis's checks before turning tracking on, in its order. */
    private static void check(ClientTracking now, boolean bcast, boolean optin, boolean optout, List<byte[]> prefixes) {
        if (!bcast && !prefixes.isEmpty()) {
            throw new ErrorReply("ERR PREFIX option requires BCAST mode to be enabled");
        }
        if (now != null && now.bcast() != bcast) {
            throw new ErrorReply("ERR You can't switch BCAST mode on/off before disabling tracking for this client, "
                    + "and then re-enabling it with a different mode.");
        }
        if (bcast && (optin || optout)) {
            throw new ErrorReply("ERR OPTIN and OPTOUT are not compatible with BCAST");
        }
        if (optin && optout) {
            throw new ErrorReply("ERR You can't specify both OPTIN mode and OPTOUT mode");
        }
        if (now != null && ((optin && now.optout()) || (optout && now.optin()))) {
            throw new ErrorReply("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, "
                    + "and then re-enabling it with a different mode.");
        }
        for (int i = 0; i < prefixes.size(); i++) {
            byte[] p = prefixes.get(i);
            for (byte[] existing : now == null ? List.<byte[]>of() : now.prefixes()) {
                if (overlap(p, existing)) {
                    throw new ErrorReply("ERR Prefix '" + text(p) + "' overlaps with an existing prefix '" + text(existing)
                            + "'. Prefixes for a single client must not overlap.");
                }
            }
            for (int j = i + 1; j < prefixes.size(); j++) {
                if (overlap(p, prefixes.get(j))) {
                    throw new ErrorReply("ERR Prefix '" + text(p) + "' overlaps with another provided prefix '" + text(prefixes.get(j))
                            + "'. Prefixes for a single client must not overlap.");
                }
            }
        }
    }

    private static boolean overlap(byte[] a, byte[] b) {
        return Tracking.startsWith(a, b) || Tracking.startsWith(b, a);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static Session client(Call c, long id) {
        for (Session s : c.context().server().clients()) {
            if (s.id() == id) {
                return s;
            }
        }
        return null;
    }

    /** CLIENT CACHING YES|NO: whether the next command's reads are tracked (OPTIN: yes; OPTOUT: no). */
    static void caching(Call c) {
        ClientTracking mode = c.session().tracking();
        if (mode == null) {
            throw new ErrorReply("ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or OPTOUT mode enabled");
        }
        if (c.argIs(2, "YES")) {
            if (!mode.optin()) {
                throw new ErrorReply("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
            }
            mode.setCaching(true);
        } else if (c.argIs(2, "NO")) {
            if (!mode.optout()) {
                throw new ErrorReply("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
            }
            mode.setCaching(false);
        } else {
            throw new ErrorReply(Errors.SYNTAX);
        }
        c.reply().simpleString("OK");
    }

    /** CLIENT TRACKINGINFO: flags, redirect and prefixes. */
    static void trackingInfo(Call c) {
        ClientTracking mode = c.session().tracking();
        ReplyWriter r = c.reply();
        r.mapHeader(3);
        r.bulk("flags");
        List<String> flags = flagNames(mode);
        r.setHeader(flags.size());
        flags.forEach(r::bulk);
        r.bulk("redirect");
        r.integer(mode == null ? -1 : mode.redirect());
        r.bulk("prefixes");
        List<byte[]> prefixes = mode == null ? List.of() : mode.prefixes();
        r.arrayHeader(prefixes.size());
        prefixes.forEach(r::bulk);
    }

    private static List<String> flagNames(ClientTracking mode) {
        if (mode == null) {
            return List.of("off");
        }
        List<String> flags = new ArrayList<>(List.of("on"));
        if (mode.bcast()) {
            flags.add("bcast");
        }
        if (mode.optin()) {
            flags.add("optin");
            if (Boolean.TRUE.equals(mode.caching())) {
                flags.add("caching-yes");
            }
        }
        if (mode.optout()) {
            flags.add("optout");
            if (Boolean.FALSE.equals(mode.caching())) {
                flags.add("caching-no");
            }
        }
        if (mode.noloop()) {
            flags.add("noloop");
        }
        if (mode.redirectBroken()) {
            flags.add("broken_redirect");
        }
        return flags;
    }

    /** CLIENT GETREDIR: the redirect id, 0 without one, -1 when not tracking. */
    static void getRedir(Call c) {
        ClientTracking mode = c.session().tracking();
        c.reply().integer(mode == null ? -1 : mode.redirect());
    }

    /** CLIENT LIST's tracking flags: t tracking, R its redirect gone, B broadcast. */
    static String flags(Session s) {
        ClientTracking mode = s.tracking();
        if (mode == null) {
            return "";
        }
        return "t" + (mode.redirectBroken() ? "R" : "") + (mode.bcast() ? "B" : "");
    }
}
