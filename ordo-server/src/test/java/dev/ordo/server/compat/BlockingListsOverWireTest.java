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
 * The blocking list commands (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP) over the wire, against
 * an Ordo server and a real {@code redis-server} with the same expected bytes: first come first
 * served per key, a move's push waking the next waiter, list and sorted-set waiters on one key,
 * timeouts, CLIENT UNBLOCK and transactions. A case waits for INFO's {@code blocked_clients}
 * before it acts, so the order of arrival is certain.
 */
class BlockingListsOverWireTest {

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();
    @RegisterExtension
    final OpenClients clients = new OpenClients();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }

    private RawClient emptied(SideBySide.Target target) throws IOException {
        RawClient admin = clients.open(target.port());
        assertThat(admin.call("FLUSHALL")).isEqualTo("+OK\r\n");
        return admin;
    }

    private static String pair(String key, String element) {
        return "*2\r\n" + bulk(key) + bulk(element);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void blpop_severalWaiters_servedFirstComeFirstServed(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient first = clients.open(target.port());
        RawClient second = clients.open(target.port());
        RawClient third = clients.open(target.port());
        first.sendBlocking(admin, 1, "BLPOP", "k", "0");
        second.sendBlocking(admin, 2, "BRPOP", "other", "k", "0");
        third.sendBlocking(admin, 3, "BLPOP", "k", "0");

        assertThat(admin.call("RPUSH", "k", "a", "b")).isEqualTo(":2\r\n");

        assertThat(first.reply()).isEqualTo(pair("k", "a"));
        assertThat(second.reply()).isEqualTo(pair("k", "b"));
        assertThat(third.silentFor(200)).isTrue();
        assertThat(admin.call("EXISTS", "k")).isEqualTo(":0\r\n");
        admin.call("LPUSH", "k", "c");
        assertThat(third.reply()).isEqualTo(pair("k", "c"));
        assertThat(admin.blockedClients()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void blmove_itsPushCreatesTheKeyAnotherClientWaitsFor_wakesIt(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient mover = clients.open(target.port());
        RawClient popper = clients.open(target.port());
        mover.sendBlocking(admin, 1, "BLMOVE", "src", "dst", "RIGHT", "LEFT", "0");
        popper.sendBlocking(admin, 2, "BLPOP", "dst", "0");

        admin.call("RPUSH", "src", "x", "y");

        assertThat(mover.reply()).isEqualTo(bulk("y"));
        assertThat(popper.reply()).isEqualTo(pair("dst", "y"));
        assertThat(admin.call("LRANGE", "src", "0", "-1")).isEqualTo("*1\r\n" + bulk("x"));
        assertThat(admin.call("EXISTS", "dst")).isEqualTo(":0\r\n");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void brpoplpush_andBlmpop_servedInArrivalOrder(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient first = clients.open(target.port());
        RawClient second = clients.open(target.port());
        first.sendBlocking(admin, 1, "BRPOPLPUSH", "k", "dst", "0");
        second.sendBlocking(admin, 2, "BLMPOP", "0", "2", "nokey", "k", "LEFT", "COUNT", "5");

        admin.call("RPUSH", "k", "a", "b", "c");

        assertThat(first.reply()).isEqualTo(bulk("c"));
        assertThat(second.reply()).isEqualTo("*2\r\n" + bulk("k") + "*2\r\n" + bulk("a") + bulk("b"));
        assertThat(admin.call("LRANGE", "dst", "0", "-1")).isEqualTo("*1\r\n" + bulk("c"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void listAndSortedSetWaiters_onOneKey_eachWaitsForItsType(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient zsetWaiter = clients.open(target.port());
        RawClient listWaiter = clients.open(target.port());
        zsetWaiter.sendBlocking(admin, 1, "BZPOPMIN", "k", "0");
        listWaiter.sendBlocking(admin, 2, "BLPOP", "k", "0");

        admin.call("RPUSH", "k", "a");

        assertThat(listWaiter.reply()).isEqualTo(pair("k", "a"));
        assertThat(zsetWaiter.silentFor(200)).isTrue();
        admin.call("ZADD", "k", "1", "m");
        assertThat(zsetWaiter.reply()).isEqualTo("*3\r\n" + bulk("k") + bulk("m") + bulk("1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void timeouts_replyNullArrays_inBothProtocols(SideBySide.Target target) throws Exception {
        RawClient c = emptied(target);
        assertThat(c.call("BLPOP", "k", "0.05")).isEqualTo("*-1\r\n");
        assertThat(c.call("BLMOVE", "k", "d", "LEFT", "LEFT", "0.05")).isEqualTo("*-1\r\n");
        assertThat(c.call("BRPOPLPUSH", "k", "d", "0.05")).isEqualTo("*-1\r\n");
        assertThat(c.call("BLMPOP", "0.05", "1", "k", "LEFT")).isEqualTo("*-1\r\n");
        c.call("HELLO", "3");
        assertThat(c.call("BRPOP", "k", "0.05")).isEqualTo("_\r\n");
        assertThat(c.call("BLMOVE", "k", "d", "LEFT", "LEFT", "0.05")).isEqualTo("_\r\n");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void clientUnblock_blmove_answersAsATimeout(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient waiter = clients.open(target.port());
        String id = waiter.call("CLIENT", "ID").substring(1).trim();
        waiter.sendBlocking(admin, 1, "BLMOVE", "k", "d", "LEFT", "RIGHT", "0");

        assertThat(admin.call("CLIENT", "UNBLOCK", id)).isEqualTo(":1\r\n");

        assertThat(waiter.reply()).isEqualTo("*-1\r\n");
        waiter.sendBlocking(admin, 1, "BLPOP", "k", "0");
        assertThat(admin.call("CLIENT", "UNBLOCK", id, "ERROR")).isEqualTo(":1\r\n");
        assertThat(waiter.reply()).isEqualTo("-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");
        assertThat(admin.blockedClients()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void transaction_pushesTwice_waiterServedAfterExecWithTheFirst(SideBySide.Target target) throws Exception {
        RawClient admin = emptied(target);
        RawClient waiter = clients.open(target.port());
        waiter.sendBlocking(admin, 1, "BLPOP", "k", "0");

        admin.call("MULTI");
        admin.call("RPUSH", "k", "a");
        admin.call("RPUSH", "k", "b");
        admin.call("BLPOP", "none", "0");
        assertThat(admin.call("EXEC")).isEqualTo("*3\r\n:1\r\n:2\r\n*-1\r\n");

        assertThat(waiter.reply()).isEqualTo(pair("k", "a"));
        assertThat(admin.call("LRANGE", "k", "0", "-1")).isEqualTo("*1\r\n" + bulk("b"));
    }
}
