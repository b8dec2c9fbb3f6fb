package dev.ordo.spring.boot.console;

import dev.ordo.console.Console;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.spring.boot.test.AutoConfigureOrdo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console mounted by the starter in a servlet application with Spring Security, over real
 * HTTP: Security guards it like any other path, the declared board is found through the registry
 * the starter writes at startup, and a write needs both the console's header and Security's CSRF
 * token, which the console's responses hand to the page.
 */
@SpringBootTest(classes = OrdoConsoleAutoConfigurationTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ordo.console.enabled=true",
        "ordo.console.writable=true",
        "ordo.leaderboards.arena.tie-rule=competition"})
@AutoConfigureOrdo
class OrdoConsoleAutoConfigurationTest {
    private static final String AUTH = "Basic " + Base64.getEncoder().encodeToString("ops:s3cret".getBytes(StandardCharsets.UTF_8));

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableWebSecurity
    static class App {
        @Bean
        SecurityFilterChain security(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests(a -> a.anyRequest().authenticated()).httpBasic(b -> { }).build();
        }

        @Bean
        InMemoryUserDetailsManager users() {
            return new InMemoryUserDetailsManager(User.withUsername("ops").password("{noop}s3cret").roles("OPS").build());
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("arena")
    Leaderboard arena;

    @Autowired
    Console console;

    private final HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder at(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ordo" + path));
    }

    @Test
    void console_withoutCredentials_isRefusedBySpringSecurity() throws Exception {
        assertThat(send(at("/api/about")).statusCode()).isEqualTo(401);
        assertThat(send(at("/")).statusCode()).isEqualTo(401);
    }

    @Test
    void console_signedIn_servesThePageAndFindsTheDeclaredBoard() throws Exception {
        HttpResponse<String> page = send(at("/").header("Authorization", AUTH));
        HttpResponse<String> patterns = send(at("/api/patterns").header("Authorization", AUTH));

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(patterns.statusCode()).isEqualTo(200);
        assertThat(patterns.body()).contains("\"kind\":\"leaderboard\",\"name\":\"arena\"").contains("\"tie-rule\":\"competition\"");
    }

    @Test
    void write_needsSecuritysCsrfToken_whichTheConsoleHandsToThePage() throws Exception {
        arena.setScore("alice", 10);
        arena.setScore("bob", 20);
        HttpResponse<String> about = send(at("/api/about").header("Authorization", AUTH));
        String header = about.headers().firstValue("X-Ordo-Csrf-Header").orElseThrow();
        String token = about.headers().firstValue("X-Ordo-Csrf-Token").orElseThrow();

        HttpResponse<String> withoutToken = send(at("/api/boards/arena/members/alice").header("Authorization", AUTH)
                .header("X-Ordo-Console", "1").header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"score\": 30}")));
        assertThat(withoutToken.statusCode()).isEqualTo(403);
        assertThat(arena.score("alice").orElseThrow()).isEqualTo(10.0);

        HttpResponse<String> withToken = send(at("/api/boards/arena/members/alice").header("Authorization", AUTH)
                .header("X-Ordo-Console", "1").header(header, token).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"score\": 30}")));
        assertThat(withToken.statusCode()).as(withToken.body()).isEqualTo(200);
        assertThat(withToken.body()).contains("\"rank\":1");
        assertThat(arena.rank("alice")).hasValue(1L);
    }

    @Test
    void liveFeed_streamsServerSentEventsThroughTheServlet() throws Exception {
        HttpResponse<java.io.InputStream> live = client.send(at("/api/live").header("Authorization", AUTH).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        try (BufferedReader events = new BufferedReader(new InputStreamReader(live.body(), StandardCharsets.UTF_8))) {
            String first = events.readLine();
            assertThat(first).startsWith("data: {").contains("\"opsPerSec\"").contains("\"usedMemory\"");
        }
        assertThat(console).isNotNull();
    }
}
