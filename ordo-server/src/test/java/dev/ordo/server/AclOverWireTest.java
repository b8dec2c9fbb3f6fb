package dev.ordo.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ACL through the server's own connection handling: AUTH as a user over RESP, and MONITOR,
 * which the server answers outside the command table, refused to a user who may not run
 * everything (no rule can name it, and it would show every client's commands).
 */
class AclOverWireTest {
    @Test
    void restrictedUser_getsNopermOverTheWire_andCannotMonitor() throws Exception {
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openPort(0);
            ordo.client().call("ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+@all", "-@dangerous");
            try (RawClient c = new RawClient(port)) {
                assertThat(c.call("AUTH", "app", "wrong")).isEqualTo("-WRONGPASS invalid username-password pair or user is disabled.\r\n");
                assertThat(c.call("AUTH", "app", "pw")).isEqualTo("+OK\r\n");
                assertThat(c.call("SET", "app:1", "v")).isEqualTo("+OK\r\n");
                assertThat(c.call("GET", "other")).isEqualTo("-NOPERM No permissions to access a key\r\n");
                assertThat(c.call("MONITOR")).isEqualTo("-NOPERM User app has no permissions to run the 'monitor' command\r\n");
                assertThat(c.call("ACL", "WHOAMI")).isEqualTo("$3\r\napp\r\n");
            }
            try (RawClient admin = new RawClient(port)) {
                assertThat(admin.call("MONITOR")).isEqualTo("+OK\r\n");
            }
        }
    }
}
