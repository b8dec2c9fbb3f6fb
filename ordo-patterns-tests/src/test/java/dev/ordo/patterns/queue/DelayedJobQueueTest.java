package dev.ordo.patterns.queue;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.queue.DelayedJobQueue.Counts;
import dev.ordo.patterns.queue.DelayedJobQueue.NackOutcome;
import dev.ordo.patterns.queue.DelayedJobQueue.NewJob;
import dev.ordo.patterns.queue.DelayedJobQueue.OnDuplicate;
import dev.ordo.patterns.queue.DelayedJobQueue.Options;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reliable delayed queue's contract, on every back end. */
class DelayedJobQueueTest {
    private static final Options QUICK = Options.defaults().withVisibilityTimeout(Duration.ofMillis(300)).withMaxAttempts(3).withBackoff(Backoff.fixed(Duration.ZERO));

    private static DelayedJobQueue<String> queue(Backend backend, Options options) {
        return DelayedJobQueue.create(backend.store(), Backend.uniqueName("dq"), options);
    }

    @OnEveryBackend
    void scheduleClaimAck_jobRunsOnceAndLeavesNothing(Backend backend) {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        assertThat(q.schedule("j1", "send mail", Due.now())).isTrue();
        assertThat(q.schedule("j1", "other", Due.now())).as("duplicate refused").isFalse();
        List<ClaimedJob<String>> claimed = q.claim(10);
        assertThat(claimed).hasSize(1);
        ClaimedJob<String> job = claimed.get(0);
        assertThat(job.id()).isEqualTo("j1");
        assertThat(job.payload()).isEqualTo("send mail");
        assertThat(job.attempt()).isEqualTo(1);
        assertThat(job.claimedAt()).isAfterOrEqualTo(job.dueAt());
        assertThat(q.counts()).isEqualTo(new Counts(0, 0, 1, 0));
        assertThat(q.ack(job)).isTrue();
        assertThat(q.ack(job)).isFalse();
        assertThat(q.counts()).isEqualTo(new Counts(0, 0, 0, 0));
        assertThat(q.claim(10)).isEmpty();
    }

    @OnEveryBackend
    void replace_startsAnExistingJobAfresh(Backend backend) {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        q.schedule("j", "v1", Due.now());
        ClaimedJob<String> first = q.claim(1).get(0);
        assertThat(q.scheduleAll(List.of(new NewJob<>("j", "v2", 0, Due.now())), OnDuplicate.REPLACE)).doesNotContainNull();
        assertThat(q.ack(first)).as("the replaced claim is over").isFalse();
        ClaimedJob<String> second = q.claim(1).get(0);
        assertThat(second.payload()).isEqualTo("v2");
        assertThat(second.attempt()).isEqualTo(1);
    }

    @OnEveryBackend
    void futureJobs_waitTheirTurn_rescheduleAndCancel(Backend backend) {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        q.schedule("later", "x", Due.in(Duration.ofHours(1)));
        q.schedule("gone", "y", Due.in(Duration.ofHours(1)));
        assertThat(q.claim(10)).isEmpty();
        assertThat(q.counts()).isEqualTo(new Counts(2, 0, 0, 0));
        assertThat(q.reschedule("later", Due.now())).isTrue();
        assertThat(q.counts()).isEqualTo(new Counts(1, 1, 0, 0));
        assertThat(q.cancel("gone")).isTrue();
        assertThat(q.cancel("gone")).isFalse();
        assertThat(q.claim(10)).extracting(ClaimedJob::id).containsExactly("later");
        assertThat(q.reschedule("later", Due.now())).as("claimed jobs are not rescheduled").isFalse();
    }

    @OnEveryBackend
    void dueJobs_mostUrgentPriorityFirstThenInOrderOfFallingDue(Backend backend) {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        q.scheduleAll(List.of(new NewJob<>("low", "", 5, Due.now()), new NewJob<>("urgent", "", 0, Due.now()),
                new NewJob<>("mid-a", "", 2, Due.now()), new NewJob<>("mid-b", "", 2, Due.now())), OnDuplicate.REJECT);
        assertThat(q.claim(4)).extracting(ClaimedJob::id).containsExactly("urgent", "mid-a", "mid-b", "low");
    }

    @OnEveryBackend
    void nack_retriesUntilAttemptsRunOut_thenDeadLetterWithReason(Backend backend) {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        q.schedule("flaky", "p", Due.now());
        for (int attempt = 1; attempt <= 3; attempt++) {
            ClaimedJob<String> job = q.claim(1).get(0);
            assertThat(job.attempt()).isEqualTo(attempt);
            assertThat(q.nack(job, "boom " + attempt)).isEqualTo(attempt < 3 ? NackOutcome.RETRY_SCHEDULED : NackOutcome.DEAD);
            assertThat(q.nack(job, "again")).isEqualTo(NackOutcome.NOT_CLAIMED);
        }
        assertThat(q.counts()).isEqualTo(new Counts(0, 0, 0, 1));
        assertThat(q.deadLetters(10)).containsExactly(new DelayedJobQueue.DeadJob<>("flaky", "p", "boom 3"));
        assertThat(q.retryDead(List.of("flaky", "unknown"))).isEqualTo(1);
        ClaimedJob<String> revived = q.claim(1).get(0);
        assertThat(revived.attempt()).isEqualTo(1);
        assertThat(q.nack(revived, "still")).isEqualTo(NackOutcome.RETRY_SCHEDULED);
        q.schedule("doomed", "", Due.now());
        for (int i = 0; i < 3; i++) {
            q.claim(10).forEach(j -> q.nack(j, "no"));
        }
        assertThat(q.purgeDead(10)).isEqualTo(2);
        assertThat(q.counts()).isEqualTo(new Counts(0, 0, 0, 0));
    }

    @OnEveryBackend
    void visibilityTimeout_abandonedClaimIsClaimableAgain_staleAckRefused(Backend backend) throws Exception {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        q.schedule("j", "p", Due.now());
        ClaimedJob<String> abandoned = q.claim(1).get(0);
        assertThat(q.claim(1)).isEmpty();
        Thread.sleep(QUICK.visibilityTimeout().toMillis() + 20);
        ClaimedJob<String> again = q.claim(1).get(0);
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(q.ack(abandoned)).as("the first worker's claim has passed").isFalse();
        assertThat(q.ack(again)).isTrue();
    }

    @OnEveryBackend
    void staleClaim_ofAJobAckedAndScheduledAgain_cannotAckOrNackTheNewClaim(Backend backend) throws Exception {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        q.schedule("x", "first", Due.now());
        ClaimedJob<String> stale = q.claim(1).get(0);
        Thread.sleep(QUICK.visibilityTimeout().toMillis() + 20);
        ClaimedJob<String> second = q.claim(1).get(0);
        assertThat(q.ack(second)).isTrue();
        q.schedule("x", "again", Due.now());
        ClaimedJob<String> fresh = q.claim(1).get(0);
        assertThat(fresh.attempt()).as("the same attempt number as the stale claim").isEqualTo(stale.attempt());
        assertThat(q.ack(stale)).isFalse();
        assertThat(q.nack(stale, "late")).isEqualTo(NackOutcome.NOT_CLAIMED);
        assertThat(q.counts()).isEqualTo(new Counts(0, 0, 1, 0));
        assertThat(q.ack(fresh)).isTrue();
    }

    @OnEveryBackend
    void worker_wakesForANewJobAndForAJobFallingDue(Backend backend) throws Exception {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (DelayedJobQueue<String>.Worker worker = q.worker()) {
            Future<List<ClaimedJob<String>>> waiting = pool.submit(() -> worker.claim(5, Duration.ofSeconds(20)));
            Thread.sleep(50);
            q.schedule("new", "", Due.now());
            List<ClaimedJob<String>> woken = waiting.get(20, TimeUnit.SECONDS);
            assertThat(woken).extracting(ClaimedJob::id).containsExactly("new");
            assertThat(q.ackAll(woken)).isEqualTo(1);
            q.schedule("soon", "", Due.in(Duration.ofMillis(300)));
            List<ClaimedJob<String>> soon = worker.claim(5, Duration.ofSeconds(20));
            assertThat(soon).extracting(ClaimedJob::id).containsExactly("soon");
            assertThat(soon.get(0).claimedAt()).isAfterOrEqualTo(soon.get(0).dueAt());
            assertThat(q.ackAll(soon)).isEqualTo(1);
            assertThat(worker.claim(1, Duration.ofMillis(100))).isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    @OnEveryBackend
    void release_jobReadyAtOnceWithItsAttemptGivenBack_releasedClaimOver(Backend backend) {
        DelayedJobQueue<String> q = queue(backend, QUICK.withVisibilityTimeout(Duration.ofHours(1)));
        q.scheduleAll(List.of(new NewJob<>("a", "pa", 0, Due.now()), new NewJob<>("b", "pb", 0, Due.now())), OnDuplicate.REJECT);
        ClaimedJob<String> a = q.claim(1).get(0);
        assertThat(a.id()).isEqualTo("a");
        assertThat(q.release(a)).isTrue();
        assertThat(q.counts()).isEqualTo(new Counts(0, 2, 0, 0));
        assertThat(q.release(a)).as("released once").isFalse();
        assertThat(q.ack(a)).as("the released claim is over").isFalse();
        assertThat(q.nack(a, "late")).isEqualTo(NackOutcome.NOT_CLAIMED);
        List<ClaimedJob<String>> again = q.claim(2);
        assertThat(again).extracting(ClaimedJob::id).as("behind the jobs already ready, as an expired claim").containsExactly("b", "a");
        ClaimedJob<String> reclaimed = again.get(1);
        assertThat(reclaimed.payload()).isEqualTo("pa");
        assertThat(reclaimed.attempt()).as("the released attempt is not counted").isEqualTo(1);
        assertThat(reclaimed.claimToken()).isGreaterThan(a.claimToken());
        assertThat(q.ackAll(again)).isEqualTo(2);
        assertThat(q.counts()).isEqualTo(new Counts(0, 0, 0, 0));
    }

    @OnEveryBackend
    void release_onTheLastAttempt_jobKeepsThatAttempt(Backend backend) {
        DelayedJobQueue<String> q = queue(backend, QUICK.withMaxAttempts(2).withVisibilityTimeout(Duration.ofHours(1)));
        q.schedule("j", "p", Due.now());
        q.nack(q.claim(1).get(0), "first");
        q.reschedule("j", Due.now());
        ClaimedJob<String> last = q.claim(1).get(0);
        assertThat(last.attempt()).isEqualTo(2);
        assertThat(q.release(last)).isTrue();
        ClaimedJob<String> same = q.claim(1).get(0);
        assertThat(same.attempt()).isEqualTo(2);
        assertThat(q.nack(same, "second")).isEqualTo(NackOutcome.DEAD);
        assertThat(q.deadLetters(10)).containsExactly(new DelayedJobQueue.DeadJob<>("j", "p", "second"));
    }

    @OnEveryBackend
    void releaseAll_releasesOnlyLatestClaims(Backend backend) throws Exception {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        q.scheduleAll(List.of(new NewJob<>("a-expired", "", 0, Due.now()), new NewJob<>("b-acked", "", 0, Due.now()),
                new NewJob<>("c-held", "", 0, Due.now())), OnDuplicate.REJECT);
        List<ClaimedJob<String>> first = q.claim(3);
        assertThat(first).extracting(ClaimedJob::id).containsExactly("a-expired", "b-acked", "c-held");
        Thread.sleep(QUICK.visibilityTimeout().toMillis() + 20);
        List<ClaimedJob<String>> second = q.claim(3);
        assertThat(second).extracting(ClaimedJob::attempt).containsOnly(2);
        assertThat(q.ack(second.get(1))).isTrue();
        assertThat(q.releaseAll(List.of(first.get(0), first.get(1), second.get(2)))).isEqualTo(1);
        assertThat(q.counts()).as("only the latest claim of held came back").isEqualTo(new Counts(0, 1, 1, 0));
        assertThat(q.claim(3)).extracting(ClaimedJob::id, ClaimedJob::attempt).containsExactly(tuple("c-held", 2));
        assertThatThrownBy(() -> q.releaseAll(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @OnEveryBackend
    void release_wakesAWaitingWorker(Backend backend) throws Exception {
        DelayedJobQueue<String> q = queue(backend, QUICK.withVisibilityTimeout(Duration.ofHours(1)));
        q.schedule("j", "", Due.now());
        ClaimedJob<String> held = q.claim(1).get(0);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (DelayedJobQueue<String>.Worker worker = q.worker()) {
            Future<List<ClaimedJob<String>>> waiting = pool.submit(() -> worker.claim(1, Duration.ofSeconds(30)));
            Thread.sleep(50);
            assertThat(q.release(held)).isTrue();
            // Without a signal the worker would sleep out its 10 s block (the claim's deadline is an hour away).
            assertThat(waiting.get(5, TimeUnit.SECONDS)).extracting(ClaimedJob::id).containsExactly("j");
        } finally {
            pool.shutdownNow();
        }
    }

    @OnEveryBackend
    void badInput_refused(Backend backend) {
        DelayedJobQueue<String> q = queue(backend, QUICK);
        assertThatThrownBy(() -> new NewJob<>("x", "", -1, Due.now())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Due.in(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.claim(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DelayedJobQueue.create(backend.store(), "a{b", QUICK)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * 100,000 jobs due over the next second, 8 workers, some of which die mid-job (their claims
     * abandoned, a new worker takes their place): every job is acked exactly once in the end, none
     * is dead, and none is claimed before it is due.
     */
    @OnEveryBackend
    void hundredThousandJobs_workersDying_everyJobAckedExactlyOnce(Backend backend) throws Exception {
        DelayedJobQueue<String> q = queue(backend, Options.defaults().withVisibilityTimeout(Duration.ofMillis(500)).withMaxAttempts(5).withBackoff(Backoff.fixed(Duration.ZERO)));
        int total = 100_000;
        SplittableRandom random = new SplittableRandom(11);
        for (int from = 0; from < total; from += 1000) {
            List<NewJob<String>> batch = new ArrayList<>(1000);
            for (int i = from; i < from + 1000; i++) {
                batch.add(new NewJob<>("job-" + i, "payload " + i, random.nextInt(4), Due.in(Duration.ofMillis(random.nextInt(1000)))));
            }
            assertThat(q.scheduleAll(batch, OnDuplicate.REJECT)).doesNotContainNull();
        }
        AtomicLong acked = new AtomicLong();
        AtomicInteger deaths = new AtomicInteger();
        AtomicInteger early = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int seed = w;
                workers.add(pool.submit(() -> {
                    SplittableRandom dice = new SplittableRandom(seed);
                    DelayedJobQueue<String>.Worker worker = q.worker();
                    try {
                        while (acked.get() < total) {
                            List<ClaimedJob<String>> jobs = worker.claim(50, Duration.ofMillis(200));
                            jobs.stream().filter(j -> j.claimedAt().isBefore(j.dueAt())).forEach(j -> early.incrementAndGet());
                            if (!jobs.isEmpty() && dice.nextInt(100) == 0) {
                                deaths.incrementAndGet();
                                worker.close();
                                worker = q.worker();
                                continue;
                            }
                            if (!jobs.isEmpty()) {
                                acked.addAndGet(q.ackAll(jobs));
                            }
                        }
                    } finally {
                        worker.close();
                    }
                    return null;
                }));
            }
            for (Future<?> f : workers) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(acked.get()).isEqualTo(total);
        assertThat(early.get()).as("jobs claimed before they were due").isZero();
        assertThat(deaths.get()).as("some workers died mid-job").isPositive();
        assertThat(q.counts()).isEqualTo(new Counts(0, 0, 0, 0));
    }
}
