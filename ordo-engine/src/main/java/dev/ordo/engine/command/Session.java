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
        /** Every command is answered. */
        ON,
        /** No command is answered (CLIENT REPLY OFF). */
        OFF,
        /** CLIENT REPLY SKIP was just run: the next command is not answered. */
        SKIP_NEXT,
        /** The command running now is not answered; ON follows. */
        SKIP
    }

    /**
     * A session created at {@code nowMillis}, authenticated from the start or not.
     *
     * @param nowMillis the time it is created, in ms
     * @param authenticated whether it may run commands without AUTH
     */
    public Session(long nowMillis, boolean authenticated) {
        this.createdMillis = nowMillis;
        this.lastCommandMillis = nowMillis;
        this.authenticated = authenticated;
    }

    /**
     * The session scripts run their commands on: authenticated, named {@code lua}.
     *
     * @param nowMillis the time it is created, in ms
     * @return the session
     */
    public static Session forScripts(long nowMillis) {
        Session s = new Session(nowMillis, true);
        s.name = "lua";
        s.scriptClient = true;
        return s;
    }

    /**
     * Whether scripts run their commands on this session ({@link #forScripts}).
     *
     * @return whether this is the scripts' session
     */
    public boolean isScriptClient() {
        return scriptClient;
    }

    /**
     * The client's id, as CLIENT ID and CLIENT LIST show it.
     *
     * @return the id
     */
    public long id() {
        return id;
    }

    /**
     * The selected database.
     *
     * @return its number
     */
    public int db() {
        return db;
    }

    /**
     * SELECT: changes the selected database.
     *
     * @param db its number
     */
    public void selectDb(int db) {
        this.db = db;
    }

    /**
     * The protocol the client speaks, 2 or 3 (HELLO).
     *
     * @return the protocol
     */
    public int protocol() {
        return protocol;
    }

    /**
     * HELLO: changes the protocol.
     *
     * @param protocol 2 or 3
     */
    public void setProtocol(int protocol) {
        this.protocol = protocol;
    }

    /**
     * CLIENT NO-EVICT: shown (flag {@code e}); such a client is never closed by client eviction.
     *
     * @return whether it is on
     */
    public boolean noEvict() {
        return noEvict;
    }

    /**
     * CLIENT NO-EVICT ON or OFF.
     *
     * @param noEvict whether it is on
     */
    public void setNoEvict(boolean noEvict) {
        this.noEvict = noEvict;
    }

    /**
     * CLIENT NO-TOUCH: this client's commands leave keys' access times alone (TOUCH aside).
     *
     * @return whether it is on
     */
    public boolean noTouch() {
        return noTouch;
    }

    /**
     * CLIENT NO-TOUCH ON or OFF.
     *
     * @param noTouch whether it is on
     */
    public void setNoTouch(boolean noTouch) {
        this.noTouch = noTouch;
    }

    /**
     * CLIENT SETINFO LIB-NAME, shown by CLIENT LIST.
     *
     * @return the name, or empty
     */
    public String libName() {
        return libName;
    }

    /**
     * CLIENT SETINFO LIB-NAME.
     *
     * @param libName the library's name
     */
    public void setLibName(String libName) {
        this.libName = libName;
    }

    /**
     * CLIENT SETINFO LIB-VER, shown by CLIENT LIST.
     *
     * @return the version, or empty
     */
    public String libVersion() {
        return libVersion;
    }

    /**
     * CLIENT SETINFO LIB-VER.
     *
     * @param libVersion the library's version
     */
    public void setLibVersion(String libVersion) {
        this.libVersion = libVersion;
    }

    /**
     * The client's name (CLIENT SETNAME), empty when none.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * CLIENT SETNAME or HELLO SETNAME.
     *
     * @param name the new name, empty to remove it
     */
    public void setName(String name) {
        this.name = name;
    }

    /**
     * Whether the client may run commands: it authenticated, or no authentication is required.
     *
     * @return whether it is authenticated
     */
    public boolean authenticated() {
        return authenticated;
    }

    /**
     * Records the outcome of AUTH or HELLO AUTH.
     *
     * @param authenticated whether the client may now run commands
     */
    public void setAuthenticated(boolean authenticated) {
        this.authenticated = authenticated;
    }

    /**
     * The ACL user this client runs as: the default user until AUTH or HELLO names another; null
     * for the server's own sessions (loading, a script's inner client), which may run anything.
     *
     * @return the user, or null
     */
    public dev.ordo.engine.acl.AclUser user() {
        return user;
    }

    /**
     * Records the user AUTH or HELLO authenticated as.
     *
     * @param user the user
     */
    public void setUser(dev.ordo.engine.acl.AclUser user) {
        this.user = user;
    }

    /**
     * The user's name as CLIENT LIST and ACL LOG show it ({@code default} for the server's own sessions).
     *
     * @return the name
     */
    public String userName() {
        return user == null ? dev.ordo.engine.acl.Acl.DEFAULT_USER : user.name();
    }

    /**
     * The client's address, {@code ip:port}, as CLIENT LIST's addr shows it; empty for an embedded client.
     *
     * @return the address
     */
    public String address() {
        return address;
    }

    /**
     * The server's address the client reached, as CLIENT LIST's laddr shows it; empty for an embedded client.
     *
     * @return the address
     */
    public String localAddress() {
        return laddr;
    }

    /**
     * Whether a protected action ({@code enable-debug-command}, {@code enable-protected-configs})
     * set to {@code setting} allows this client: {@code yes} anyone, {@code local} a client on
     * the loopback interface or in this process (an embedded session has no address), as Redis.
     *
     * @param setting the configured value: {@code yes}, {@code local} or {@code no}
     * @return whether the client may
     */
    public boolean allowedBy(String setting) {
        return switch (setting) {
            case "yes" -> true;
            case "local" -> address.isEmpty() || address.startsWith("127.0.0.1:") || address.startsWith("[::1]:");
            default -> false;
        };
    }

    /**
     * Lets the transport record the connection's addresses.
     *
     * @param remote the client's {@code ip:port}
     * @param local the server's {@code ip:port}
     */
    public void setAddresses(String remote, String local) {
        this.address = remote;
        this.laddr = local;
    }

    /**
     * When the session was created, in ms since the epoch (CLIENT LIST's age).
     *
     * @return the time
     */
    public long createdMillis() {
        return createdMillis;
    }

    /**
     * When the client last ran a command, in ms since the epoch (CLIENT LIST's idle).
     *
     * @return the time
     */
    public long lastCommandMillis() {
        return lastCommandMillis;
    }

    /**
     * The last command the client ran, as CLIENT LIST's cmd shows it; {@code NULL} before the first.
     *
     * @return the command's full name
     */
    public String lastCommand() {
        return lastCommand;
    }

    void touch(long nowMillis, String command) {
        lastCommandMillis = nowMillis;
        lastCommand = command;
    }

    /**
     * Whether the connection is to be closed once the current replies are written (QUIT, CLIENT KILL).
     *
     * @return whether it is closing
     */
    public boolean closing() {
        return closing;
    }

    /** Marks the connection to be closed once the current replies are written. */
    public void markClosing() {
        closing = true;
    }

    /**
     * CLIENT REPLY's current mode.
     *
     * @return the mode
     */
    public ReplyMode replyMode() {
        return replyMode;
    }

    /**
     * CLIENT REPLY: changes the mode.
     *
     * @param replyMode the new mode
     */
    public void setReplyMode(ReplyMode replyMode) {
        this.replyMode = replyMode;
    }

    /**
     * What this client's connection holds in memory (CLIENT LIST); {@link ClientBuffers#NONE} for embedded clients.
     *
     * @return the buffers
     */
    public ClientBuffers buffers() {
        return buffers;
    }

    /**
     * Lets the transport show its buffers for this client.
     *
     * @param buffers the connection's buffers
     */
    public void setBuffers(ClientBuffers buffers) {
        this.buffers = buffers;
    }

    /**
     * The heap bytes of the commands queued in the open transaction (CLIENT LIST's multi-mem).
     *
     * @return the bytes
     */
    public long multiMemory() {
        Transactions.Multi m = multi;
        return m == null ? 0 : m.memory;
    }

    /**
     * Lets this client subscribe: its messages go to {@code sink} (a connection's pushes). A
     * session without one (an embedded client, a script's) cannot run SUBSCRIBE.
     *
     * @param sink where its pushes go
     */
    public void setPushSink(dev.ordo.engine.pubsub.PushSink sink) {
        this.pushSink = sink;
    }

    /**
     * Where this client's pushes go, or null when it cannot receive any.
     *
     * @return the sink, or null
     */
    public dev.ordo.engine.pubsub.PushSink pushSink() {
        return pushSink;
    }

    /**
     * CLIENT TRACKING's settings, or null while tracking is off.
     *
     * @return the settings, or null
     */
    public dev.ordo.engine.pubsub.ClientTracking tracking() {
        return tracking;
    }

    void setTracking(dev.ordo.engine.pubsub.ClientTracking tracking) {
        this.tracking = tracking;
    }

    /**
     * This client's subscriptions, or null before its first (un)subscribe command.
     *
     * @return the subscriptions, or null
     */
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

    /**
     * Whether the client has a subscription (Redis's pubsub client: flag P, type pubsub, RESP2's restricted context).
     *
     * @return whether it has a subscription
     */
    public boolean subscribed() {
        dev.ordo.engine.pubsub.Subscriptions s = subscriptions;
        return s != null && s.any();
    }

    /**
     * The heap bytes this client's subscriptions hold, counted in its memory as Redis counts its Pub/Sub dictionaries.
     *
     * @return the bytes
     */
    public long subscriptionMemory() {
        dev.ordo.engine.pubsub.Subscriptions s = subscriptions;
        return s == null ? 0 : s.memory();
    }

    /** The open transaction (after MULTI), or null. */
    Transactions.Multi multi() {
        return multi;
    }

    /**
     * Whether the client is inside MULTI (CLIENT LIST's {@code x} flag).
     *
     * @return whether it is in MULTI
     */
    public boolean inMulti() {
        return multi != null;
    }

    /**
     * The number of commands queued in the open transaction, or -1 (CLIENT LIST's multi field).
     * While EXEC runs them the transaction still counts as open, as Redis shows it.
     *
     * @return the count, or -1
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

    /**
     * Number of keys this client watches (CLIENT LIST's watch field).
     *
     * @return the count
     */
    public int watchCount() {
        return watching.size();
    }
}
