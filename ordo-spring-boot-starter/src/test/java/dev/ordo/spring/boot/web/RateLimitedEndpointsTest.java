package dev.ordo.spring.boot.web;

import dev.ordo.spring.boot.test.AutoConfigureOrdo;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RateLimited} handlers and a URL filter from properties, over real HTTP on the in-process
 * Ordo; run once per web stack by the subclasses. Every limiter allows 2 requests per 10 s
 * (sliding log, so the counts are exact), and each test uses keys of its own.
 */
@SpringBootTest(classes = RateLimitedEndpointsTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ordo.rate-limits.api.limits=2/10s,100/1h",
        "ordo.rate-limits.api.algorithm=sliding-log",
        "ordo.rate-limits.search.limits=2/10s",
        "ordo.rate-limits.search.algorithm=sliding-log",
        "ordo.web.rate-limit.filters[0].limiter=search",
        "ordo.web.rate-limit.filters[0].patterns=/search/**",
        "ordo.web.rate-limit.filters[0].methods=GET",
        "ordo.web.rate-limit.filters[0].key=#request.header('X-Client')"})
@AutoConfigureOrdo
abstract class RateLimitedEndpointsTest {
    private static final String API_POLICY = "\"api-10s\";q=2;w=10, \"api-1h\";q=100;w=3600";

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import({Endpoints.class, ClassLimited.class})
    static class App {
    }

    /** A request body the POST handler binds. */
    record Body(String name) {
    }

    @RestController
    static class Endpoints {
        final AtomicInteger calls = new AtomicInteger();

        @GetMapping("/limited")
        @RateLimited(value = "api", key = "#request.header('X-Client')")
        String limited() {
            calls.incrementAndGet();
            return "ok";
        }

        @PostMapping("/limited")
        @RateLimited(value = "api", key = "'post:' + #request.header('X-Client')")
        String post(@RequestBody Body body) {
            calls.incrementAndGet();
            return body.name();
        }

        @GetMapping("/items/{id}")
        @RateLimited(value = "api", key = "'item:' + #request.pathVariables['id']")
        String item(@PathVariable("id") String id) {
            return id;
        }

        @GetMapping("/search/{term}")
        String search(@PathVariable("term") String term) {
            return term;
        }

        @PostMapping("/search/{term}")
        String postSearch(@PathVariable("term") String term) {
            return term;
        }

        @GetMapping("/open")
        String open() {
            return "open";
        }

        @GetMapping("/by-param")
        @RateLimited(value = "api", key = "'param:' + #request.parameter('user')")
        String byParam() {
            return "ok";
        }
    }

    @RestController
    @RequestMapping("/class")
    @RateLimited(value = "api", key = "'class:' + #request.header('X-Client')")
    static class ClassLimited {
        @GetMapping("/a")
        String a() {
            return "a";
        }

        @GetMapping("/b")
        String b() {
            return "b";
        }
    }

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private Endpoints endpoints;

    @Autowired
    private ApplicationContext context;

    @BeforeEach
    void resetCalls() {
        endpoints.calls.set(0);
    }

    /** The kind of context the subclass's stack makes. */
    abstract Class<?> contextType();

    private HttpResponse<String> send(String method, String path, String client, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (client != null) {
            request.header("X-Client", client);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String client) throws IOException, InterruptedException {
        return send("GET", path, client, null);
    }

    /** The status of a GET of {@code pathAndQuery} exactly as written, over a socket of its own. */
    int rawGetStatus(String pathAndQuery) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        }
    }

    private static String header(HttpResponse<?> response, String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    @Test
    void application_runsOnTheStackUnderTest() {
        assertThat(context).isInstanceOf(contextType());
    }

    @Test
    void annotated_underTheLimit_okWithPolicyAndRemaining() throws Exception {
        HttpResponse<String> first = get("/limited", "under");
        HttpResponse<String> second = get("/limited", "under");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(header(first, "RateLimit-Policy")).isEqualTo(API_POLICY);
        assertThat(header(first, "RateLimit")).isEqualTo("\"api-10s\";r=1");
        assertThat(header(first, "Retry-After")).isNull();
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(header(second, "RateLimit")).isEqualTo("\"api-10s\";r=0");
        assertThat(endpoints.calls).hasValue(2);
    }

    @Test
    void annotated_overTheLimit_429WithRetryAfterAndHandlerNotCalled() throws Exception {
        get("/limited", "secret-client");
        get("/limited", "secret-client");

        HttpResponse<String> refused = get("/limited", "secret-client");

        assertThat(refused.statusCode()).isEqualTo(429);
        String retryAfter = header(refused, "Retry-After");
        assertThat(retryAfter).matches("[0-9]+");
        assertThat(Long.parseLong(retryAfter)).isBetween(1L, 10L);
        assertThat(header(refused, "RateLimit")).isEqualTo("\"api-10s\";r=0;t=" + retryAfter);
        assertThat(header(refused, "RateLimit-Policy")).isEqualTo(API_POLICY);
        assertThat(endpoints.calls).hasValue(2);
        assertThat(refused.headers().map().toString()).as("the key is the client's data").doesNotContain("secret-client");
    }

    @Test
    void annotated_keysFromSpel_separateClients() throws Exception {
        get("/limited", "client-a");
        get("/limited", "client-a");

        assertThat(get("/limited", "client-a").statusCode()).isEqualTo(429);
        HttpResponse<String> other = get("/limited", "client-b");
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(header(other, "RateLimit")).isEqualTo("\"api-10s\";r=1");
    }

    @Test
    void annotated_keyFromPathVariable_separateItems() throws Exception {
        get("/items/1", null);
        get("/items/1", null);

        assertThat(get("/items/1", null).statusCode()).isEqualTo(429);
        assertThat(get("/items/2", null).statusCode()).isEqualTo(200);
    }

    @Test
    void annotated_overTheLimit_refusedBeforeTheBodyIsRead() throws Exception {
        assertThat(send("POST", "/limited", "body", "{not json").statusCode()).isEqualTo(400);
        assertThat(send("POST", "/limited", "body", "{not json").statusCode()).isEqualTo(400);

        assertThat(send("POST", "/limited", "body", "{not json").statusCode()).isEqualTo(429);
        assertThat(endpoints.calls).hasValue(0);
    }

    @Test
    void classAnnotation_limitsEveryMethodOfTheClass() throws Exception {
        assertThat(get("/class/a", "c").statusCode()).isEqualTo(200);
        assertThat(get("/class/b", "c").statusCode()).isEqualTo(200);

        HttpResponse<String> refused = get("/class/a", "c");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(header(refused, "RateLimit")).startsWith("\"api-10s\";r=0;t=");
    }

    @Test
    void urlFilter_limitsMatchingRequestsOnly() throws Exception {
        assertThat(get("/search/x", "u").statusCode()).isEqualTo(200);
        HttpResponse<String> second = get("/search/y", "u");
        assertThat(header(second, "RateLimit-Policy")).isEqualTo("\"search-10s\";q=2;w=10");
        assertThat(header(second, "RateLimit")).isEqualTo("\"search-10s\";r=0");

        HttpResponse<String> refused = get("/search/z", "u");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(header(refused, "Retry-After")).matches("[0-9]+");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> open = get("/open", "u");
            assertThat(open.statusCode()).isEqualTo(200);
            assertThat(header(open, "RateLimit")).isNull();
            assertThat(send("POST", "/search/x", "u", null).statusCode()).as("a method the filter does not name").isEqualTo(200);
        }
    }

    @Test
    void parameterKey_malformedPercentEncoding_countedUnderTheRawTextNotAServerError() throws Exception {
        // java.net.http refuses to send such a URI: written by hand
        assertThat(rawGetStatus("/by-param?user=%zz")).isEqualTo(200);
        assertThat(rawGetStatus("/by-param?user=%zz")).isEqualTo(200);
        assertThat(rawGetStatus("/by-param?user=%zz")).isEqualTo(429);
        assertThat(get("/by-param?user=ok%20name", "c").statusCode()).isEqualTo(200);
    }

    @Test
    void urlFilterOnGet_headTakesFromTheSameBudget() throws Exception {
        assertThat(send("HEAD", "/search/x", "head", null).statusCode()).isEqualTo(200);
        assertThat(send("HEAD", "/search/x", "head", null).statusCode()).isEqualTo(200);
        assertThat(get("/search/x", "head").statusCode()).as("HEAD runs the GET handler, so it counts").isEqualTo(429);
    }
}
