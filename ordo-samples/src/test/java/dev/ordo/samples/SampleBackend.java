package dev.ordo.samples;

import dev.ordo.engine.differential.RedisServer;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Where the sample's tests keep their data: the in-process Ordo (the default, as the application
 * runs out of the box), or, with {@code -Dordo.samples.backend=redis-server} (the build's second
 * test run), a real redis-server started once for the run on a free port, closed at exit. Without
 * redis-server installed that run skips with the reason, except under {@code CI=true}, where it fails.
 */
final class SampleBackend {
    private static RedisServer redis;

    private SampleBackend() {
    }

    static boolean onRedisServer() {
        return "redis-server".equals(System.getProperty("ordo.samples.backend"));
    }

    /** Points Spring Data Redis, and with it the starter's redis mode, at the redis-server when that is the backend. */
    static synchronized void register(DynamicPropertyRegistry registry) throws Exception {
        if (!onRedisServer()) {
            return;
        }
        if (redis == null) {
            redis = RedisServer.start();
            RedisServer started = redis;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (Exception e) {
                    // the process is ending; the server's own directory is temporary
                }
            }));
        }
        int port = redis.port();
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", () -> port);
    }
}
