package dev.ordo.engine.command;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One client's state as commands see it: selected database, protocol, name, authentication. A
 * session belongs to one connection (or one embedded handle) and is only touched under the
 * engine's lock or by that connection's own thread.
 */
public final class Session {
    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final long createdMillis;
    private int db;
    private int protocol = 2;
    private String name = "";
    private boolean authenticated;
    private String address = "";
    private String laddr = "";
    private long lastCommandMillis;
    private String lastCommand = "NULL";
    private boolean closing;
    private ReplyMode replyMode = ReplyMode.ON;
    private Transactions.Multi multi;
    private Transactions.Multi executing;
    private final java.util.List<Transactions.WatchedKey> watching = new java.util.ArrayList<>();
    private boolean watchDirty;
    private boolean noEvict;
    private boolean noTouch;
    private volatile ClientBuffers buffers = ClientBuffers.NONE;
    private String libName = "";
    private String libVersion = "";
    private dev.ordo.engine.acl.AclUser user;
    private volatile dev.ordo.engine.pubsub.Subscriptions subscriptions;
    private dev.ordo.engine.pubsub.PushSink pushSink;
    private dev.ordo.engine.pubsub.ClientTracking tracking;
    /** Whether this is the session scripts run their commands on (MONITOR shows it as {@code lua}). */
    private boolean scriptClient;

    /**
     * CLIENT REPLY's modes. SKIP is two steps, as in Redis: CLIENT REPLY SKIP sets
     * {@code SKIP_NEXT}, which becomes {@code SKIP} for the next command and {@code ON} after it,
     * so a run of SKIPs still skips only the command that follows them.
     */
    public enum ReplyMode {
        ON, OFF, SKIP_NEXT, SKIP
    }

    public Session(long nowMillis, boolean authenticated) {
        this.createdMillis = nowMillis;
        this.lastCommandMillis = nowMillis;
        this.authenticated = authenticated;
    }

    /** The session scripts run their commands on: authenticated, named {@code lua}. */
    public static Session forScripts(long nowMillis) {
        Session s = new Session(nowMillis, true);
        s.name = "lua";
        s.scriptClient = true;
        return s;
    }

    /** Whether scripts run their commands on this session ({@link #forScripts}). */
    public boolean isScriptClient() {
        return scriptClient;
    }

    public long id() {
        return id;
    }

    public int db() {
        return db;
    }

    public void selectDb(int db) {
        this.db = db;
    }

    public int protocol() {
        return protocol;
    }

    public void setProtocol(int protocol) {
        this.protocol = protocol;
    }

    /** CLIENT NO-EVICT: shown (flag {@code e}); such a client is never closed by client eviction. */
    public boolean noEvict() {
        return noEvict;
    }

    public void setNoEvict(boolean noEvict) {
        this.noEvict = noEvict;
    }

    /** CLIENT NO-TOUCH: this client's commands leave keys' access times alone (TOUCH aside). */
    public boolean noTouch() {
        return noTouch;
    }

    public void setNoTouch(boolean noTouch) {
        this.noTouch = noTouch;
    }

    /** CLIENT SETINFO LIB-NAME, shown by CLIENT LIST. */
    public String libName() {
        return libName;
    }

    public void setLibName(String libName) {
        this.libName = libName;
    }

    /** CLIENT SETINFO LIB-VER, shown by CLIENT LIST. */
    public String libVersion() {
        return libVersion;
    }

    public void setLibVersion(String libVersion) {
        this.libVersion = libVersion;
    }

    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public boolean authenticated() {
        return authenticated;
    }

    public void setAuthenticated(boolean authenticated) {
        this.authenticated = authenticated;
    }

    /**
     * The ACL user this client runs as: the default user until AUTH or HELLO names another; null
     * for the server's own sessions (loading, a script's inner client), which may run anything.
     */
    public dev.ordo.engine.acl.AclUser user() {
        return user;
    }

    public void setUser(dev.ordo.engine.acl.AclUser user) {
        this.user = user;
    }

    /** The user's name as CLIENT LIST and ACL LOG show it ({@code default} for the server's own sessions). */
    public String userName() {
        return user == null ? dev.ordo.engine.acl.Acl.DEFAULT_USER : user.name();
    }

    public String address() {
        return address;
    }

    public String localAddress() {
        return laddr;
    }

    /**
     * Whether a protected action ({@code enable-debug-command}, {@code enable-protected-configs})
     * set to {@code setting} allows this client: {@code yes} anyone, {@code local} a client on
     * the loopback interface or in this process (an embedded session has no address), as Redis.
     */
    public boolean allowedBy(String setting) {
        return switch (setting) {
            case "yes" -> true;
            case "local" -> address.isEmpty() || address.startsWith("127.0.0.1:") || address.startsWith("[::1]:");
            default -> false;
        };
    }

    public void setAddresses(String remote, String local) {
        this.address = remote;
        this.laddr = local;
    }

    public long createdMillis() {
        return createdMillis;
    }

    public long lastCommandMillis() {
        return lastCommandMillis;
    }

    public String lastCommand() {
        return lastCommand;
    }

    void touch(long nowMillis, String command) {
        lastCommandMillis = nowMillis;
        lastCommand = command;
    }

    /** Whether the connection is to be closed once the current replies are written (QUIT, CLIENT KILL). */
    public boolean closing() {
        return closing;
    }

    public void markClosing() {
        closing = true;
    }

    public ReplyMode replyMode() {
        return replyMode;
    }

    public void setReplyMode(ReplyMode replyMode) {
        this.replyMode = replyMode;
    }

    /** What this client's connection holds in memory (CLIENT LIST); {@link ClientBuffers#NONE} for embedded clients. */
    public ClientBuffers buffers() {
        return buffers;
    }

    /** Lets the transport show its buffers for this client. */
    public void setBuffers(ClientBuffers buffers) {
        this.buffers = buffers;
    }

    /** The heap bytes of the commands queued in the open transaction (CLIENT LIST's multi-mem). */
    public long multiMemory() {
        Transactions.Multi m = multi;
        return m == null ? 0 : m.memory;
    }

    /**
     * Lets this client subscribe: its messages go to {@code sink} (a connection's pushes). A
     * session without one (an embedded client, a script's) cannot run SUBSCRIBE.
     */
    public void setPushSink(dev.ordo.engine.pubsub.PushSink sink) {
        this.pushSink = sink;
    }

    /** Where this client's pushes go, or null when it cannot receive any. */
    public dev.ordo.engine.pubsub.PushSink pushSink() {
        return pushSink;
    }

    /** CLIENT TRACKING's settings, or null while tracking is off. */
    public dev.ordo.engine.pubsub.ClientTracking tracking() {
        return tracking;
    }

    void setTracking(dev.ordo.engine.pubsub.ClientTracking tracking) {
        this.tracking = tracking;
    }

    /** This client's subscriptions, or null before its first (un)subscribe command. */
    public dev.ordo.engine.pubsub.Subscriptions subscriptions() {
        return subscriptions;
    }

    /**
     * This client's subscriptions, made on first use (most clients never subscribe, so they
     * hold none); null when it cannot subscribe ({@link #setPushSink}).
     */
    dev.ordo.engine.pubsub.Subscriptions subscribing() {
        if (subscriptions == null && pushSink != null) {
            subscriptions = new dev.ordo.engine.pubsub.Subscriptions(pushSink);
        }
        return subscriptions;
    }

    /** Whether the client has a subscription (Redis's pubsub client: flag P, type pubsub, RESP2's restricted context). */
    public boolean subscribed() {
        dev.ordo.engine.pubsub.Subscriptions s = subscriptions;
        return s != null && s.any();
    }

    /** The heap bytes this client's subscriptions hold, counted in its memory as Redis counts its Pub/Sub dictionaries. */
    public long subscriptionMemory() {
        dev.ordo.engine.pubsub.Subscriptions s = subscriptions;
        return s == null ? 0 : s.memory();
    }

    /** The open transaction (after MULTI), or null. */
    Transactions.Multi multi() {
        return multi;
    }

    /** Whether the client is inside MULTI (CLIENT LIST's {@code x} flag). */
    public boolean inMulti() {
        return multi != null;
    }

    /**
     * The number of commands queued in the open transaction, or -1 (CLIENT LIST's multi field).
     * While EXEC runs them the transaction still counts as open, as Redis shows it.
     */
    public int queuedCount() {
        Transactions.Multi m = multi != null ? multi : executing;
        return m == null ? -1 : m.queued.size();
    }

    /** Marks the open transaction (if any) as failed: its EXEC will answer EXECABORT. */
    public void failTransaction() {
        if (multi != null) {
            multi.flagged = true;
        }
    }

    void beginMulti(Transactions.Multi m) {
        multi = m;
    }

    /** The transaction EXEC is running for this session, or null. */
    void setExecuting(Transactions.Multi m) {
        executing = m;
    }

    void endMulti() {
        multi = null;
    }

    java.util.List<Transactions.WatchedKey> watching() {
        return watching;
    }

    /** Whether a watched key changed since WATCH. */
    boolean watchDirty() {
        return watchDirty;
    }

    void setWatchDirty(boolean dirty) {
        watchDirty = dirty;
    }

    /** Number of keys this client watches (CLIENT LIST's watch field). */
    public int watchCount() {
        return watching.size();
    }
}
