package dev.ordo.samples;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The seeds' three problems done with the Ordo starter: a game leaderboard with daily and weekly
 * boards, an email queue with priorities and a worker, and reminders with retries and dead
 * letters, behind an API rate-limited per user. Everything Ordo runs is declared in
 * {@code application.yml}; the code only injects it.
 */
@SpringBootApplication
public class SampleApplication {
    /**
     * Who a request is counted as, for the API's rate limit: the signed-in user where Spring
     * Security runs, else the X-User header, else the client's address. The header stands in for
     * an authenticated identity in this sample, which has no login: a client can send any name,
     * and so could spend another user's budget or change names to get a fresh one. A real
     * application keys on {@code #request.principalName} (or an API key it has checked).
     */
    static final String USER_KEY = "#request.principalName ?: #request.header('X-User') ?: #request.remoteAddr";

    /**
     * Starts the application.
     *
     * @param args Spring Boot's command-line arguments, such as {@code --server.port=8081}
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
