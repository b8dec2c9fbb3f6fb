package dev.ordo.server.compat;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.server.Ordo;
import dev.ordo.server.RawClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INFO against a real {@code redis-server}: the same sections and field names in the same order,
 * and the network counters (bytes, connections, socket reads and writes, instantaneous rates)
 * moving by exactly what known traffic implies, with the same expectations for both servers.
 */
class InfoOverWireTest {
    /**
     * Fields Ordo reports that Redis added after 7.0, by version (redis.io's INFO page): a Redis
     * older than the version lacks them.
     */
    private static final Map<String, Set<String>> ADDED_AFTER_7_0 = Map.of(
            "7.2", Set.of("total_blocking_keys", "total_blocking_keys_on_nokey", "eventloop_cycles", "eventloop_duration_sum",
                    "eventloop_duration_cmd_sum", "instantaneous_eventloop_cycles_per_sec",
                    "instantaneous_eventloop_duration_usec", "acl_access_denied_auth", "acl_access_denied_cmd",
                    "acl_access_denied_key", "acl_access_denied_channel"),
            "7.4", Set.of("pubsub_clients", "watching_clients", "total_watched_keys", "client_query_buffer_limit_disconnections",
                    "client_output_buffer_limit_disconnections"));
    /** Ordo's own fields: the memory limit in force and the JVM heap. */
    private static final Set<String> ORDO_ONLY = Set.of("maxmemory_effective", "maxmemory_effective_human", "maxmemory_effective_source",
            "heap_used", "heap_committed", "heap_max", "heap_max_human");
    /** Lines that exist per command, error code or database used, not per server. */
    private static final Pattern PER_USE = Pattern.compile("cmdstat_.*|errorstat_.*|latency_percentiles_usec_.*|db\\d+");

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();
    @RegisterExtension
    final OpenClients clients = new OpenClients();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }

    private RawClient connect(int port) throws IOException {
        RawClient c = clients.open(port);
        return c;
    }

    /** The fields of an INFO reply (a RESP2 bulk string), in order; section headers as "# Title". */
    private static Map<String, String> fields(String reply) {
        Map<String, String> fields = new LinkedHashMap<>();
        String body = reply.substring(reply.indexOf("\r\n") + 2);
        for (String line : body.split("\r\n")) {
            if (line.startsWith("# ")) {
                fields.put(line, "");
            } else if (!line.isEmpty()) {
                int colon = line.indexOf(':');
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    /** INFO stats as sent and answered. */
    private record Stats(String request, String reply, Map<String, String> fields) {
        long get(String name) {
            return Long.parseLong(fields.get(name));
        }

        double rate(String name) {
            return Double.parseDouble(fields.get(name));
        }
    }

    private static Stats stats(RawClient c) throws IOException {
        String request = RawClient.command("INFO", "stats");
        c.send(request);
        String reply = c.reply();
        return new Stats(request, reply, fields(reply));
    }

    private static List<String> names(Map<String, String> info) {
        List<String> names = new ArrayList<>();
        for (String name : info.keySet()) {
            if (!PER_USE.matcher(name).matches()) {
                names.add(name);
            }
        }
        return names;
    }

    @Test
    void infoEverything_sectionsAndFieldNames_matchRedisInOrder() throws IOException {
        String version = SERVERS.redis().version();
        List<String> redisNames = names(fields(connect(SERVERS.redis().port()).call("INFO", "everything")));
        List<String> ordoNames = names(fields(connect(SERVERS.ordoPort()).call("INFO", "everything")));

        List<String> newerThanRedis = new ArrayList<>(ORDO_ONLY);
        ADDED_AFTER_7_0.forEach((since, added) -> {
            if (compareVersions(version, since) < 0) {
                newerThanRedis.addAll(added);
            }
        });
        assertThat(ordoNames.stream().filter(n -> !newerThanRedis.contains(n)).toList())
                .as("Ordo's INFO everything without the fields Redis %s predates", version)
                .containsExactlyElementsOf(redisNames);
        assertThat(ordoNames).containsAll(newerThanRedis);
    }

    private static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? Integer.parseInt(x[i]) : 0;
            int q = i < y.length ? Integer.parseInt(y[i]) : 0;
            if (p != q) {
                return Integer.compare(p, q);
            }
        }
        return 0;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void netBytes_knownTraffic_moveByExactlyTheBytesSentAndReceived(SideBySide.Target target) throws IOException {
        RawClient c = connect(target.port());
        Stats before = stats(c);
        String set = RawClient.command("SET", "payload", "x".repeat(20_000));
        String get = RawClient.command("GET", "payload");

        String setReply = c.send(set).reply();
        String getReply = c.send(get).reply();
        Stats after = stats(c);

        assertThat(getReply).hasSize(20_000 + "$20000\r\n\r\n".length());
        // The INFO being answered has been read, not yet answered; the earlier INFO's answer has been sent.
        assertThat(after.get("total_net_input_bytes") - before.get("total_net_input_bytes"))
                .isEqualTo(set.length() + get.length() + after.request().length());
        assertThat(after.get("total_net_output_bytes") - before.get("total_net_output_bytes"))
                .isEqualTo(before.reply().length() + setReply.length() + getReply.length());
        assertThat(after.get("total_reads_processed") - before.get("total_reads_processed")).isGreaterThanOrEqualTo(3);
        assertThat(after.get("total_writes_processed") - before.get("total_writes_processed")).isGreaterThanOrEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void connections_newAndOverMaxclients_countReceivedAndRejected(SideBySide.Target target) throws IOException {
        RawClient admin = connect(target.port());
        Stats before = stats(admin);
        for (int i = 0; i < 3; i++) {
            assertThat(connect(target.port()).call("PING")).isEqualTo("+PONG\r\n");
        }
        String maxclients = admin.call("CONFIG", "GET", "maxclients").split("\r\n")[4];
        assertThat(admin.call("CONFIG", "SET", "maxclients", String.valueOf(networkClients(admin)))).isEqualTo("+OK\r\n");
        try {
            RawClient refused = connect(target.port());
            assertThat(refused.reply()).isEqualTo("-ERR max number of clients reached\r\n");
            assertThat(refused.closedByServer()).isTrue();
        } finally {
            assertThat(admin.call("CONFIG", "SET", "maxclients", maxclients)).isEqualTo("+OK\r\n");
        }
        Stats after = stats(admin);

        assertThat(after.get("total_connections_received") - before.get("total_connections_received")).isEqualTo(3);
        assertThat(after.get("rejected_connections") - before.get("rejected_connections")).isEqualTo(1);
    }

    /** Clients with a network address (Ordo's embedded clients have none and do not count against maxclients). */
    private static long networkClients(RawClient admin) throws IOException {
        return admin.call("CLIENT", "LIST").lines().filter(l -> l.startsWith("id=") && !l.contains(" addr= ")).count();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void instantaneousRates_whileTrafficFlows_arePositive(SideBySide.Target target) throws Exception {
        RawClient c = connect(target.port());
        String set = RawClient.command("SET", "payload", "x".repeat(50_000));
        long end = System.nanoTime() + 400_000_000L;
        while (System.nanoTime() < end) {
            c.send(set).reply();
            c.call("GET", "payload");
            Thread.sleep(10);
        }
        Stats during = stats(c);

        assertThat(during.get("instantaneous_ops_per_sec")).isPositive();
        assertThat(during.rate("instantaneous_input_kbps")).isPositive();
        assertThat(during.rate("instantaneous_output_kbps")).isPositive();
    }

    /** Commands that end in errors of every origin, each step followed by INFO's error figures. */
    private static final List<String[]> ERROR_STEPS = List.of(
            new String[] {"FOO"}, new String[] {"GET"}, new String[] {"SET", "s", "v"}, new String[] {"ZADD", "s", "1", "a"},
            new String[] {"EVAL", "return redis.call('zadd','s',1,'a')", "0"},
            new String[] {"EVAL", "return redis.pcall('zadd','s',1,'a')", "0"},
            new String[] {"EVAL", "redis.pcall('zadd','s',1,'a') return 1", "0"},
            new String[] {"EVAL", "local t = redis.pcall('zadd','s',1,'a') return redis.error_reply(t.err)", "0"},
            new String[] {"EVAL", "return {1, {err='INNER x'}, redis.pcall('zadd','s',1,'a')}", "0"},
            new String[] {"EVAL", "return error(redis.pcall('zadd','s',1,'a'))", "0"},
            new String[] {"EVAL", "pcall(redis.call, 'nosuchcmd') return 1", "0"},
            new String[] {"EVAL", "pcall(redis.setresp, 5) return 1", "0"},
            new String[] {"EVAL", "redis.pcall() return 1", "0"},
            new String[] {"EVAL", "return redis.pcall('zadd','s')", "0"},
            new String[] {"EVAL_RO", "return redis.pcall('set','a','b')", "0"},
            new String[] {"EVAL", "return {err='X y', ignore_error_stats_update=true}", "0"},
            new String[] {"EVAL", "return {err='NOSPACE'}", "0"}, new String[] {"EVAL", "return {err='  lead'}", "0"},
            new String[] {"EVAL", "return {err='ABCDEFGHIJKLMNOPQRSTUVWXYZ1234 x'}", "0"},
            new String[] {"EVAL", "return {err='ABCDEFGHIJKLMNOPQRSTUVWXYZ12345 x'}", "0"},
            new String[] {"EVAL", "return redis.error_reply('lower case')", "0"},
            new String[] {"MULTI"}, new String[] {"ZADD", "s", "1", "a"}, new String[] {"INCR", "s"}, new String[] {"EXEC"},
            new String[] {"MULTI"}, new String[] {"ZADD", "s"}, new String[] {"EXEC"},
            new String[] {"EXEC"}, new String[] {"DISCARD"}, new String[] {"WATCH"},
            new String[] {"CONFIG", "SET", "latency-tracking-info-percentiles", "abc"},
            new String[] {"CONFIG", "SET", "latency-tracking-info-percentiles", "101"},
            new String[] {"CONFIG", "SET", "latency-tracking", "maybe"});

    /**
     * INFO errorstats, total_error_replies, and each command's calls, rejected_calls and
     * failed_calls after every step of {@link #ERROR_STEPS}, the same on both servers; then a
     * protocol error, CONFIG RESETSTAT, and latencystats with the same lines and percentiles.
     */
    @Test
    void errorFigures_errorsOfEveryOrigin_matchRedisStepByStep() throws IOException {
        List<List<String>> seen = new ArrayList<>();
        for (SideBySide.Target target : servers()) {
            RawClient c = connect(target.port());
            c.call("FLUSHALL");
            c.call("CONFIG", "RESETSTAT");
            List<String> figures = new ArrayList<>();
            boolean inMulti = false;
            for (String[] step : ERROR_STEPS) {
                figures.add(String.join(" ", step) + " -> " + c.call(step).strip());
                inMulti = step[0].equals("MULTI") || inMulti && !step[0].equals("EXEC");
                if (!inMulti) {
                    figures.add(errorFigures(c));
                }
            }
            RawClient bad = connect(target.port());
            bad.send("*abc\r\n");
            figures.add("protocol error -> " + bad.reply().strip());
            figures.add(errorFigures(c));
            c.call("CONFIG", "RESETSTAT");
            figures.add("after resetstat: " + errorFigures(c));
            c.call("ZSCORE", "s", "a");
            c.call("ZSCORE", "s", "a");
            c.call("CONFIG", "SET", "latency-tracking-info-percentiles", "50 99.9 100");
            figures.add("latencystats: " + latencyShape(fields(c.call("INFO", "latencystats"))));
            c.call("CONFIG", "SET", "latency-tracking-info-percentiles", "50 99 99.9");
            seen.add(figures);
        }
        assertThat(seen.get(0)).isEqualTo(seen.get(1));
    }

    /** errorstats lines, total_error_replies, and commandstats without timings, commands sorted by name. */
    private static String errorFigures(RawClient c) throws IOException {
        Map<String, String> f = fields(c.call("INFO", "errorstats"));
        f.putAll(fields(c.call("INFO", "stats")));
        f.putAll(fields(c.call("INFO", "commandstats")));
        return sortedLines(f, name -> name.startsWith("errorstat_") || name.equals("total_error_replies")
                || name.startsWith("cmdstat_") && !name.startsWith("cmdstat_info") && !name.startsWith("cmdstat_config"),
                "usec=\\d+,usec_per_call=[\\d.]+,");
    }

    /** latencystats line names, sorted, each with its percentile names: values are timings. */
    private static String latencyShape(Map<String, String> f) {
        return sortedLines(f, name -> name.startsWith("latency_percentiles_usec_"), "=\\d+\\.\\d{3}");
    }

    /** The fields {@code wanted} picks, sorted by name, as {@code name=value} with {@code timings} removed from values. */
    private static String sortedLines(Map<String, String> f, java.util.function.Predicate<String> wanted, String timings) {
        return new java.util.TreeMap<>(f).entrySet().stream().filter(e -> wanted.test(e.getKey()))
                .map(e -> e.getKey() + "=" + e.getValue().replaceAll(timings, ""))
                .collect(java.util.stream.Collectors.joining(" "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void configResetstat_afterTraffic_startsTheCountersAgain(SideBySide.Target target) throws IOException {
        RawClient c = connect(target.port());
        c.call("SET", "payload", "x".repeat(10_000));
        connect(target.port()).call("PING");

        assertThat(c.call("CONFIG", "RESETSTAT")).isEqualTo("+OK\r\n");
        Stats after = stats(c);

        assertThat(after.get("total_connections_received")).isZero();
        assertThat(after.get("rejected_connections")).isZero();
        assertThat(after.get("total_net_input_bytes")).isEqualTo(after.request().length());
        assertThat(after.get("total_net_output_bytes")).isEqualTo("+OK\r\n".length());
        assertThat(after.get("total_reads_processed")).isEqualTo(1);
        assertThat(after.get("total_writes_processed")).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void netBytes_trafficServedDuringABusyScript_countsEveryByte(SideBySide.Target target) throws Exception {
        RawClient c = connect(target.port());
        RawClient scripted = connect(target.port());
        RawClient other = connect(target.port());
        assertThat(c.call("CONFIG", "SET", "busy-reply-threshold", "100")).isEqualTo("+OK\r\n");
        Stats before = stats(c);
        long sent = 0;
        long received = before.reply().length();

        String eval = RawClient.command("EVAL", "local i = 0 while true do i = i + 1 end", "0");
        scripted.send(eval);
        sent += eval.length();
        String ping = RawClient.command("PING");
        String reply;
        do {
            Thread.sleep(20);
            reply = other.send(ping).reply();
            sent += ping.length();
            received += reply.length();
        } while (!reply.startsWith("-BUSY"));
        String kill = RawClient.command("SCRIPT", "KILL");
        String killed = c.send(kill).reply();
        String scriptError = scripted.reply();
        sent += kill.length();
        received += killed.length() + scriptError.length();
        Stats after = stats(c);
        c.call("CONFIG", "SET", "busy-reply-threshold", "5000");

        assertThat(killed).isEqualTo("+OK\r\n");
        assertThat(scriptError).startsWith("-ERR ");
        assertThat(after.get("total_net_input_bytes") - before.get("total_net_input_bytes"))
                .isEqualTo(sent + after.request().length());
        assertThat(after.get("total_net_output_bytes") - before.get("total_net_output_bytes")).isEqualTo(received);
    }

    @Test
    void netBytes_embeddedClientTraffic_carriesNoNetworkBytes() throws IOException {
        RawClient c = connect(SERVERS.ordoPort());
        Stats before = stats(c);

        try (EmbeddedClient embedded = SERVERS.ordo().engine().connect()) {
            embedded.call("SET", "embedded", "x".repeat(20_000));
            embedded.call("GET", "embedded");
        }
        Stats after = stats(c);

        assertThat(after.get("total_net_input_bytes") - before.get("total_net_input_bytes"))
                .isEqualTo(after.request().length());
        assertThat(after.get("total_net_output_bytes") - before.get("total_net_output_bytes"))
                .isEqualTo(before.reply().length());
        assertThat(after.get("total_commands_processed") - before.get("total_commands_processed")).isEqualTo(3);
    }
}
