package dev.ordo.console;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Serves a console inside a servlet container, below the path it is mapped to (the Spring Boot
 * starter maps it to {@code /ordo/*}), so the application's own security filters guard it as
 * they guard every other path. Requests go to {@link ConsoleHttp}; the live feed is an
 * asynchronous response that stays open, one event per reading, until the client leaves; it
 * writes without blocking (a client that does not read misses readings), and at most
 * {@link ConsoleHttp#MAX_STREAMS} are open at once. Who
 * asked, for the console's log of writes, is the request's authenticated principal.
 *
 * <p>Write requests carry {@link ConsoleHttp#WRITE_HEADER}, as everywhere; the application's own
 * CSRF protection (Spring Security's) applies on top, its token forwarded by the page.
 */
// The servlet API is a static requirement (only servlet applications use this class, and they
// bring the API themselves), so it cannot be passed on with requires transitive.
@SuppressWarnings("exports")
public final class ConsoleServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private final transient ConsoleHttp http;
    private final transient Function<HttpServletRequest, Map<String, String>> headers;
    private final transient AtomicInteger streams = new AtomicInteger();

    /**
     * A servlet serving {@code http}.
     *
     * @param http the console to serve
     */
    public ConsoleServlet(ConsoleHttp http) {
        this(http, request -> Map.of());
    }

    /**
     * A servlet serving {@code http}, adding to every response the headers {@code headers} gives
     * for its request (the Spring Boot starter hands Spring Security's CSRF token to the page so).
     *
     * @param http the console to serve
     * @param headers the extra response headers for a request
     */
    public ConsoleServlet(ConsoleHttp http, Function<HttpServletRequest, Map<String, String>> headers) {
        this.http = Objects.requireNonNull(http, "http");
        this.headers = Objects.requireNonNull(headers, "headers");
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        headers.apply(req).forEach(res::setHeader);
        String path = req.getPathInfo() == null ? "/" : rawPath(req);
        if (req.getPathInfo() == null && !req.getRequestURI().endsWith("/")) {
            // /ordo -> /ordo/, so the page's relative links resolve below the mount
            res.sendRedirect(req.getRequestURI() + "/");
            return;
        }
        if (path.equals(ConsoleHttp.LIVE_PATH) && req.getMethod().equals("GET")) {
            stream(req, res);
            return;
        }
        Map<String, String> query = new HashMap<>();
        req.getParameterMap().forEach((k, v) -> query.put(k, v[0]));
        byte[] body;
        try (InputStream in = req.getInputStream()) {
            body = in.readNBytes(ConsoleHttp.MAX_BODY + 1);
        }
        Principal who = req.getUserPrincipal();
        write(res, http.handle(new ConsoleHttp.Request(req.getMethod(), path, query, body, who == null ? "anonymous" : who.getName(),
                "1".equals(req.getHeader(ConsoleHttp.WRITE_HEADER)))));
    }

    /** The path below the servlet's mapping, still URL-encoded (so an encoded {@code /} in a member stays one). */
    private static String rawPath(HttpServletRequest req) {
        String uri = req.getRequestURI();
        String prefix = req.getContextPath() + req.getServletPath();
        return uri.startsWith(prefix) ? uri.substring(prefix.length()) : req.getPathInfo();
    }

    private static void write(HttpServletResponse res, ConsoleHttp.Response r) throws IOException {
        res.setStatus(r.status());
        res.setContentType(r.contentType());
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setContentLength(r.body().length);
        res.getOutputStream().write(r.body());
    }

    private void stream(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (streams.incrementAndGet() > ConsoleHttp.MAX_STREAMS) {
            streams.decrementAndGet();
            write(res, ConsoleHttp.error(503, "at most " + ConsoleHttp.MAX_STREAMS + " live feeds at once"));
            return;
        }
        res.setStatus(200);
        res.setContentType("text/event-stream;charset=UTF-8");
        res.setHeader("Cache-Control", "no-cache");
        AsyncContext async = req.startAsync();
        async.setTimeout(0);
        ServletOutputStream out = res.getOutputStream();
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Runnable> stop = new AtomicReference<>();
        Runnable end = () -> {
            if (done.compareAndSet(false, true)) {
                Runnable s = stop.get();
                if (s != null) {
                    s.run();
                }
                streams.decrementAndGet();
            }
        };
        // non-blocking output: the feed's thread never waits on a client; one that does not read
        // (its output not ready) misses readings rather than buffering them
        out.setWriteListener(new WriteListener() {
            @Override
            public void onWritePossible() throws IOException {
                synchronized (out) {
                    if (out.isReady()) {
                        out.flush();
                    }
                }
            }

            @Override
            public void onError(Throwable t) {
                end.run();
                async.complete();
            }
        });
        stop.set(http.watch(event -> {
            synchronized (out) {
                try {
                    if (!done.get() && out.isReady()) {
                        out.write(event.getBytes(StandardCharsets.UTF_8));
                        if (out.isReady()) {
                            out.flush();
                        }
                    }
                } catch (IOException | IllegalStateException gone) {
                    end.run();
                    async.complete();
                }
            }
        }, () -> {
            end.run();
            async.complete();
        }));
        if (done.get()) {
            stop.get().run();
        }
        async.addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                end.run();
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                end.run();
            }

            @Override
            public void onError(AsyncEvent event) {
                end.run();
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // a new cycle: the feed goes on
            }
        });
    }
}
