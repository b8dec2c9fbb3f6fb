package dev.ordo.server.compat;

import dev.ordo.server.RawClient;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;

import static dev.ordo.server.RawClient.bulk;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocked clients woken by SWAPDB, by keys of the wrong type and by CLIENT UNBLOCK, over the
 * wire: every case runs against an Ordo server and a real {@code redis-server} with the same
 * expected bytes. A case waits for INFO's {@code blocked_clients} before it acts, so the order of
 * arrival is certain.
 */
class BlockedClientsOverWireTest {

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();
    @RegisterExtension
    final OpenClients clients = new OpenClients();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }

    /** A new connection to {@code target} that has selected database {@code db}. */
    private RawClient client(SideBySide.Target target, int db) throws IOException {
        RawClient c = clients.open(target.port());
        assertThat(c.call("SELECT", String.valueOf(db))).isEqualTo("+OK\r\n");
        return c;
    }

    /** An admin connection on an empty server. */
    private RawClient emptied(SideBySide.Target target) throws Exception {
        RawClient admin = client(target, 0);
        assertThat(admin.call("FLUSHALL")).isEqualTo("+OK\r\n");
        return admin;
    }

    private static String popped(String key, String member, String score) {
        return "*3\r\n" + bulk(key) + bulk(member) + bulk(score);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void swapdb_zsetSwappedIntoTheWaitersDatabase_servesItAtOnce(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient waiter = client(target, 1);
        waiter.sendBlocking(admin, 1, "BZPOPMIN", "k", "0");
        assertThat(admin.call("ZADD", "k", "1", "a")).isEqualTo(":1\r\n");

        assertThat(admin.call("SWAPDB", "0", "1")).isEqualTo("+OK\r\n");

        assertThat(waiter.reply()).isEqualTo(popped("k", "a", "1"));
        assertThat(admin.call("EXISTS", "k")).isEqualTo(":0\r\n");
        assertThat(client(target, 1).call("EXISTS", "k")).isEqualTo(":0\r\n");
        assertThat(admin.blockedClients()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void swapdb_severalWaiters_servedFirstComeFirstServedWhileMembersLast(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient first = client(target, 1);
        RawClient second = client(target, 1);
        RawClient third = client(target, 1);
        first.sendBlocking(admin, 1, "BZPOPMIN", "k", "0");
        second.sendBlocking(admin, 2, "BZMPOP", "0", "1", "k", "MAX", "COUNT", "5");
        third.sendBlocking(admin, 3, "BZPOPMIN", "k", "0");
        admin.call("ZADD", "k", "1", "a", "2", "b", "3", "c");

        assertThat(admin.call("SWAPDB", "1", "0")).isEqualTo("+OK\r\n");

        assertThat(first.reply()).isEqualTo(popped("k", "a", "1"));
        assertThat(second.reply()).isEqualTo("*2\r\n" + bulk("k") + "*2\r\n*2\r\n" + bulk("c") + bulk("3")
                + "*2\r\n" + bulk("b") + bulk("2"));
        assertThat(admin.blockedClients()).isEqualTo(1);
        assertThat(third.silentFor(200)).isTrue();
        client(target, 1).call("ZADD", "k", "4", "d");
        assertThat(third.reply()).isEqualTo(popped("k", "d", "4"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void swapdb_keyOfAnotherType_leavesTheWaiterBlockedUntilAZsetComes(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient waiter = client(target, 1);
        waiter.sendBlocking(admin, 1, "BZPOPMIN", "k", "0");
        admin.call("SET", "k", "x");

        assertThat(admin.call("SWAPDB", "0", "1")).isEqualTo("+OK\r\n");

        assertThat(waiter.silentFor(200)).isTrue();
        assertThat(admin.blockedClients()).isEqualTo(1);
        RawClient db1 = client(target, 1);
        assertThat(db1.call("GET", "k")).isEqualTo(bulk("x"));
        db1.call("DEL", "k");
        db1.call("ZADD", "k", "2", "b");
        assertThat(waiter.reply()).isEqualTo(popped("k", "b", "2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void swapdb_waiterOnSeveralKeysOneOfAnotherType_isServedFromTheZset(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient waiter = client(target, 1);
        waiter.sendBlocking(admin, 1, "BZPOPMIN", "k2", "k1", "0");
        admin.call("SET", "k2", "x");
        admin.call("ZADD", "k1", "1", "a");

        assertThat(admin.call("SWAPDB", "0", "1")).isEqualTo("+OK\r\n");

        assertThat(waiter.reply()).isEqualTo(popped("k1", "a", "1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void set_onTheKeyAClientWaitsFor_leavesItBlocked(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient waiter = client(target, 0);
        waiter.sendBlocking(admin, 1, "BZPOPMIN", "k", "0");

        assertThat(admin.call("SET", "k", "x")).isEqualTo("+OK\r\n");

        assertThat(waiter.silentFor(200)).isTrue();
        assertThat(admin.blockedClients()).isEqualTo(1);
        admin.call("DEL", "k");
        admin.call("ZADD", "k", "1", "a");
        assertThat(waiter.reply()).isEqualTo(popped("k", "a", "1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void clientUnblock_answersAsATimeoutOrWithAnError_andOnlyAWaitingClient(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient waiter = client(target, 0);
        String id = waiter.call("CLIENT", "ID").substring(1).trim();
        assertThat(admin.call("CONFIG", "RESETSTAT")).isEqualTo("+OK\r\n");
        assertThat(admin.call("CLIENT", "UNBLOCK", id)).isEqualTo(":0\r\n");
        waiter.sendBlocking(admin, 1, "BZPOPMIN", "k", "0");
        assertThat(admin.call("CLIENT", "UNBLOCK", id, "LATER")).isEqualTo("-ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR\r\n");
        assertThat(admin.call("CLIENT", "UNBLOCK", "me")).isEqualTo("-ERR value is not an integer or out of range\r\n");

        assertThat(admin.call("CLIENT", "UNBLOCK", id)).isEqualTo(":1\r\n");
        assertThat(waiter.reply()).isEqualTo("*-1\r\n");
        waiter.sendBlocking(admin, 1, "BZMPOP", "0", "1", "k", "MIN");
        assertThat(admin.call("CLIENT", "UNBLOCK", id, "error")).isEqualTo(":1\r\n");
        assertThat(waiter.reply()).isEqualTo("-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");
        assertThat(admin.blockedClients()).isZero();
        assertThat(admin.call("INFO", "errorstats")).contains("errorstat_UNBLOCKED:count=1");
        admin.call("ZADD", "k", "1", "a");
        assertThat(admin.call("ZCARD", "k")).isEqualTo(":1\r\n");
    }
}
