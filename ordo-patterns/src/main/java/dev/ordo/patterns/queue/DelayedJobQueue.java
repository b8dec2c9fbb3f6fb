package dev.ordo.patterns.queue;

import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Codec;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * A reliable delayed queue: jobs with ids fall due at a time; workers claim due jobs (most urgent
 * priority first, then in order of falling due) under a visibility timeout; ack ends a job, nack
 * retries it after a backoff until its attempts run out, then parks it as a dead letter with the
 * reason; release hands back a claim not worked on (ready at once, the attempt given back). A job
 * whose worker died is claimable again once its timeout passes, so delivery is at least once and
 * no job is ever lost. Every step is one script under the queue's hash tag, on the server's clock.
 *
 * <p>Keys ({@code {name}:...}): {@code delayed} (id by due time, ms), {@code ready} (id by
 * {@code priority * 2^43 + sequence}), {@code inflight} (id by visibility deadline), {@code dead}
 * (id by time of death); hashes {@code payload}, {@code priority}, {@code attempts}, {@code due},
 * {@code error}, {@code claim} (the latest claim's token); {@code seq}, the sequence (ready order
 * and claim tokens); {@code signal}, a sorted set of at most 16 members
 * that blocked workers wait on (BZPOPMIN): scheduling n jobs adds min(n, 16) of them, waking as
 * many workers. Invariant: a live job is in exactly one of
 * delayed, ready, inflight and dead, and has a payload.
 *
 * <p>Payloads are strings unless the queue was created with a {@link Codec}, which turns each
 * payload into the text stored and back.
 *
 * @param <T> the payloads' type
 */
public final class DelayedJobQueue<T> {
    /** What scheduling an id that already exists does. */
    public enum OnDuplicate {
        /** Leave the existing job as it is; its due time comes back null. */
        REJECT,
        /** Start the existing job afresh: new payload, due time and attempts, whatever state it was in. */
        REPLACE
    }

    /** The most jobs one call may carry. */
    public static final int MAX_BATCH = 1000;
    /** The longest job id, in characters. */
    public static final int MAX_ID = 512;
    /** The longest failure reason kept; longer ones are cut. */
    public static final int MAX_REASON = 4096;

    /**
     * Queue settings.
     *
     * @param visibilityTimeout how long a claim lasts before the job may be claimed again
     * @param maxAttempts       claims a job gets before it becomes a dead letter
     * @param backoff           the wait before a nacked job's next attempt
     */
    public record Options(Duration visibilityTimeout, int maxAttempts, Backoff backoff) {
        /**
         * Checks the settings; start from {@link #defaults()} and its {@code with...} methods rather than this constructor.
         *
         * @param visibilityTimeout how long a claim lasts before the job can be claimed again, at least 1 ms
         * @param maxAttempts how many claims a job gets before it becomes a dead letter, at least 1
         * @param backoff the wait before a nacked job's next attempt
         */
        public Options {
            if (visibilityTimeout.toMillis() < 1 || maxAttempts < 1) {
                throw new IllegalArgumentException("need a visibility timeout of at least 1 ms and at least one attempt");
            }
            Objects.requireNonNull(backoff, "backoff");
        }

        /**
         * 30 s visibility, 5 attempts, exponential backoff from 1 s to 5 min with 20% jitter.
         *
         * @return the default settings
         */
        public static Options defaults() {
            return new Options(Duration.ofSeconds(30), 5, Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(5), 0.2));
        }

        /**
         * These settings with claims lasting {@code timeout} (at least 1 ms).
         *
         * @param timeout how long a claim lasts
         * @return new settings, the rest unchanged
         */
        public Options withVisibilityTimeout(Duration timeout) {
            return new Options(timeout, maxAttempts, backoff);
        }

        /**
         * These settings with {@code attempts} claims (at least 1) before a job becomes a dead letter.
         *
         * @param attempts how many claims a job gets
         * @return new settings, the rest unchanged
         */
        public Options withMaxAttempts(int attempts) {
            return new Options(visibilityTimeout, attempts, backoff);
        }

        /**
         * These settings with {@code backoff} before a nacked job's next attempt.
         *
         * @param backoff the wait before a nacked job's next attempt
         * @return new settings, the rest unchanged
         */
        public Options withBackoff(Backoff backoff) {
            return new Options(visibilityTimeout, maxAttempts, backoff);
        }
    }

    /**
     * A job to schedule.
     *
     * @param id       unique within the queue
     * @param payload  anything, returned with the job (at most {@link PriorityJobQueue#MAX_PAYLOAD} characters once encoded)
     * @param priority 0 (most urgent) to {@link PriorityJobQueue#MAX_PRIORITY}, among jobs already due
     * @param due      when it falls due
     * @param <T>      the payload's type
     */
    public record NewJob<T>(String id, T payload, int priority, Due due) {
        /**
         * Checks every field: an id of 1 to {@link #MAX_ID} characters, a payload, a valid priority.
         *
         * @param id unique within the queue
         * @param payload anything, returned with the job
         * @param priority 0 (most urgent) to {@link PriorityJobQueue#MAX_PRIORITY}, among jobs already due
         * @param due when it falls due
         */
        public NewJob {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(payload, "payload");
            Objects.requireNonNull(due, "due");
            if (id.isEmpty() || id.length() > MAX_ID) {
                throw new IllegalArgumentException("a job id holds 1 to " + MAX_ID + " characters, got " + id.length());
            }
            PriorityJobQueue.checkPriority(priority);
        }
    }

    /** What a nack did. */
    public enum NackOutcome {
        /** The job waits for its next attempt, after the backoff. */
        RETRY_SCHEDULED,
        /** The job had used its last attempt and is now a dead letter. */
        DEAD,
        /** The claim was no longer the job's (it timed out and was claimed again, or the job ended): nothing changed. */
        NOT_CLAIMED
    }

    /**
     * A dead letter: the job and why its last attempt failed.
     *
     * @param id      the job's id
     * @param payload what was scheduled, decoded by the queue's codec
     * @param reason  the reason its last nack gave
     * @param <T>     the payload's type
     */
    public record DeadJob<T>(String id, T payload, String reason) {
    }

    /** How many jobs are in each state. */
    public record Counts(long delayed, long ready, long inFlight, long dead) {
    }

    // Each script below runs after delayed_prelude.lua (Script.fromResource), which names the keys and holds the helpers they share.

    /** ARGV: policy, then (id, payload, priority, due) per job. Returns (1 and due, or 0 and 0) per job. */
    private static final Script SCHEDULE = Script.fromResource(DelayedJobQueue.class, "delayed_schedule.lua");

    /**
     * ARGV: max, visibility ms, max attempts. Returns expired claims to the ready set (or to the
     * dead letters when out of attempts), moves due jobs to the ready set, then claims up to max.
     * Each claim gets a token from the queue's sequence, which only grows: ack and nack count
     * only with the latest claim's token, whatever happened to the job meanwhile. At most 1,000
     * expired claims and 1,000 due jobs move per call, oldest first (a larger backlog moves over
     * the next calls). Returns {now, then (id, payload, priority, attempt, due, token) per job}.
     */
    private static final Script CLAIM = Script.fromResource(DelayedJobQueue.class, "delayed_claim.lua");

    /** ARGV: (id, claim token) pairs. Ends each job that is still that claim; returns how many. */
    private static final Script ACK = Script.fromResource(DelayedJobQueue.class, "delayed_ack.lua");

    /**
     * ARGV: (id, claim token) pairs. Each job that is still that claim is ready again at once, behind the jobs
     * already ready at its priority (as an expired claim is), and its attempt is given back; returns how many.
     */
    private static final Script RELEASE = Script.fromResource(DelayedJobQueue.class, "delayed_release.lua");

    /** ARGV: id, claim token, reason, backoff ms, max attempts, attempt. Returns 1 retry scheduled, 2 dead, 0 not the current claim. */
    private static final Script NACK = Script.fromResource(DelayedJobQueue.class, "delayed_nack.lua");

    /** ARGV: id. Removes the job whatever its state; returns 1 if it existed. */
    private static final Script CANCEL = Script.fromResource(DelayedJobQueue.class, "delayed_cancel.lua");

    /** ARGV: id, due. Moves a job that waits (delayed or ready, not claimed or dead) to a new due time. */
    private static final Script RESCHEDULE = Script.fromResource(DelayedJobQueue.class, "delayed_reschedule.lua");

    /** Counts {delayed (not yet due), ready (due), in flight, dead}, and ms until the next job falls due or claim expires (-1: none). */
    private static final Script COUNTS = Script.fromResource(DelayedJobQueue.class, "delayed_counts.lua");

    /** ARGV: max. The oldest dead letters: (id, payload, reason) each. */
    private static final Script DEAD = Script.fromResource(DelayedJobQueue.class, "delayed_dead.lua");

    /** ARGV: ids. Dead letters among them fall due now with fresh attempts; returns how many. */
    private static final Script RETRY_DEAD = Script.fromResource(DelayedJobQueue.class, "delayed_retry_dead.lua");

    /** Removes up to ARGV[1] dead letters; returns how many. */
    private static final Script PURGE_DEAD = Script.fromResource(DelayedJobQueue.class, "delayed_purge_dead.lua");

    private final Store store;
    private final Options options;
    private final List<String> keys;
    private final Codec<T> codec;

    /**
     * The queue of string payloads called {@code name} with {@link Options#defaults()} (no braces: its keys share the hash tag {@code {name}}).
     *
     * @param store where the queue lives
     * @param name the queue's name, also its keys' hash tag
     * @return the queue
     */
    public static DelayedJobQueue<String> create(Store store, String name) {
        return new DelayedJobQueue<>(store, name, Options.defaults(), Codec.strings());
    }

    /**
     * The queue of string payloads called {@code name} with {@code options} (no braces: its keys share the hash tag {@code {name}}).
     *
     * @param store where the queue lives
     * @param name the queue's name, also its keys' hash tag
     * @param options visibility timeout, attempts and backoff
     * @return the queue
     */
    public static DelayedJobQueue<String> create(Store store, String name, Options options) {
        return new DelayedJobQueue<>(store, name, options, Codec.strings());
    }

    /**
     * The queue called {@code name} with {@code options}, whose payloads {@code codec} stores as text.
     *
     * @param <T> the payloads' type
     * @param store where the queue lives
     * @param name the queue's name, also its keys' hash tag
     * @param options visibility timeout, attempts and backoff
     * @param codec turns payloads into stored text and back
     * @return the queue
     */
    public static <T> DelayedJobQueue<T> create(Store store, String name, Options options, Codec<T> codec) {
        return new DelayedJobQueue<>(store, name, options, codec);
    }

    private DelayedJobQueue(Store store, String name, Options options, Codec<T> codec) {
        this.store = Objects.requireNonNull(store, "store");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.options = Objects.requireNonNull(options, "options");
        String prefix = PriorityJobQueue.keyPrefix(name);
        List<String> k = new ArrayList<>();
        for (String part : new String[] {"delayed", "ready", "inflight", "dead", "payload", "priority", "attempts", "due", "error", "seq", "signal", "claim"}) {
            k.add(prefix + part);
        }
        this.keys = List.copyOf(k);
    }

    /**
     * Schedules a job of priority 0; false when the id exists already (nothing changes).
     *
     * @param id the job's id, unique within the queue
     * @param payload what the worker gets with the job
     * @param due when the job falls due
     * @return whether it was scheduled
     */
    public boolean schedule(String id, T payload, Due due) {
        return scheduleAll(List.of(new NewJob<>(id, payload, 0, due)), OnDuplicate.REJECT).get(0) != null;
    }

    /**
     * {@link #schedule}, without blocking; bad arguments are thrown at once.
     *
     * @param id the job's id, unique within the queue
     * @param payload what the worker gets with the job
     * @param due when the job falls due
     * @return a stage completing with whether it was scheduled
     */
    public CompletionStage<Boolean> scheduleAsync(String id, T payload, Due due) {
        return scheduleAllAsync(List.of(new NewJob<>(id, payload, 0, due)), OnDuplicate.REJECT).thenApply(due1 -> due1.get(0) != null);
    }

    /**
     * Schedules jobs in one atomic step; returns each one's due time, or null where its id
     * existed and {@code onDuplicate} is REJECT. REPLACE starts an existing job afresh (new payload,
     * due time and attempts, whatever state it was in).
     *
     * @param jobs the jobs, at most {@link #MAX_BATCH}
     * @param onDuplicate what to do with a job whose id exists
     * @return one due time per job, in order, null where rejected
     */
    public List<Instant> scheduleAll(List<NewJob<T>> jobs, OnDuplicate onDuplicate) {
        return dueTimes(store.eval(SCHEDULE, keys, scheduleArgs(jobs, onDuplicate)));
    }

    /**
     * {@link #scheduleAll}, without blocking; bad arguments are thrown at once.
     *
     * @param jobs the jobs, at most {@link #MAX_BATCH}
     * @param onDuplicate what to do with a job whose id exists
     * @return a stage completing with one due time per job, null where rejected
     */
    public CompletionStage<List<Instant>> scheduleAllAsync(List<NewJob<T>> jobs, OnDuplicate onDuplicate) {
        return store.evalAsync(SCHEDULE, keys, scheduleArgs(jobs, onDuplicate)).thenApply(DelayedJobQueue::dueTimes);
    }

    private List<String> scheduleArgs(List<NewJob<T>> jobs, OnDuplicate onDuplicate) {
        checkBatch(jobs.size());
        List<String> args = new ArrayList<>(1 + 4 * jobs.size());
        args.add(onDuplicate.name());
        for (NewJob<T> j : jobs) {
            String payload = codec.encode(j.payload());
            if (payload.length() > PriorityJobQueue.MAX_PAYLOAD) {
                throw new IllegalArgumentException("a payload holds at most " + PriorityJobQueue.MAX_PAYLOAD + " characters, got " + payload.length());
            }
            args.add(j.id());
            args.add(payload);
            args.add(Integer.toString(j.priority()));
            args.add(j.due().wire());
        }
        return args;
    }

    private static List<Instant> dueTimes(Reply reply) {
        List<Reply> r = reply.asList();
        List<Instant> out = new ArrayList<>(r.size() / 2);
        for (int i = 0; i < r.size(); i += 2) {
            out.add(r.get(i).asLong() == 1L ? Instant.ofEpochMilli(r.get(i + 1).asLong()) : null);
        }
        return out;
    }

    /**
     * Removes the job whatever its state; true if it existed.
     *
     * @param id the job's id
     * @return whether there was such a job
     */
    public boolean cancel(String id) {
        return store.eval(CANCEL, keys, List.of(id)).asLong() == 1L;
    }

    /**
     * Moves a waiting job (not claimed, not dead) to a new due time; true if it was waiting.
     *
     * @param id the job's id
     * @param due its new due time
     * @return whether the job was waiting and moved
     */
    public boolean reschedule(String id, Due due) {
        return store.eval(RESCHEDULE, keys, List.of(id, due.wire())).asLong() == 1L;
    }

    /**
     * Claims up to {@code max} due jobs, most urgent first, without waiting.
     *
     * @param max the most jobs to claim, 1 to {@link #MAX_BATCH}
     * @return the jobs claimed, possibly none
     */
    public List<ClaimedJob<T>> claim(int max) {
        checkBatch(max);
        List<Reply> r = store.eval(CLAIM, keys, List.of(Integer.toString(max),
                Long.toString(options.visibilityTimeout().toMillis()), Integer.toString(options.maxAttempts()))).asList();
        Instant now = Instant.ofEpochMilli(r.get(0).asLong());
        List<ClaimedJob<T>> out = new ArrayList<>((r.size() - 1) / 6);
        for (int i = 1; i < r.size(); i += 6) {
            out.add(new ClaimedJob<>(r.get(i).asString(), codec.decode(r.get(i + 1).asString()), (int) r.get(i + 2).asLong(),
                    (int) r.get(i + 3).asLong(), Instant.ofEpochMilli(r.get(i + 4).asLong()), now, r.get(i + 5).asLong()));
        }
        return out;
    }

    /**
     * Ends a job; false when this claim is no longer the job's latest (its timeout passed and it was claimed again, say).
     *
     * @param job the job as it was claimed
     * @return whether this claim was still the latest and the job ended
     */
    public boolean ack(ClaimedJob<?> job) {
        return ackAll(List.of(job)) == 1;
    }

    /**
     * Ends jobs in one step; returns how many were still their latest claim.
     *
     * @param jobs the jobs as they were claimed, at most {@link #MAX_BATCH}
     * @return how many ended
     */
    public int ackAll(List<? extends ClaimedJob<?>> jobs) {
        return (int) store.eval(ACK, keys, claimArgs(jobs)).asLong();
    }

    /** ARGV of {@link #ACK} and {@link #RELEASE}: (id, claim token) per job; refuses a bad batch. */
    private static List<String> claimArgs(List<? extends ClaimedJob<?>> jobs) {
        checkBatch(jobs.size());
        List<String> args = new ArrayList<>(2 * jobs.size());
        for (ClaimedJob<?> j : jobs) {
            args.add(j.id());
            args.add(Long.toString(j.claimToken()));
        }
        return args;
    }

    /**
     * Hands back a claim whose work has not started: the job is ready again at once, and the
     * attempt is not counted (a worker shutting down releases the jobs it claimed but will not
     * run). False when this claim is no longer the job's latest; nothing changes then.
     *
     * @param job the job as it was claimed
     * @return whether this claim was still the latest and the job is ready again
     */
    public boolean release(ClaimedJob<?> job) {
        return releaseAll(List.of(job)) == 1;
    }

    /**
     * {@link #release Releases} claims in one step; returns how many were still their latest claim.
     *
     * @param jobs the jobs as they were claimed, at most {@link #MAX_BATCH}
     * @return how many are ready again
     */
    public int releaseAll(List<? extends ClaimedJob<?>> jobs) {
        return (int) store.eval(RELEASE, keys, claimArgs(jobs)).asLong();
    }

    /**
     * Reports a failed attempt: the job is retried after the backoff, or becomes a dead letter with {@code reason}.
     *
     * @param job the job as it was claimed
     * @param reason why the attempt failed, kept with a dead letter (truncated to {@link #MAX_REASON} characters)
     * @return whether the job will be retried or is dead, or the claim was stale
     */
    public NackOutcome nack(ClaimedJob<?> job, String reason) {
        String why = Objects.requireNonNull(reason, "reason");
        if (why.length() > MAX_REASON) {
            why = why.substring(0, MAX_REASON);
        }
        long r = store.eval(NACK, keys, List.of(job.id(), Long.toString(job.claimToken()), why,
                Long.toString(options.backoff().delayAfter(job.attempt()).toMillis()), Integer.toString(options.maxAttempts()),
                Integer.toString(job.attempt()))).asLong();
        return r == 1 ? NackOutcome.RETRY_SCHEDULED : r == 2 ? NackOutcome.DEAD : NackOutcome.NOT_CLAIMED;
    }

    /**
     * How many jobs wait for their time, are due, are claimed, and are dead.
     *
     * @return the four counts, read together
     */
    public Counts counts() {
        List<Reply> r = store.eval(COUNTS, keys, List.of()).asList();
        return new Counts(r.get(0).asLong(), r.get(1).asLong(), r.get(2).asLong(), r.get(3).asLong());
    }

    /**
     * A claimed job as {@link #inFlight} shows it.
     *
     * @param id the job's id
     * @param attempt which attempt the claim is, from 1
     * @param deadline when the claim expires and the job may be claimed again
     */
    public record InFlight(String id, int attempt, Instant deadline) {
    }

    /**
     * Up to {@code max} claimed jobs, those whose claim expires first first. A job's claim age is
     * its visibility timeout less the time left to its deadline.
     *
     * @param max the most to read, 1 to {@link #MAX_BATCH}
     * @return the claimed jobs
     */
    public List<InFlight> inFlight(int max) {
        checkBatch(max);
        List<Reply> claimed = store.call(StoreCommand.of("ZRANGE").key(keys.get(2)).arg(0).arg(max - 1).arg("WITHSCORES")).asList();
        if (claimed.isEmpty()) {
            return List.of();
        }
        StoreCommand attempts = StoreCommand.of("HMGET").key(keys.get(6));
        for (int i = 0; i < claimed.size(); i += 2) {
            attempts.arg(claimed.get(i).asString());
        }
        List<Reply> tries = store.call(attempts).asList();
        List<InFlight> out = new ArrayList<>(claimed.size() / 2);
        for (int i = 0; i < claimed.size(); i += 2) {
            Reply attempt = tries.get(i / 2);
            out.add(new InFlight(claimed.get(i).asString(), attempt.isNil() ? 0 : Integer.parseInt(attempt.asString()),
                    Instant.ofEpochMilli((long) claimed.get(i + 1).asDouble())));
        }
        return out;
    }

    /** The widest span of a due histogram: a year (leap or not), so no span's end can overflow. */
    private static final Duration MAX_BUCKET = Duration.ofDays(366);

    /**
     * How many delayed jobs fall due in each of {@code buckets} consecutive spans of {@code width}
     * from {@code from}, and (last element) how many after them: {@code buckets} + 1 counts, each
     * one O(log N) read, sent together. Jobs already due (ready) are not counted.
     *
     * @param from where the first span starts
     * @param width each span's length, a millisecond to 366 days
     * @param buckets how many spans, 1 to 1,000
     * @return the counts, in order
     */
    public List<Long> dueHistogram(Instant from, Duration width, int buckets) {
        if (buckets < 1 || buckets > 1000 || width.compareTo(MAX_BUCKET) > 0 || width.toMillis() < 1) {
            throw new IllegalArgumentException("a due histogram takes 1 to 1000 buckets of 1 ms to 366 days, got " + buckets + " of " + width);
        }
        long start = from.toEpochMilli();
        long step = width.toMillis();
        List<StoreCommand> counts = new ArrayList<>(buckets + 1);
        for (int i = 0; i <= buckets; i++) {
            long lo = start + i * step;
            counts.add(StoreCommand.of("ZCOUNT").key(keys.get(0)).arg(lo).arg(i == buckets ? "+inf" : "(" + (lo + step)));
        }
        List<Long> out = new ArrayList<>(counts.size());
        for (Reply r : store.callAll(counts)) {
            out.add(r.asLong());
        }
        return out;
    }

    /**
     * Up to {@code max} dead letters, oldest first.
     *
     * @param max the most to read, 1 to {@link #MAX_BATCH}
     * @return the dead jobs with why they died
     */
    public List<DeadJob<T>> deadLetters(int max) {
        checkBatch(max);
        List<Reply> r = store.eval(DEAD, keys, List.of(Integer.toString(max))).asList();
        List<DeadJob<T>> out = new ArrayList<>(r.size() / 3);
        for (int i = 0; i < r.size(); i += 3) {
            out.add(new DeadJob<>(r.get(i).asString(), codec.decode(r.get(i + 1).asString()), r.get(i + 2).asString()));
        }
        return out;
    }

    /**
     * Gives dead letters among {@code ids} fresh attempts, due now; returns how many.
     *
     * @param ids the ids of dead jobs to retry, at most {@link #MAX_BATCH}
     * @return how many were dead and are waiting again
     */
    public int retryDead(List<String> ids) {
        checkBatch(ids.size());
        return (int) store.eval(RETRY_DEAD, keys, ids).asLong();
    }

    /**
     * Deletes up to {@code max} dead letters, oldest first; returns how many.
     *
     * @param max the most to delete, 1 to {@link #MAX_BATCH}
     * @return how many were deleted
     */
    public int purgeDead(int max) {
        checkBatch(max);
        return (int) store.eval(PURGE_DEAD, keys, List.of(Integer.toString(max))).asLong();
    }

    /**
     * A worker with its own connection, for claims that wait.
     *
     * @return a new worker; close it when done
     */
    public Worker worker() {
        return new Worker(store.dedicated());
    }

    private static void checkBatch(int n) {
        if (n < 1 || n > MAX_BATCH) {
            throw new IllegalArgumentException("a call carries 1 to " + MAX_BATCH + " jobs, got " + n);
        }
    }

    /**
     * Claims jobs, waiting for them: between attempts it blocks (BZPOPMIN on the queue's signal
     * set, on a connection of its own) until a job is scheduled or the next job falls due, so it
     * never polls in a busy loop. Not for sharing between threads.
     */
    public final class Worker implements AutoCloseable {
        /** The longest one wait on the server lasts (below the client's command timeout). */
        private static final long MAX_BLOCK_MILLIS = 10_000;

        private Store connection;

        private Worker(Store connection) {
            this.connection = connection;
        }

        /**
         * Claims up to {@code max} due jobs, waiting up to {@code wait} for the first; empty when none came.
         *
         * @param max the most jobs to claim, 1 to {@link #MAX_BATCH}
         * @param wait how long to wait for a due job
         * @return the jobs claimed, possibly none
         */
        public List<ClaimedJob<T>> claim(int max, Duration wait) {
            long deadline = System.nanoTime() + wait.toNanos();
            while (true) {
                List<ClaimedJob<T>> jobs = DelayedJobQueue.this.claim(max);
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (!jobs.isEmpty() || left <= 0) {
                    return jobs;
                }
                List<Reply> c = store.eval(COUNTS, keys, List.of()).asList();
                long untilNext = c.get(4).asLong();
                long block = Math.min(left, MAX_BLOCK_MILLIS);
                if (untilNext >= 0) {
                    block = Math.min(block, untilNext + 1);
                }
                if (block > 0) {
                    try {
                        connection.call(StoreCommand.of("BZPOPMIN").key(keys.get(10)).arg(java.math.BigDecimal.valueOf(block, 3).toPlainString()));
                    } catch (RuntimeException e) {
                        connection.close();
                        connection = store.dedicated();
                        throw e;
                    }
                }
            }
        }

        @Override
        public void close() {
            connection.close();
        }
    }
}
