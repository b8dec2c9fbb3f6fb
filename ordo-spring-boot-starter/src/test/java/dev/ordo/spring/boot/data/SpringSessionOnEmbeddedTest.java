package dev.ordo.spring.boot.data;

import dev.ordo.spring.boot.test.AutoConfigureOrdo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.data.redis.RedisIndexedSessionRepository;
import org.springframework.session.data.redis.RedisIndexedSessionRepository.RedisSession;
import org.springframework.session.data.redis.config.ConfigureNotifyKeyspaceEventsAction;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Session's indexed Redis repository on the in-process Ordo, with no connection setting:
 * its keyspace-events set-up, sessions by id and by principal. Boot wires Spring Session only in
 * a web application, so this non-web test builds the repository as Spring Session's own
 * configuration does.
 */
@SpringBootTest(classes = SpringSessionOnEmbeddedTest.App.class)
@AutoConfigureOrdo
class SpringSessionOnEmbeddedTest {
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        RedisIndexedSessionRepository sessionRepository(RedisConnectionFactory connections) {
            RedisTemplate<String, Object> template = new RedisTemplate<>();
            template.setConnectionFactory(connections);
            template.setKeySerializer(RedisSerializer.string());
            template.setHashKeySerializer(RedisSerializer.string());
            template.afterPropertiesSet();
            return new RedisIndexedSessionRepository(template);
        }
    }

    @Autowired RedisIndexedSessionRepository sessions;
    @Autowired RedisConnectionFactory connections;

    @Test
    void keyspaceEventsSetUp_asSpringSessionDoesIt() {
        try (RedisConnection connection = connections.getConnection()) {
            new ConfigureNotifyKeyspaceEventsAction().configure(connection);
            Properties config = connection.serverCommands().getConfig("notify-keyspace-events");
            assertThat(config.getProperty("notify-keyspace-events")).contains("E").contains("g").contains("x");
        }
    }

    @Test
    void session_savedFoundByIdAndPrincipal_thenDeleted() {
        RedisSession session = sessions.createSession();
        session.setAttribute("cart", "3 items");
        session.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, "alice");
        sessions.save(session);

        Session found = sessions.findById(session.getId());
        assertThat(found).isNotNull();
        assertThat((String) found.getAttribute("cart")).isEqualTo("3 items");
        assertThat(sessions.findByPrincipalName("alice")).containsOnlyKeys(session.getId());

        sessions.deleteById(session.getId());
        assertThat(sessions.findById(session.getId())).isNull();
        assertThat(sessions.findByPrincipalName("alice")).isEmpty();
    }
}
