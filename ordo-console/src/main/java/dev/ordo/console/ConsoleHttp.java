package dev.ordo.console;

import dev.ordo.patterns.store.StoreException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The console's HTTP surface, independent of any server: {@link #handle} maps one request (a
 * method, a path below the console's root, its query and body) to one response, for the Netty
 * adapter ({@link ConsoleServer}: standalone and in the Ordo server) and the servlet adapter
 * ({@link ConsoleServlet}: mounted in a Spring Boot application) alike. The live feed, a stream
 * of server-sent events, is the one route each adapter serves itself, through {@link #watch}.
 *
 * <p>Routes: {@code GET /} the page; {@code /assets/*} its script and style; {@code
 * /vendor/uplot/*} the chart library from its WebJar; and the JSON API under {@code /api} (the
 * README lists it). Every request but a GET must carry {@link #WRITE_HEADER}{@code : 1}, so a
 * form or link on another site cannot write through a signed-in browser. Path segments are URL-decoded one by one, so a member or key may hold any
 * character, {@code /} included. Errors answer {@code {"error": "..."}}: 400 for a bad request
 * (or a pattern registered with settings that do not parse), 403 for a write the console may not
 * make, 404, 405, 413 for a body over {@link #MAX_BODY}, 502 for a database error (with Redis's
 * text), and 500, logged, for anything else.
 */
public final class ConsoleHttp {
    /**
     * A request.
     *
     * @param method the HTTP method
     * @param path the path below the console's root, starting with {@code /}, still URL-encoded
     * @param query the query parameters, decoded (the first value of each)
     * @param body the body, empty when none
     * @param user who asks, for the log of writes
     * @param fromPage whether the request carries {@link #WRITE_HEADER}{@code : 1}, which the
     *                 console's page sends and a form on another site cannot
     */
    public record Request(String method, String path, Map<String, String> query, byte[] body, String user, boolean fromPage) {
    }

    /** The header every write request must carry, set to {@code 1}. */
    public static final String WRITE_HEADER = "X-Ordo-Console";

    /** A response: status, content type and body. */
    public record Response(int status, String contentType, byte[] body) {
    }

    /** The path of the live feed, served by the adapters as server-sent events. */
    public static final String LIVE_PATH = "/api/live";
    /** The largest request body the console reads. */
    public static final int MAX_BODY = 64 * 1024;
    /** The most live feeds one adapter streams at once; more are answered 503. */
    public static final int MAX_STREAMS = 32;

    private static final System.Logger LOG = System.getLogger(ConsoleHttp.class.getName());
    private static final String JSON = "application/json";
    private static final String UI = "dev/ordo/console/ui/";
    private static final String UPLOT = "META-INF/resources/webjars/uplot/";

    /** Writes the error bodies, which the adapters build without a console. */
    private static final JsonMapper ERRORS = JsonMapper.builder().build();

    private final Console console;
    private final JsonMapper json = JsonMapper.builder().build();
    private final String uplotVersion;

    /**
     * The HTTP surface of {@code console}.
     *
     * @param console what to serve
     */
    public ConsoleHttp(Console console) {
        this.console = Objects.requireNonNull(console, "console");
        this.uplotVersion = uplotVersion();
    }

    /**
     * Answers one request; never throws.
     *
     * @param r the request
     * @return the response
     */
    public Response handle(Request r) {
        try {
            if (r.body() != null && r.body().length > MAX_BODY) {
                throw new ApiException(413, "a console request body is at most " + MAX_BODY + " bytes");
            }
            if (!r.method().equals("GET") && !r.fromPage()) {
                throw new ApiException(403, "write requests need the header " + WRITE_HEADER + ": 1");
            }
            List<String> p = segments(r.path());
            if (p.isEmpty() || p.get(0).equals("index.html")) {
                return resource(UI + "index.html");
            }
            return switch (p.get(0)) {
                case "assets" -> p.size() == 2 ? resource(UI + p.get(1)) : notFound();
                case "vendor" -> p.size() == 3 && p.get(1).equals("uplot") ? resource(UPLOT + uplotVersion + "/dist/" + p.get(2)) : notFound();
                case "api" -> ok(api(r, p.subList(1, p.size())));
                default -> notFound();
            };
        } catch (ApiException e) {
            return error(e.status(), e.getMessage());
        } catch (StoreException e) {
            return error(502, e.getMessage());
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            // a bad value in the request, or in a pattern's recorded settings
            return error(400, e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the console failed on " + r.method() + " " + r.path(), e);
            return error(500, "the console failed: " + e);
        }
    }

    /**
     * Starts sending the live feed to {@code events}: each reading as the JSON data of one
     * server-sent event ({@code data: ...} and a blank line). Returns what stops it; call it when
     * the client goes away. {@code ended} runs if the console closes first: end the stream then.
     *
     * @param events receives each event's text
     * @param ended told when the feed ends under the client
     * @return what stops the feed for this client
     */
    public Runnable watch(Consumer<String> events, Runnable ended) {
        return console.feed().watch(sample -> events.accept("data: " + json.writeValueAsString(sample) + "\n\n"), ended);
    }

    private Object api(Request r, List<String> p) {
        String method = r.method();
        String resource = p.isEmpty() ? "" : p.get(0);
        return switch (resource) {
            case "about" -> get(method, console::about);
            case "overview" -> get(method, console::overview);
            case "patterns" -> get(method, console::patterns);
            case "boards" -> boards(r, p);
            case "queues" -> queues(r, p);
            case "limiters" -> limiters(r, p);
            case "keys" -> get(method, () -> console.keys(text(r, "match", "*"), text(r, "cursor", "0"), integer(r, "count", 100),
                    text(r, "type", null)));
            case "zsets" -> p.size() == 2 ? get(method, () -> console.zset(p.get(1), number(r, "start", 0), integer(r, "count", 50),
                    Boolean.parseBoolean(text(r, "rev", "false")), text(r, "min", null), text(r, "max", null),
                    text(r, "lexMin", null), text(r, "lexMax", null))) : null;
            default -> null;
        };
    }

    private Object boards(Request r, List<String> p) {
        String period = text(r, "period", null);
        if (p.size() == 2) {
            return get(r.method(), () -> console.board(p.get(1), period, integer(r, "offset", 0), integer(r, "limit", 50)));
        }
        if (p.size() == 4 && p.get(2).equals("members")) {
            String board = p.get(1);
            String member = p.get(3);
            return switch (r.method()) {
                case "GET" -> console.member(board, period, member, integer(r, "window", 5));
                case "PUT" -> console.setScore(board, period, member, number(body(r), "score").doubleValue(), r.user());
                case "DELETE" -> Map.of("removed", console.removeMember(board, period, member, r.user()));
                default -> throw new ApiException(405, r.method() + " is not allowed here");
            };
        }
        return null;
    }

    private Object queues(Request r, List<String> p) {
        if (p.size() == 2) {
            return get(r.method(), () -> console.queue(p.get(1)));
        }
        if (p.size() == 3) {
            String name = p.get(1);
            return switch (p.get(2)) {
                case "due" -> get(r.method(), () -> console.due(name, number(r, "bucketMs", 60_000), integer(r, "buckets", 30)));
                case "inflight" -> get(r.method(), () -> console.inFlight(name, integer(r, "limit", 50)));
                case "dead" -> get(r.method(), () -> console.dead(name, integer(r, "limit", 100)));
                default -> null;
            };
        }
        if (p.size() == 4 && p.get(2).equals("dead")) {
            post(r.method());
            String name = p.get(1);
            return switch (p.get(3)) {
                case "retry" -> Map.of("retried", console.retryDead(name, strings(body(r).get("ids")), r.user()));
                case "purge" -> Map.of("purged", console.purgeDead(name, wholeNumber(body(r), "max"), r.user()));
                default -> null;
            };
        }
        return null;
    }

    private Object limiters(Request r, List<String> p) {
        if (p.size() == 2) {
            return get(r.method(), () -> console.limiter(p.get(1), integer(r, "top", 20), integer(r, "count", 200)));
        }
        if (p.size() == 4 && p.get(2).equals("keys")) {
            return get(r.method(), () -> console.limiterKey(p.get(1), p.get(3)));
        }
        return null;
    }

    private static Object get(String method, java.util.function.Supplier<Object> answer) {
        if (!method.equals("GET")) {
            throw new ApiException(405, method + " is not allowed here; use GET");
        }
        return answer.get();
    }

    private static void post(String method) {
        if (!method.equals("POST")) {
            throw new ApiException(405, method + " is not allowed here; use POST");
        }
    }

    private JsonNode body(Request r) {
        try {
            JsonNode node = json.readTree(r.body() == null ? new byte[0] : r.body());
            if (node == null || !node.isObject()) {
                throw ApiException.badRequest("the body must be a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw ApiException.badRequest("the body is not JSON: " + e.getOriginalMessage());
        }
    }

    private static List<String> strings(JsonNode array) {
        if (array == null || !array.isArray()) {
            throw ApiException.badRequest("ids must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode n : array) {
            if (!n.isString()) {
                throw ApiException.badRequest("ids must be an array of strings");
            }
            out.add(n.asString());
        }
        return out;
    }

    private static Number number(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || !n.isNumber()) {
            throw ApiException.badRequest(field + " must be a number");
        }
        return n.numberValue();
    }

    private static int wholeNumber(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || !n.isIntegralNumber() || !n.canConvertToInt()) {
            throw ApiException.badRequest(field + " must be a whole number");
        }
        return n.intValue();
    }

    private static String text(Request r, String name, String fallback) {
        String v = r.query().get(name);
        return v == null ? fallback : v;
    }

    private static int integer(Request r, String name, int fallback) {
        long v = number(r, name, fallback);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw ApiException.badRequest(name + " is out of range, got " + v);
        }
        return (int) v;
    }

    private static long number(Request r, String name, long fallback) {
        String v = r.query().get(name);
        if (v == null || v.isEmpty()) {
            return fallback;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name + " must be an integer, got '" + v + "'");
        }
    }

    private Response ok(Object value) {
        if (value == null) {
            return notFound();
        }
        return new Response(200, JSON, json.writeValueAsBytes(value));
    }

    /**
     * An error response, {@code {"error": message}}, as every route answers one; for the adapters'
     * own refusals too.
     *
     * @param status the HTTP status
     * @param message what went wrong
     * @return the response
     */
    public static Response error(int status, String message) {
        return new Response(status, JSON, ERRORS.writeValueAsBytes(Map.of("error", message == null ? "error" : message)));
    }

    private Response notFound() {
        return error(404, "no such page");
    }

    private Response resource(String path) {
        if (path.contains("..")) {
            return notFound();
        }
        // the page is this module's own resource (on the module path, only this class's lookup sees
        // into it); the chart library is in its WebJar, found through the class loader
        try (InputStream in = path.startsWith(UI) ? ConsoleHttp.class.getResourceAsStream("/" + path)
                : ConsoleHttp.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                return notFound();
            }
            return new Response(200, contentType(path), in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String contentType(String path) {
        if (path.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (path.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (path.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        return "application/octet-stream";
    }

    /** The path's segments, each URL-decoded on its own (so an encoded {@code /} stays inside its segment). */
    static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                out.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    /** The uPlot WebJar's version, from the Maven metadata it carries. */
    private static String uplotVersion() {
        try (InputStream in = ConsoleHttp.class.getClassLoader().getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            java.util.Properties props = new java.util.Properties();
            if (in != null) {
                props.load(in);
            }
            return props.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
