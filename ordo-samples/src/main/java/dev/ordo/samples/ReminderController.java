package dev.ordo.samples;

import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
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

import java.time.Duration;
import java.util.List;

/**
 * Reminders on the delayed queue: each fires at its time, once, even with several instances of
 * the application running. A delivery that fails is retried after a growing backoff, and after
 * its last attempt ({@code ordo.queues.reminders.max-attempts}) it becomes a dead letter, which
 * this API lists and can retry. Scheduling the same id again is refused, so a retried request
 * does not remind twice.
 */
@RestController
@RequestMapping("/api/reminders")
@RateLimited(value = "api", key = SampleApplication.USER_KEY)
class ReminderController {
    /** The longest a reminder may wait. */
    static final Duration MAX_DELAY = Duration.ofDays(365);

    private final DelayedJobQueue<String> reminders;
    private final Outbox outbox;

    ReminderController(@Qualifier("reminders") DelayedJobQueue<String> reminders, Outbox outbox) {
        this.reminders = reminders;
        this.outbox = outbox;
    }

    /** A reminder: its id (for idempotent retries), the text, and the delay before it fires. */
    record Reminder(String id, String text, long delaySeconds) {
    }

    /** A reminder that failed its last attempt, and why. */
    record Dead(String id, String text, String reason) {
    }

    @PostMapping
    @ResponseStatus(HttpStatus.ACCEPTED)
    void schedule(@RequestBody Reminder reminder) {
        if (reminder.id() == null || reminder.id().isBlank() || reminder.text() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "a reminder needs 'id' and 'text'");
        }
        if (reminder.delaySeconds() < 0 || reminder.delaySeconds() > MAX_DELAY.toSeconds()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "delaySeconds is 0 to " + MAX_DELAY.toSeconds());
        }
        if (!reminders.schedule(reminder.id(), reminder.text(), Due.in(Duration.ofSeconds(reminder.delaySeconds())))) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "reminder " + reminder.id() + " is already scheduled");
        }
    }

    @GetMapping("/sent")
    List<String> sent() {
        return outbox.sent().stream().filter(message -> message.startsWith("reminder ")).toList();
    }

    @GetMapping("/dead")
    List<Dead> dead() {
        return reminders.deadLetters(50).stream().map(d -> new Dead(d.id(), d.payload(), d.reason())).toList();
    }

    @PostMapping("/dead/retry")
    int retry(@RequestBody List<String> ids) {
        return reminders.retryDead(ids);
    }

    /**
     * Delivers one reminder. A recipient the push service cannot reach fails the attempt: the job
     * is retried, then dead-lettered with this exception as its reason.
     */
    @JobHandler("reminders")
    void remind(ClaimedJob<String> job) {
        if (job.payload().contains("unreachable")) {
            throw new IllegalStateException("push service: recipient unreachable (attempt " + job.attempt() + ")");
        }
        outbox.send("reminder " + job.id() + ": " + job.payload());
    }
}
