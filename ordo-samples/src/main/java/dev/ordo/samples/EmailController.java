package dev.ordo.samples;

import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.DelayedJobQueue.NewJob;
import dev.ordo.patterns.queue.Due;
import dev.ordo.spring.boot.jobs.JobHandler;
import dev.ordo.spring.boot.web.RateLimited;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.util.List;
import java.util.UUID;

/**
 * The email queue: a request only enqueues (so it answers at once), and the worker below sends.
 * Urgent mail (a password reset) jumps the queue: among due jobs the lower priority number is
 * claimed first. A job is acked only after the send returns, so a worker that dies mid-send
 * loses nothing: the claim times out and another worker sends it.
 */
@RestController
@RequestMapping("/api/emails")
@RateLimited(value = "api", key = SampleApplication.USER_KEY)
class EmailController {
    private final DelayedJobQueue<String> emails;
    private final Outbox outbox;

    EmailController(@Qualifier("emails") DelayedJobQueue<String> emails, Outbox outbox) {
        this.emails = emails;
        this.outbox = outbox;
    }

    /** An email to send; {@code urgent} ones (absent means not) are sent before the rest. */
    record Email(String to, String subject, Boolean urgent) {
    }

    /** The queued email's id. */
    record Queued(String id) {
    }

    @PostMapping
    @ResponseStatus(HttpStatus.ACCEPTED)
    Queued enqueue(@RequestBody Email email) {
        if (email.to() == null || email.to().isBlank() || email.subject() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "an email needs 'to' and 'subject'");
        }
        String id = UUID.randomUUID().toString();
        emails.scheduleAll(List.of(new NewJob<>(id, email.to() + "\n" + email.subject(), Boolean.TRUE.equals(email.urgent()) ? 0 : 10, Due.now())),
                DelayedJobQueue.OnDuplicate.REJECT);
        return new Queued(id);
    }

    @GetMapping("/sent")
    List<String> sent() {
        return outbox.sent().stream().filter(message -> message.startsWith("email ")).toList();
    }

    /** Sends one queued email; two run at once ({@code ordo.queues.emails.concurrency}). */
    @JobHandler("emails")
    void send(String payload) {
        int newline = payload.indexOf('\n');
        outbox.send("email to " + payload.substring(0, newline) + ": " + payload.substring(newline + 1));
    }
}
