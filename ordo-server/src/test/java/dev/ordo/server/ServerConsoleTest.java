package dev.ordo.server;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.config.Config;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Ordo Console served by the server on its console port: signed in as a server user (HTTP
 * Basic checked by the engine's own AUTH), acting as that user under the server's ACL, read-only
 * unless configured writable, and off unless a console port is given.
 */
class ServerConsoleTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port, String path, String user, String password) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void console_withoutAPassword_servesEveryone_readOnly() throws Exception {
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openConsole(0);
            ordo.client().call("ZADD", "board", "1", "a");

            HttpResponse<String> about = get(port, "/api/about", null, null);
            HttpResponse<String> zset = get(port, "/api/zsets/board", null, null);

            assertThat(about.statusCode()).isEqualTo(200);
            assertThat(about.body()).contains("\"writable\":false");
            assertThat(zset.body()).contains("\"member\":\"a\"");
        }
    }

    @Test
    void console_withRequirepass_needsTheDefaultUsersPassword() throws Exception {
        Config config = new Config();
        config.set("requirepass", "s3cret", true);
        try (Ordo ordo = Ordo.embedded(config)) {
            int port = ordo.openConsole(0);

            assertThat(get(port, "/api/about", null, null).statusCode()).isEqualTo(401);
            assertThat(get(port, "/api/about", null, null).headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
            assertThat(get(port, "/api/about", "default", "wrong").statusCode()).isEqualTo(401);
            assertThat(get(port, "/api/about", "default", "s3cret").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void console_passwordSetAfterAnAnonymousVisit_needsThePasswordAtOnce() throws Exception {
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openConsole(0);
            assertThat(get(port, "/api/about", null, null).statusCode()).isEqualTo(200);

            ordo.client().call("CONFIG", "SET", "requirepass", "s3cret");

            assertThat(get(port, "/api/about", null, null).statusCode()).isEqualTo(401);
            assertThat(get(port, "/api/about", "default", "s3cret").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void console_userDisabledOrPasswordChanged_isRefusedAtTheNextRequest() throws Exception {
        try (Ordo ordo = Ordo.embedded()) {
            EmbeddedClient admin = ordo.client();
            admin.call("ACL", "SETUSER", "ops", "on", ">old", "allcommands", "allkeys");
            int port = ordo.openConsole(0);
            assertThat(get(port, "/api/about", "ops", "old").statusCode()).isEqualTo(200);

            admin.call("ACL", "SETUSER", "ops", "resetpass", ">new");

            assertThat(get(port, "/api/about", "ops", "old").statusCode()).isEqualTo(401);
            assertThat(get(port, "/api/about", "ops", "new").statusCode()).isEqualTo(200);

            admin.call("ACL", "SETUSER", "ops", "off");

            assertThat(get(port, "/api/about", "ops", "new").statusCode()).isEqualTo(401);
        }
    }

    @Test
    void console_asAnAclUser_canDoOnlyWhatTheUserMay() throws Exception {
        try (Ordo ordo = Ordo.embedded()) {
            EmbeddedClient admin = ordo.client();
            admin.call("ACL", "SETUSER", "viewer", "on", ">pw", "~app:*", "+@read", "+type", "+object", "+scan", "+hgetall", "+hlen");
            admin.call("ZADD", "app:board", "1", "a");
            admin.call("ZADD", "secret:board", "1", "b");
            int port = ordo.openConsole(0);

            HttpResponse<String> allowed = get(port, "/api/zsets/app:board", "viewer", "pw");
            HttpResponse<String> denied = get(port, "/api/zsets/secret:board", "viewer", "pw");
            HttpResponse<String> info = get(port, "/api/overview", "viewer", "pw");

            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(denied.statusCode()).isEqualTo(502);
            assertThat(denied.body()).contains("NOPERM");
            assertThat(info.statusCode()).as("INFO is not among the user's commands").isEqualTo(502);
        }
    }

    @Test
    void main_consolePortOption_opensTheConsole_loopbackOnly() throws Exception {
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(out, true, StandardCharsets.UTF_8);
        Ordo ordo = Main.start(new String[] {"--port", "0", "--save", "", "--console-port", Integer.toString(free), "--console-writable", "yes"}, log, log);
        try {
            HttpResponse<String> about = get(free, "/api/about", null, null);

            assertThat(about.statusCode()).isEqualTo(200);
            assertThat(about.body()).contains("\"writable\":true");
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("Ordo Console on http://127.0.0.1:" + free + "/ (writable)");
        } finally {
            ordo.close();
        }
    }
}
