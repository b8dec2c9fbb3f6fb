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
     * Starts the application.
     *
     * @param args Spring Boot's command-line arguments, such as {@code --server.port=8081}
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
