package dev.ordo.spring.boot.web;

import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebFlux in redis mode: the rate-limit decision arrives on Lettuce's event loop, which also
 * reads the store's replies. A limited handler that calls the store and waits for the answer
 * (as most of the patterns' API does) must not run on that thread, or it waits for a reply
 * only it could read.
 */
@SpringBootTest(classes = WebFluxRedisModeTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.main.web-application-type=reactive",
        "ordo.rate-limits.api.limits=100/1h"})
class WebFluxRedisModeTest {
    private static final Ordo SERVER = Ordo.embedded();

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Blocking.class)
    static class App {
    }

    @RestController
    static class Blocking {
        private final Store store;

        Blocking(Store store) {
            this.store = store;
        }

        @RateLimited("api")
        @GetMapping("/blocking")
        String blocking() {
            return store.call(StoreCommand.of("PING")).asString();
        }
    }

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        int port = SERVER.openPort(0);
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", () -> port);
    }

    @AfterAll
    static void close() {
        SERVER.close();
    }

    @Test
    void limitedHandler_callsTheStoreAndWaits_answers() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/blocking"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("PONG");
            assertThat(response.headers().firstValue("RateLimit")).isPresent();
        }
    }
}
