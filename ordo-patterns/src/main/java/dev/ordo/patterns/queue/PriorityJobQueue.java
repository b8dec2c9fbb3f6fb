package dev.ordo.patterns.queue;

import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Codec;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A priority queue on one sorted set: the most urgent priority first, and first in, first out
 * within a priority, by a sequence the server hands out (never the wall clock, which ties and
 * drifts between machines).
 *
 * <p>Layout: {@code {name}:jobs} holds each job as member {@code <id>:<payload>} with score
 * {@code priority * 2^43 + id}, where {@code id} comes from INCR on {@code {name}:seq}. Priorities
 * take 10 bits (0 to 1023) and ids 43 (8.8 trillion jobs), so every score is an integer below
 * 2^53 and exact in a double; the order of scores is (priority, id). Because the payload lives
 * in the member, taking a job is one ZPOPMIN or BZPOPMIN: a job is handed to exactly one consumer
 * and nothing is left behind. Offers are scripts (INCR and ZADD together).
 *
 * <p>Payloads are strings unless the queue was created with a {@link Codec}, which turns each
 * payload into the text stored and back.
 *
 * <p>Thread-safe. Blocking takes need a {@link Worker}, which holds its own connection.
 *
 * @param <T> the payloads' type
 */
public final class PriorityJobQueue<T> {
    /** The least urgent priority; 0 is the most urgent. */
    public static final int MAX_PRIORITY = 1023;
    /** The most jobs one offer or poll may carry. */
    public static final int MAX_BATCH = 1000;
    /** The longest payload accepted, in characters as stored (encoded). */
    public static final int MAX_PAYLOAD = 512 * 1024;

    private static final double PRIORITY_UNIT = 8796093022208.0; // 2^43

    /** ARGV: priority unit, priority, payloads... Returns the ids given, in order. */
    private static final Script OFFER = Script.fromResource(PriorityJobQueue.class, "priority_offer.lua");

    private final Store store;
    private final String jobs;
    private final String seq;
    private final Codec<T> codec;

    /**
     * The queue of string payloads called {@code name} (no braces: its keys share the hash tag {@code {name}}).
     *
     * @param store where the queue lives
     * @param name the queue's name, also its keys' hash tag
     * @return the queue
     */
    public static PriorityJobQueue<String> create(Store store, String name) {
        return new PriorityJobQueue<>(store, name, Codec.strings());
    }

    /**
     * The queue called {@code name} whose payloads {@code codec} stores as text.
     *
     * @param <T> the payloads' type
     * @param store where the queue lives
     * @param name the queue's name, also its keys' hash tag
     * @param codec turns payloads into stored text and back
     * @return the queue
     */
    public static <T> PriorityJobQueue<T> create(Store store, String name, Codec<T> codec) {
        return new PriorityJobQueue<>(store, name, codec);
    }

    private PriorityJobQueue(Store store, String name, Codec<T> codec) {
        this.store = Objects.requireNonNull(store, "store");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.jobs = keyPrefix(name) + "jobs";
        this.seq = keyPrefix(name) + "seq";
    }

    /** {@code {name}:}, the start of every key of a queue; refuses names that would break the hash tag. */
    static String keyPrefix(String name) {
        if (name.isEmpty() || name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
            throw new IllegalArgumentException("a queue name must be non-empty and hold no braces, got '" + name + "'");
        }
        return "{" + name + "}:";
    }

    /** Refuses a priority outside 0..{@link #MAX_PRIORITY}. */
    static void checkPriority(int priority) {
        if (priority < 0 || priority > MAX_PRIORITY) {
            throw new IllegalArgumentException("priority must be between 0 and " + MAX_PRIORITY + ", got " + priority);
        }
    }

    /**
     * Adds a job; returns its id.
     *
     * @param priority 0 (most urgent) to {@link #MAX_PRIORITY}
     * @param payload what the worker gets with the job
     * @return the job's id, in the order jobs were offered
     */
    public long offer(int priority, T payload) {
        return offerAll(priority, List.of(payload)).get(0);
    }

    /**
     * {@link #offer}, without blocking; bad arguments are thrown at once.
     *
     * @param priority 0 (most urgent) to {@link #MAX_PRIORITY}
     * @param payload what the worker gets with the job
     * @return a stage completing with the job's id
     */
    public CompletionStage<Long> offerAsync(int priority, T payload) {
        return offerAllAsync(priority, List.of(payload)).thenApply(ids -> ids.get(0));
    }

    /**
     * Adds jobs of one priority, in order (they keep that order); returns their ids.
     *
     * @param priority 0 (most urgent) to {@link #MAX_PRIORITY}, for every job
     * @param payloads the jobs' payloads, at most {@link #MAX_BATCH}
     * @return the jobs' ids, in order
     */
    public List<Long> offerAll(int priority, List<T> payloads) {
        return ids(store.eval(OFFER, List.of(jobs, seq), offerArgs(priority, payloads)));
    }

    /**
     * {@link #offerAll}, without blocking; bad arguments are thrown at once.
     *
     * @param priority 0 (most urgent) to {@link #MAX_PRIORITY}, for every job
     * @param payloads the jobs' payloads, at most {@link #MAX_BATCH}
     * @return a stage completing with the jobs' ids, in order
     */
    public CompletionStage<List<Long>> offerAllAsync(int priority, List<T> payloads) {
        return store.evalAsync(OFFER, List.of(jobs, seq), offerArgs(priority, payloads)).thenApply(PriorityJobQueue::ids);
    }

    /** ARGV of {@link #OFFER}; refuses a bad priority, batch or payload. */
    private List<String> offerArgs(int priority, List<T> payloads) {
        checkPriority(priority);
        if (payloads.isEmpty() || payloads.size() > MAX_BATCH) {
            throw new IllegalArgumentException("an offer carries 1 to " + MAX_BATCH + " jobs, got " + payloads.size());
        }
        List<String> args = new ArrayList<>(payloads.size() + 2);
        args.add("8796093022208");
        args.add(Integer.toString(priority));
        for (T payload : payloads) {
            String p = codec.encode(Objects.requireNonNull(payload, "payload"));
            if (p.length() > MAX_PAYLOAD) {
                throw new IllegalArgumentException("a payload holds at most " + MAX_PAYLOAD + " characters, got " + p.length());
            }
            args.add(p);
        }
        return args;
    }

    private static List<Long> ids(Reply reply) {
        List<Reply> ids = reply.asList();
        List<Long> out = new ArrayList<>(ids.size());
        ids.forEach(id -> out.add(id.asLong()));
        return out;
    }

    /**
     * Takes the most urgent job, or empty when the queue is empty.
     *
     * @return the job taken, or empty
     */
    public Optional<Job<T>> poll() {
        List<Job<T>> one = poll(1);
        return one.isEmpty() ? Optional.empty() : Optional.of(one.get(0));
    }

    /**
     * Takes up to {@code max} jobs, most urgent first.
     *
     * @param max the most jobs to take, 1 to {@link #MAX_BATCH}
     * @return the jobs taken, possibly none
     */
    public List<Job<T>> poll(int max) {
        if (max < 1 || max > MAX_BATCH) {
            throw new IllegalArgumentException("poll takes 1 to " + MAX_BATCH + " jobs, got " + max);
        }
        List<Reply> r = store.call(StoreCommand.of("ZPOPMIN").key(jobs).arg(max)).asList();
        List<Job<T>> out = new ArrayList<>(r.size() / 2);
        for (int i = 0; i < r.size(); i += 2) {
            out.add(job(r.get(i).asString(), r.get(i + 1).asString()));
        }
        return out;
    }

    /**
     * How many jobs wait.
     *
     * @return the number of jobs waiting
     */
    public long size() {
        return store.call(StoreCommand.of("ZCARD").key(jobs)).asLong();
    }

    /**
     * How many jobs of {@code priority} wait.
     *
     * @param priority the priority to count
     * @return the number of its jobs waiting
     */
    public long size(int priority) {
        checkPriority(priority);
        return store.call(StoreCommand.of("ZCOUNT").key(jobs).arg((long) (priority * PRIORITY_UNIT))
                .arg("(" + (long) ((priority + 1) * PRIORITY_UNIT))).asLong();
    }

    /**
     * How many jobs wait at each priority that has any, most urgent first: for each priority in
     * use, one range read to find it and one count, each O(log N), and one last read that finds no
     * more (so at most 2 × ({@link #MAX_PRIORITY} + 1) + 1 reads). Not atomic: offers and takes may
     * come between the reads.
     *
     * @return the depth of every priority in use, by priority
     */
    public java.util.SortedMap<Integer, Long> depthByPriority() {
        java.util.SortedMap<Integer, Long> out = new java.util.TreeMap<>();
        int from = 0;
        while (from <= MAX_PRIORITY) {
            List<Reply> next = store.call(StoreCommand.of("ZRANGE").key(jobs).arg((long) (from * PRIORITY_UNIT)).arg("+inf")
                    .arg("BYSCORE").arg("LIMIT").arg(0).arg(1).arg("WITHSCORES")).asList();
            if (next.isEmpty()) {
                break;
            }
            int priority = (int) (next.get(1).asDouble() / PRIORITY_UNIT);
            out.put(priority, size(priority));
            from = priority + 1;
        }
        return out;
    }

    /**
     * A worker with its own connection, for blocking takes; close it when done.
     *
     * @return a new worker
     */
    public Worker worker() {
        return new Worker(store.dedicated());
    }

    private Job<T> job(String member, String score) {
        int colon = member.indexOf(':');
        long id = Long.parseLong(member.substring(0, colon));
        int priority = (int) Math.floor(Double.parseDouble(score) / PRIORITY_UNIT);
        return new Job<>(id, priority, codec.decode(member.substring(colon + 1)));
    }

    /** Takes jobs, waiting for them (BZPOPMIN) on a connection of its own. Not for sharing between threads. */
    public final class Worker implements AutoCloseable {
        /** The longest one take may wait (below the client's own command timeout). */
        public static final Duration MAX_WAIT = Duration.ofSeconds(30);

        private Store connection;

        private Worker(Store connection) {
            this.connection = connection;
        }

        /**
         * Takes the most urgent job, waiting up to {@code timeout} (1 ms to {@link #MAX_WAIT}) for
         * one; empty when none came. When the wait fails, the connection is replaced: a take
         * abandoned by the client must not stay blocked on the server and swallow a job.
         *
         * @param timeout the longest wait, 1 ms to {@link #MAX_WAIT}
         * @return the job taken, or empty
         */
        public Optional<Job<T>> take(Duration timeout) {
            if (timeout.toMillis() < 1 || timeout.compareTo(MAX_WAIT) > 0) {
                throw new IllegalArgumentException("a take waits from 1 ms to " + MAX_WAIT + ", got " + timeout);
            }
            String seconds = java.math.BigDecimal.valueOf(timeout.toMillis(), 3).toPlainString();
            List<Reply> r;
            try {
                r = connection.call(StoreCommand.of("BZPOPMIN").key(jobs).arg(seconds)).asList();
            } catch (RuntimeException e) {
                connection.close();
                connection = store.dedicated();
                throw e;
            }
            return r == null ? Optional.empty() : Optional.of(job(r.get(1).asString(), r.get(2).asString()));
        }

        @Override
        public void close() {
            connection.close();
        }
    }
}
