package dev.ordo.server.compat;

import dev.ordo.server.RawClient;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ApplicationEvent;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.data.redis.serializer.StringRedisSerializer;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.data.redis.RedisIndexedSessionRepository;
import org.springframework.session.data.redis.RedisIndexedSessionRepository.RedisSession;
import org.springframework.session.data.redis.config.ConfigureNotifyKeyspaceEventsAction;
import org.springframework.session.events.SessionCreatedEvent;
import org.springframework.session.events.SessionDeletedEvent;
import org.springframework.session.events.SessionDestroyedEvent;
import org.springframework.session.events.SessionExpiredEvent;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Session's indexed repository ({@code RedisIndexedSessionRepository}) wired as its
 * {@code @EnableRedisIndexedHttpSession} configuration wires it, run unchanged against Ordo and
 * against redis-server: {@code ConfigureNotifyKeyspaceEventsAction} turns on the keyspace
 * events, a listener container subscribes the repository to {@code __keyevent@0__:del},
 * {@code __keyevent@0__:expired} and its created-channel pattern, and the repository's events
 * are collected. A session is created, found by its principal-name index, given a new id
 * (RENAME of its keys), deleted (a
 * {@link SessionDeletedEvent} from the {@code del} event) and left to expire (a
 * {@link SessionExpiredEvent} from the server's own expiry of the session's expires key). Each
 * wait is for an event, bounded far above what it needs; none decides by timing.
 */
class SpringSessionClientsTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }

    /** The repository, its listener container and the events it published, closed together. */
    private static final class Wiring {
        final LettuceConnectionFactory factory;
        final RedisIndexedSessionRepository repository;
        final RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        final BlockingQueue<ApplicationEvent> events = new LinkedBlockingQueue<>();

        Wiring(SideBySide.Target target) throws Exception {
            factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", target.port()));
            factory.afterPropertiesSet();
            factory.start();
            try (RedisConnection connection = factory.getConnection()) {
                connection.serverCommands().flushAll();
                connection.serverCommands().setConfig("notify-keyspace-events", "");
                new ConfigureNotifyKeyspaceEventsAction().configure(connection);
                Properties set = connection.serverCommands().getConfig("notify-keyspace-events");
                assertThat(set.getProperty("notify-keyspace-events")).as("the events the action turned on").isEqualTo("gxE");
            }
            RedisTemplate<String, Object> template = new RedisTemplate<>();
            template.setConnectionFactory(factory);
            template.setKeySerializer(new StringRedisSerializer());
            template.setHashKeySerializer(new StringRedisSerializer());
            template.afterPropertiesSet();
            repository = new RedisIndexedSessionRepository(template);
            repository.setCleanupCron(Scheduled.CRON_DISABLED);
            repository.setApplicationEventPublisher(event -> events.add((ApplicationEvent) event));
            repository.afterPropertiesSet();
            container.setConnectionFactory(factory);
            container.addMessageListener(repository, List.of(new ChannelTopic(repository.getSessionDeletedChannel()),
                    new ChannelTopic(repository.getSessionExpiredChannel())));
            container.addMessageListener(repository, new PatternTopic(repository.getSessionCreatedChannelPrefix() + "*"));
            container.afterPropertiesSet();
            container.start();
            awaitSubscribed(target.port());
        }

        /** The container subscribes in the background: wait until the server counts its subscriptions. */
        private void awaitSubscribed(int port) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String deleted = repository.getSessionDeletedChannel();
            String expired = repository.getSessionExpiredChannel();
            String bothOnce = "*4\r\n" + bulk(deleted) + ":1\r\n" + bulk(expired) + ":1\r\n";
            try (RawClient raw = new RawClient(port)) {
                while (!(raw.call("PUBSUB", "NUMSUB", deleted, expired).equals(bothOnce)
                        && raw.call("PUBSUB", "NUMPAT").equals(":1\r\n"))) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("the listener container did not subscribe within 30 s");
                    }
                    Thread.sleep(20);
                }
            }
        }

        private static String bulk(String s) {
            return "$" + s.length() + "\r\n" + s + "\r\n";
        }

        /** The next event of {@code type} for {@code sessionId}, skipping others, or a failure after 30 s. */
        <E extends ApplicationEvent> E next(Class<E> type, String sessionId) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                ApplicationEvent e = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (e == null) {
                    throw new AssertionError("no " + type.getSimpleName() + " for session " + sessionId + " within 30 s");
                }
                if (type.isInstance(e) && Objects.equals(sessionId, sessionIdOf(e))) {
                    return type.cast(e);
                }
            }
        }

        private static String sessionIdOf(ApplicationEvent e) {
            if (e instanceof SessionCreatedEvent c) {
                return c.getSessionId();
            }
            return e instanceof SessionDestroyedEvent d ? d.getSessionId() : null;
        }

        void shutdown() throws Exception {
            container.stop();
            container.destroy();
            repository.destroy();
            try (RedisConnection connection = factory.getConnection()) {
                connection.serverCommands().setConfig("notify-keyspace-events", "");
            }
            factory.destroy();
        }
    }

    private static RedisSession saveSession(RedisIndexedSessionRepository repository, String principal, Duration maxInactive) {
        RedisSession session = repository.createSession();
        session.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, principal);
        session.setAttribute("cart", "3 items");
        session.setMaxInactiveInterval(maxInactive);
        repository.save(session);
        return session;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void createFindChangeIdAndDelete_publishCreatedAndDeletedEvents(SideBySide.Target target) throws Exception {
        Wiring w = new Wiring(target);
        try {
            RedisSession session = saveSession(w.repository, "alice", Duration.ofMinutes(30));
            assertThat(w.next(SessionCreatedEvent.class, session.getId())).isNotNull();

            RedisSession found = w.repository.findById(session.getId());
            assertThat(found).isNotNull();
            assertThat(found.<String>getAttribute("cart")).isEqualTo("3 items");
            assertThat(w.repository.findByPrincipalName("alice")).containsOnlyKeys(session.getId());
            assertThat(w.repository.findByPrincipalName("bob")).isEmpty();

            String oldId = session.getId();
            String newId = found.changeSessionId();
            w.repository.save(found);
            assertThat(w.repository.findById(oldId)).isNull();
            assertThat(w.repository.findByPrincipalName("alice")).containsOnlyKeys(newId);
            session = w.repository.findById(newId);
            assertThat(session).isNotNull();

            w.repository.deleteById(session.getId());
            SessionDeletedEvent deleted = w.next(SessionDeletedEvent.class, session.getId());
            assertThat(deleted.<RedisSession>getSession().<String>getAttribute("cart")).isEqualTo("3 items");
            assertThat(w.repository.findById(session.getId())).isNull();
            assertThat(w.repository.findByPrincipalName("alice")).isEmpty();
        } finally {
            w.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void inactiveSession_expiresOnTheServer_publishesExpiredEventAndLeavesTheIndex(SideBySide.Target target) throws Exception {
        Wiring w = new Wiring(target);
        try {
            RedisSession kept = saveSession(w.repository, "carol", Duration.ofMinutes(30));
            RedisSession session = saveSession(w.repository, "carol", Duration.ofSeconds(1));
            assertThat(w.repository.findByPrincipalName("carol")).containsOnlyKeys(kept.getId(), session.getId());

            SessionExpiredEvent expired = w.next(SessionExpiredEvent.class, session.getId());
            assertThat(expired.<RedisSession>getSession().<String>getAttribute("cart")).isEqualTo("3 items");
            assertThat(w.repository.findById(session.getId())).isNull();
            assertThat(w.repository.findByPrincipalName("carol")).containsOnlyKeys(kept.getId());
            assertThat(w.events).noneMatch(e -> e instanceof SessionDestroyedEvent d && d.getSessionId().equals(kept.getId()));
        } finally {
            w.shutdown();
        }
    }
}
