package dev.ordo.samples;

import org.springframework.stereotype.Component;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Stands in for the mail server and the push service: keeps the last messages "sent", newest
 * first, so the API and the tests can show what the workers delivered. Bounded, so it never grows
 * with traffic.
 */
@Component
class Outbox {
    /** How many sent messages are kept. */
    static final int CAPACITY = 200;

    private final Deque<String> sent = new ArrayDeque<>();

    synchronized void send(String message) {
        if (sent.size() == CAPACITY) {
            sent.removeLast();
        }
        sent.addFirst(message);
    }

    synchronized List<String> sent() {
        return List.copyOf(sent);
    }
}
