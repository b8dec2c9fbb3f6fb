package dev.ordo.engine.acl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * ACL LOG: the most recent refusals (a command, key or channel the user may not use; a failed
 * AUTH), newest first, at most {@code acllog-max-len}. As in Redis, a refusal equal to one of the
 * ten newest entries (same reason, context, object and user) made within 60 seconds of it is
 * counted in that entry, which moves to the front, rather than logged again. Times come from the
 * caller. Thread-safe: refusals are logged under the engine lock, and also beside a busy script
 * by threads that wait for it (a SCRIPT KILL the user may not run).
 */
public final class AclLog {
    /** How close in time two equal refusals must be to share an entry. */
    static final long GROUPING_MILLIS = 60_000;
    /** How many of the newest entries a refusal is compared with. */
    private static final int GROUPING_SCAN = 10;

    /** One entry, as ACL LOG shows it. */
    public static final class Entry {
        long count = 1;
        final String reason;
        final String context;
        final String object;
        final String username;
        String clientInfo;
        final long id;
        final long createdMillis;
        long updatedMillis;

        Entry(String reason, String context, String object, String username, String clientInfo, long id, long nowMillis) {
            this.reason = reason;
            this.context = context;
            this.object = object;
            this.username = username;
            this.clientInfo = clientInfo;
            this.id = id;
            this.createdMillis = nowMillis;
            this.updatedMillis = nowMillis;
        }

        /**
         * How many refusals this entry stands for: a repeat of the same one is counted here rather than logged again.
         *
         * @return the number of refusals
         */
        public synchronized long count() {
            return count;
        }

        /**
         * {@code command}, {@code key}, {@code channel} or {@code auth}.
         *
         * @return the reason
         */
        public String reason() {
            return reason;
        }

        /**
         * {@code toplevel}, {@code multi} or {@code lua}.
         *
         * @return where the refused command ran
         */
        public String context() {
            return context;
        }

        /**
         * The command, key or channel refused; for a failed AUTH the command's name as sent.
         *
         * @return what was refused
         */
        public String object() {
            return object;
        }

        /**
         * The user the refusal was for.
         *
         * @return the user's name
         */
        public String username() {
            return username;
        }

        /**
         * The client as CLIENT LIST described it at the last refusal counted here.
         *
         * @return the client's CLIENT LIST line
         */
        public String clientInfo() {
            return clientInfo;
        }

        /**
         * The entry's number, as ACL LOG's {@code entry-id} shows it; unique since the start.
         *
         * @return the number
         */
        public long id() {
            return id;
        }

        /**
         * When the first refusal of this entry happened.
         *
         * @return milliseconds since the epoch
         */
        public long createdMillis() {
            return createdMillis;
        }

        /**
         * When the last refusal of this entry happened.
         *
         * @return milliseconds since the epoch
         */
        public long updatedMillis() {
            return updatedMillis;
        }

        boolean sameAs(String reason, String context, String object, String username) {
            return this.reason.equals(reason) && this.context.equals(context) && this.object.equals(object)
                    && this.username.equals(username);
        }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long nextId;
    /** Refusals counted per reason since the start or CONFIG RESETSTAT (INFO's acl_access_denied_*). */
    private final java.util.Map<String, Long> counts = new java.util.HashMap<>();

    /**
     * Records a refusal at {@code nowMillis}, keeping at most {@code maxLen} entries; it is counted even when none are kept.
     *
     * @param reason {@code command}, {@code key}, {@code channel} or {@code auth}
     * @param context {@code toplevel}, {@code multi} or {@code lua}
     * @param object the command, key or channel refused
     * @param username the user refused
     * @param clientInfo the client as CLIENT LIST describes it
     * @param nowMillis the time of the refusal, in epoch milliseconds
     * @param maxLen acllog-max-len, the most entries to keep
     */
    public synchronized void add(String reason, String context, String object, String username, String clientInfo, long nowMillis, long maxLen) {
        counts.merge(reason, 1L, Long::sum);
        Iterator<Entry> it = entries.iterator();
        for (int scanned = 0; scanned < GROUPING_SCAN && it.hasNext(); scanned++) {
            Entry e = it.next();
            if (e.sameAs(reason, context, object, username) && nowMillis - e.updatedMillis <= GROUPING_MILLIS) {
                it.remove();
                e.count++;
                e.updatedMillis = nowMillis;
                e.clientInfo = clientInfo;
                entries.addFirst(e);
                return;
            }
        }
        entries.addFirst(new Entry(reason, context, object, username, clientInfo, nextId++, nowMillis));
        trim(maxLen);
    }

    /**
     * Drops the oldest entries past {@code maxLen}.
     *
     * @param maxLen the most entries to keep
     */
    public synchronized void trim(long maxLen) {
        while (entries.size() > maxLen) {
            entries.removeLast();
        }
    }

    /**
     * The newest {@code limit} entries, newest first.
     *
     * @param limit the most entries to return
     * @return the entries
     */
    public synchronized List<Entry> newest(long limit) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : entries) {
            if (out.size() >= limit) {
                break;
            }
            out.add(e);
        }
        return out;
    }

    /**
     * How many refusals for {@code reason} ({@code auth}, {@code command}, {@code key}, {@code channel}) were logged.
     *
     * @param reason the reason to count
     * @return the count since the start or the last CONFIG RESETSTAT
     */
    public long count(String reason) {
        return counts.getOrDefault(reason, 0L);
    }

    /** CONFIG RESETSTAT: the counts start again from zero (the entries stay). */
    public synchronized void resetCounts() {
        counts.clear();
    }

    /** ACL LOG RESET. */
    public synchronized void reset() {
        entries.clear();
    }
}
