package dev.ordo.engine.persist;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An engine keeping its data in a directory: snapshots and the append-only file survive a
 * restart key by key, background jobs run while clients write, and damaged files are refused or
 * repaired as documented.
 */
class PersistenceTest {
    @TempDir
    Path dir;

    private Config config(String appendonly) {
        Config c = new Config();
        c.set("dir", dir.toString(), true);
        c.set("appendonly", appendonly, true);
        c.set("save", "", true);
        c.set("enable-debug-command", "yes", true);
        return c;
    }

    private EngineTestSupport open(Config config) throws IOException {
        EngineTestSupport ordo = new EngineTestSupport(config);
        ordo.time.set(System.currentTimeMillis());
        ordo.engine.startPersistence();
        return ordo;
    }

    private static void fill(EmbeddedClient c, int n) {
        for (int i = 0; i < n; i++) {
            c.call("ZADD", "board", String.valueOf(i * 0.5), "m" + i);
            c.call("SADD", "set:" + (i % 7), String.valueOf(i));
            c.call("HSET", "hash", "f" + (i % 300), "v" + i);
            c.call("SET", "str:" + (i % 50), "value " + i);
            c.call(i % 3 == 0 ? "LPUSH" : "RPUSH", "list:" + (i % 5), "e" + i, String.valueOf(i));
            if (i % 11 == 0) {
                c.call("LPOP", "list:" + (i % 5));
            }
        }
        c.call("RPUSH", "list:big", "x".repeat(10_000), "y");
        c.call("LINSERT", "list:0", "BEFORE", "e0", "inserted");
        c.call("ZADD", "small", "1", "a", "2", "b\0binary");
        c.call("SET", "counter", "12345");
        c.call("SET", "ttl", "x", "EX", "1000");
        c.call("SELECT", "5");
        c.call("ZADD", "other-db", "3", "c");
        c.call("SELECT", "0");
        c.call("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('hello', function() return 'hi' end)");
    }

    @Test
    void aSnapshotSurvivesARestartKeyByKey() throws IOException {
        Map<String, String> before;
        try (EngineTestSupport ordo = open(config("no"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 2000);
            assertThat(c.call("SAVE")).isEqualTo("OK");
            assertThat((Long) c.call("LASTSAVE")).isGreaterThan(0L);
            before = KeyspaceDigest.of(ordo.engine);
        }
        try (EngineTestSupport ordo = open(config("no"))) {
            assertThat(KeyspaceDigest.of(ordo.engine)).isEqualTo(before);
            assertThat(ordo.client().call("FCALL", "hello", "0")).isEqualTo("hi".getBytes(StandardCharsets.UTF_8));
            String info = new String((byte[]) ordo.client().call("INFO", "persistence"), StandardCharsets.UTF_8);
            assertThat(info).contains("rdb_last_load_keys_loaded:" + before.size());
        }
    }

    @Test
    void theAppendOnlyFileSurvivesARestartKeyByKey() throws IOException {
        Map<String, String> before;
        try (EngineTestSupport ordo = open(config("yes"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 2000);
            c.call("EVAL", "redis.call('ZINCRBY', 'board', 10, 'm1') redis.call('DEL', 'str:1') return 1", "0");
            c.call("ZPOPMIN", "board", "3");
            before = KeyspaceDigest.of(ordo.engine);
        }
        try (EngineTestSupport ordo = open(config("yes"))) {
            assertThat(KeyspaceDigest.of(ordo.engine)).isEqualTo(before);
            assertThat(ordo.client().call("FCALL", "hello", "0")).isEqualTo("hi".getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void backgroundJobsRunWhileClientsWriteAndLoseNothing() throws Exception {
        Map<String, String> before;
        try (EngineTestSupport ordo = open(config("yes"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 3000);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong writes = new AtomicLong();
            Thread writer = new Thread(() -> {
                EmbeddedClient w = ordo.client();
                while (!stop.get()) {
                    long i = writes.incrementAndGet();
                    w.call("ZINCRBY", "board", "1", "m" + (i % 500));
                    w.call("SADD", "set:" + (i % 11), "w" + i);
                    w.call("RENAME", "str:" + (i % 50), "str:" + (i % 50));
                }
            });
            writer.start();
            for (int round = 0; round < 3; round++) {
                assertThat(c.call("BGREWRITEAOF")).isEqualTo("Background append only file rewriting started");
                awaitIdle(c);
                assertThat(c.call("BGSAVE")).isEqualTo("Background saving started");
                awaitIdle(c);
            }
            stop.set(true);
            writer.join();
            assertThat(writes.get()).isGreaterThan(0);
            String info = new String((byte[]) c.call("INFO", "persistence"), StandardCharsets.UTF_8);
            assertThat(info).contains("aof_rewrites:4", "rdb_last_bgsave_status:ok", "aof_last_bgrewrite_status:ok",
                    "aof_enabled:1", "rdb_saves:3");
            before = KeyspaceDigest.of(ordo.engine);
        }
        try (Stream<Path> files = Files.list(dir.resolve("appendonlydir"))) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("appendonly.aof.4.base.rdb", "appendonly.aof.4.incr.aof", "appendonly.aof.manifest");
        }
        try (EngineTestSupport ordo = open(config("yes"))) {
            assertThat(KeyspaceDigest.of(ordo.engine)).isEqualTo(before);
        }
        Files.delete(dir.resolve("appendonlydir").resolve("appendonly.aof.manifest"));
        try (EngineTestSupport ordo = open(config("no"))) {
            Map<String, String> fromSnapshot = KeyspaceDigest.of(ordo.engine);
            assertThat(fromSnapshot).isNotEmpty().containsKey("0:board");
        }
    }

    private static void awaitIdle(EmbeddedClient c) throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            String info = new String((byte[]) c.call("INFO", "persistence"), StandardCharsets.UTF_8);
            if (info.contains("aof_rewrite_in_progress:0") && info.contains("rdb_bgsave_in_progress:0")
                    && info.contains("aof_rewrite_scheduled:0")) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("background job did not finish");
    }

    @Test
    void turningTheAppendOnlyFileOnAtRuntimeWritesABaseFirst() throws Exception {
        Map<String, String> before;
        try (EngineTestSupport ordo = open(config("no"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 500);
            assertThat(c.call("CONFIG", "SET", "appendonly", "yes")).isEqualTo("OK");
            awaitIdle(c);
            c.call("ZADD", "after", "1", "x");
            before = KeyspaceDigest.of(ordo.engine);
        }
        try (EngineTestSupport ordo = open(config("yes"))) {
            assertThat(KeyspaceDigest.of(ordo.engine)).isEqualTo(before);
        }
    }

    @Test
    void evictedKeysReachTheAppendOnlyFileAsDel_soARestartAgrees() throws IOException {
        Map<String, String> before;
        try (EngineTestSupport ordo = open(config("yes"))) {
            EmbeddedClient c = ordo.client();
            for (int i = 0; i < 200; i++) {
                c.call("SET", "key:" + i, "v".repeat(1000));
            }
            Matcher used = Pattern.compile("\r\nused_memory:(\\d+)\r\n")
                    .matcher(new String((byte[]) c.call("INFO", "memory"), StandardCharsets.UTF_8));
            assertThat(used.find()).isTrue();
            c.call("CONFIG", "SET", "maxmemory-policy", "allkeys-random");
            c.call("CONFIG", "SET", "maxmemory-eviction-tenacity", "100");
            c.call("CONFIG", "SET", "maxmemory", String.valueOf(Long.parseLong(used.group(1)) - 50_000));
            assertThat(c.call("SET", "new", "value")).isEqualTo("OK");
            assertThat((Long) c.call("DBSIZE")).isLessThan(201L);
            c.call("CONFIG", "SET", "maxmemory", "0");
            before = KeyspaceDigest.of(ordo.engine);
        }
        String incr = Files.readString(dir.resolve("appendonlydir").resolve("appendonly.aof.1.incr.aof"), StandardCharsets.ISO_8859_1);
        assertThat(incr).containsPattern("\\*2\r\n\\$3\r\nDEL\r\n\\$\\d+\r\nkey:\\d+\r\n");
        try (EngineTestSupport ordo = open(config("yes"))) {
            assertThat(KeyspaceDigest.of(ordo.engine)).isEqualTo(before);
        }
    }

    @Test
    void aTornLastRecordIsDroppedAndTheFileTruncated() throws IOException {
        try (EngineTestSupport ordo = open(config("yes"))) {
            ordo.client().call("ZADD", "k", "1", "a");
            ordo.client().call("ZADD", "k", "2", "b");
        }
        Path incr = dir.resolve("appendonlydir").resolve("appendonly.aof.1.incr.aof");
        long intact = Files.size(incr);
        Files.write(incr, "*3\r\n$4\r\nZADD\r\n$1\r\nk\r\n$1".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        try (EngineTestSupport ordo = open(config("yes"))) {
            assertThat(ordo.client().call("ZCARD", "k")).isEqualTo(2L);
        }
        assertThat(Files.size(incr)).isEqualTo(intact);

        Files.write(incr, "*3\r\n$4\r\nZADD\r\n$1\r\nk\r\n$1".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        Config strict = config("yes");
        strict.set("aof-load-truncated", "no", true);
        assertThatThrownBy(() -> open(strict)).isInstanceOf(IOException.class)
                .hasMessageContaining(incr.toString()).hasMessageContaining(String.valueOf(intact));
    }

    @Test
    void corruptionBeforeTheTailStopsTheStartNamingFileAndOffset() throws IOException {
        try (EngineTestSupport ordo = open(config("yes"))) {
            for (int i = 0; i < 10; i++) {
                ordo.client().call("ZADD", "k", String.valueOf(i), "m" + i);
            }
        }
        Path incr = dir.resolve("appendonlydir").resolve("appendonly.aof.1.incr.aof");
        try (FileChannel ch = FileChannel.open(incr, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {'?'}), 40);
        }
        assertThatThrownBy(() -> open(config("yes"))).isInstanceOf(IOException.class).hasMessageContaining(incr.getFileName().toString())
                .hasMessageContaining("40");
    }

    @Test
    void aCorruptSnapshotIsRefusedAndNothingIsLoaded() throws IOException {
        try (EngineTestSupport ordo = open(config("no"))) {
            fill(ordo.client(), 100);
            ordo.client().call("SAVE");
        }
        Path rdb = dir.resolve("dump.rdb");
        byte[] bytes = Files.readAllBytes(rdb);
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(rdb, bytes);
        assertThatThrownBy(() -> open(config("no"))).isInstanceOf(IOException.class).hasMessageContaining("dump.rdb");
    }

    @Test
    void debugReloadAndCommandErrors() throws IOException {
        try (EngineTestSupport ordo = open(config("no"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 100);
            Map<String, String> before = KeyspaceDigest.of(ordo.engine);
            assertThat(c.call("DEBUG", "RELOAD")).isEqualTo("OK");
            assertThat(KeyspaceDigest.of(ordo.engine)).isEqualTo(before);
            assertThatThrownBy(() -> c.call("BGSAVE", "NOW")).isInstanceOf(ErrorReply.class).hasMessage("ERR syntax error");
            assertThat(List.of(c.call("BGSAVE"))).containsExactly("Background saving started");
        }
    }

    @Test
    void debugDigest_acrossReloadAndLoadaof_isUnchanged_evenWhenEncodingsChange() throws IOException {
        try (EngineTestSupport ordo = open(config("yes"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 100);
            c.call("PEXPIREAT", "hash", String.valueOf(ordo.time.get() + 100_000));
            String before = (String) c.call("DEBUG", "DIGEST");
            // Loaded with small listpack limits, the small sorted set becomes a skiplist: same digest.
            c.call("CONFIG", "SET", "zset-max-listpack-entries", "1");
            assertThat(c.call("DEBUG", "RELOAD")).isEqualTo("OK");
            assertThat(new String((byte[]) c.call("OBJECT", "ENCODING", "small"))).isEqualTo("skiplist");
            assertThat(c.call("DEBUG", "DIGEST")).isEqualTo(before);
            c.call("CONFIG", "SET", "zset-max-listpack-entries", "128");
            Path incr = dir.resolve("appendonlydir").resolve("appendonly.aof.1.incr.aof");
            assertThat(c.call("DEBUG", "LOADAOF")).isEqualTo("OK");
            assertThat(new String((byte[]) c.call("OBJECT", "ENCODING", "small"))).isEqualTo("listpack");
            assertThat(c.call("DEBUG", "DIGEST")).isEqualTo(before);
            long flushed = Files.size(incr);
            assertThat(flushed).as("LOADAOF flushed the log first").isPositive();
            assertThat(c.call("DEBUG", "LOADAOF")).isEqualTo("OK");
            assertThat(Files.size(incr)).as("replaying logs nothing again").isEqualTo(flushed);
            c.call("ZADD", "small", "3", "c");
            String changed = (String) c.call("DEBUG", "DIGEST");
            assertThat(changed).isNotEqualTo(before);
            assertThat(c.call("DEBUG", "LOADAOF")).isEqualTo("OK");
            assertThat(c.call("DEBUG", "DIGEST")).isEqualTo(changed);
        }
    }

    @Test
    void restoredKeys_replayedFromTheAppendOnlyFile_keepTheirValuesAndAbsoluteExpiries() throws IOException {
        try (EngineTestSupport ordo = open(config("yes"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 20);
            byte[] board = (byte[]) c.call("DUMP", "board");
            byte[] small = (byte[]) c.call("DUMP", "small");
            assertThat(c.call(ascii("RESTORE"), ascii("copy"), ascii("100000"), board)).isEqualTo("OK");
            assertThat(c.call(ascii("RESTORE"), ascii("hash"), ascii("0"), small, ascii("REPLACE"))).isEqualTo("OK");
            long expiry = (Long) c.call("PEXPIRETIME", "copy");
            String before = (String) c.call("DEBUG", "DIGEST");
            ordo.advance(5000);
            assertThat(c.call("DEBUG", "LOADAOF")).isEqualTo("OK");
            assertThat(c.call("PEXPIRETIME", "copy")).as("the relative TTL was logged as absolute").isEqualTo(expiry);
            assertThat(c.call("DEBUG", "DIGEST")).isEqualTo(before);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Test
    void debugLoadaof_appendonlyNo_isRefusedAndKeepsTheData() throws IOException {
        try (EngineTestSupport ordo = open(config("no"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 10);
            String before = (String) c.call("DEBUG", "DIGEST");
            assertThatThrownBy(() -> c.call("DEBUG", "LOADAOF")).isInstanceOf(ErrorReply.class)
                    .hasMessage("ERR Error trying to load the AOF files, check server logs.");
            assertThat(c.call("DEBUG", "DIGEST")).isEqualTo(before);
        }
    }

    @Test
    void debugReloadOptions_noSaveLoadsTheOldFile_noFlushMergeKeepsTheRest_andDuplicatesFailWithoutMerge() throws IOException {
        try (EngineTestSupport ordo = open(config("no"))) {
            EmbeddedClient c = ordo.client();
            c.call("SET", "a", "saved");
            c.call("SAVE");
            c.call("SET", "a", "changed");
            c.call("SET", "b", "unsaved");
            assertThat(c.call("DEBUG", "RELOAD", "nosave")).isEqualTo("OK");
            assertThat(texts(c.call("MGET", "a", "b"))).containsExactly("saved", null);
            c.call("SET", "a", "changed");
            c.call("SET", "b", "unsaved");
            assertThat(c.call("DEBUG", "RELOAD", "NOFLUSH", "MERGE", "NOSAVE")).isEqualTo("OK");
            assertThat(texts(c.call("MGET", "a", "b"))).containsExactly("saved", "unsaved");
            assertThatThrownBy(() -> c.call("DEBUG", "RELOAD", "NOFLUSH", "NOSAVE")).isInstanceOf(ErrorReply.class)
                    .hasMessage("ERR Error trying to load the RDB dump, check server logs.");
            assertThat(c.call("GET", "b")).as("a failed load empties nothing").isEqualTo("unsaved".getBytes(StandardCharsets.UTF_8));
            assertThatThrownBy(() -> c.call("DEBUG", "RELOAD", "BOGUS")).isInstanceOf(ErrorReply.class)
                    .hasMessage("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.");
        }
    }

    /**
     * As redis-server 7.0.15 does it (checked beside it): a failed BGSAVE, while save rules are set
     * and stop-writes-on-bgsave-error is yes, refuses writes and PING with MISCONF until a save
     * succeeds; reads go on; a write in MULTI is refused as it is queued. A failed SAVE answers a
     * bare ERR and stops nothing. Every attempt counts in rdb_saves.
     */
    @Test
    void aFailedBackgroundSaveRefusesWritesUntilASaveSucceeds() throws Exception {
        Config config = config("no");
        config.set("save", "3600 1", true);
        try (EngineTestSupport ordo = open(config)) {
            EmbeddedClient c = ordo.client();
            c.call("SET", "k", "1");
            Path blocker = dir.resolve("dump.rdb");
            Files.createDirectories(blocker.resolve("sub")); // the snapshot cannot be renamed over a non-empty directory
            assertThatThrownBy(() -> c.call("SAVE")).isInstanceOf(ErrorReply.class).hasMessage("ERR");
            assertThat(info(c)).contains("rdb_last_bgsave_status:ok").contains("rdb_saves:1");
            assertThat(c.call("SET", "k", "2")).isEqualTo("OK");
            c.call("BGSAVE");
            awaitIdle(c);
            assertThat(info(c)).contains("rdb_last_bgsave_status:err").contains("rdb_saves:2");
            assertThatThrownBy(() -> c.call("SET", "k", "3")).isInstanceOf(ErrorReply.class).hasMessage(Errors.MISCONF_RDB);
            assertThatThrownBy(() -> c.call("PING")).isInstanceOf(ErrorReply.class).hasMessage(Errors.MISCONF_RDB);
            assertThat(c.call("GET", "k")).isEqualTo("2".getBytes(StandardCharsets.UTF_8));
            c.call("MULTI");
            assertThatThrownBy(() -> c.call("SET", "k", "4")).isInstanceOf(ErrorReply.class).hasMessage(Errors.MISCONF_RDB);
            assertThatThrownBy(() -> c.call("EXEC")).isInstanceOf(ErrorReply.class).hasMessageStartingWith("EXECABORT");
            c.call("CONFIG", "SET", "stop-writes-on-bgsave-error", "no");
            assertThat(c.call("SET", "k", "5")).isEqualTo("OK");
            c.call("CONFIG", "SET", "stop-writes-on-bgsave-error", "yes");
            c.call("CONFIG", "SET", "save", "");
            assertThat(c.call("SET", "k", "6")).as("no save rules, nothing to stop for").isEqualTo("OK");
            c.call("CONFIG", "SET", "save", "3600 1");
            assertThatThrownBy(() -> c.call("SET", "k", "7")).isInstanceOf(ErrorReply.class).hasMessage(Errors.MISCONF_RDB);
            Files.delete(blocker.resolve("sub"));
            Files.delete(blocker);
            assertThat(c.call("SAVE")).isEqualTo("OK");
            assertThat(c.call("SET", "k", "8")).isEqualTo("OK");
            assertThat(info(c)).contains("rdb_last_bgsave_status:ok").contains("rdb_saves:3");
        }
    }

    /** An array reply's bulk strings as text (null stays null). */
    private static List<String> texts(Object reply) {
        return ((List<?>) reply).stream().map(v -> v == null ? null : new String((byte[]) v, StandardCharsets.UTF_8)).toList();
    }

    private static String info(EmbeddedClient c) {
        return new String((byte[]) c.call("INFO", "persistence"), StandardCharsets.UTF_8);
    }

    @Test
    void saveRunsWhileAnAofRewriteDoes() throws Exception {
        try (EngineTestSupport ordo = open(config("yes"))) {
            EmbeddedClient c = ordo.client();
            fill(c, 50);
            c.call("CONFIG", "SET", "rdb-key-save-delay", "20000");
            assertThat(c.call("BGREWRITEAOF")).isEqualTo("Background append only file rewriting started");
            assertThat(c.call("SAVE")).isEqualTo("OK");
            assertThatThrownBy(() -> c.call("BGREWRITEAOF")).isInstanceOf(ErrorReply.class)
                    .hasMessage("ERR Background append only file rewriting already in progress");
            c.call("CONFIG", "SET", "rdb-key-save-delay", "0");
            awaitIdle(c);
        }
    }

    /** As Redis with appendonly no: BGREWRITEAOF writes a base and a manifest naming only it, and logs nothing after. */
    @Test
    void bgrewriteaofWithAppendonlyNo_writesABaseOnly_andLogsNothing() throws Exception {
        try (EngineTestSupport ordo = open(config("no"))) {
            EmbeddedClient c = ordo.client();
            c.call("SET", "a", "1");
            assertThat(c.call("BGREWRITEAOF")).isEqualTo("Background append only file rewriting started");
            awaitIdle(c);
            c.call("SET", "b", "2");
            assertThat(info(c)).contains("aof_enabled:0");
        }
        Path aofDir = dir.resolve("appendonlydir");
        try (var files = Files.list(aofDir)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted())
                    .containsExactly("appendonly.aof.1.base.rdb", "appendonly.aof.manifest");
        }
        assertThat(Files.readString(aofDir.resolve("appendonly.aof.manifest"))).isEqualTo("file appendonly.aof.1.base.rdb seq 1 type b\n");
        try (EngineTestSupport ordo = open(config("yes"))) {
            assertThat(texts(ordo.client().call("MGET", "a", "b"))).as("the base holds what was there at the rewrite")
                    .containsExactly("1", null);
        }
    }

    /** Redis 7's upgrade of a Redis 6 single-file AOF: it becomes the base of the AOF directory, and its data loads. */
    @Test
    void aSingleFileAofFromRedis6IsMovedIntoTheAofDirectoryAndLoaded() throws IOException {
        Files.writeString(dir.resolve("appendonly.aof"), "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$6\r\nlegacy\r\n$3\r\nyes\r\n"
                + "*4\r\n$4\r\nZADD\r\n$2\r\nlz\r\n$1\r\n1\r\n$1\r\na\r\n");
        try (EngineTestSupport ordo = open(config("yes"))) {
            assertThat(ordo.client().call("GET", "legacy")).isEqualTo("yes".getBytes(StandardCharsets.UTF_8));
            assertThat(ordo.client().call("ZSCORE", "lz", "a")).isEqualTo("1".getBytes(StandardCharsets.UTF_8));
            ordo.client().call("SET", "after", "1");
        }
        assertThat(dir.resolve("appendonly.aof")).doesNotExist();
        try (EngineTestSupport ordo = open(config("yes"))) {
            assertThat(texts(ordo.client().call("MGET", "legacy", "after"))).containsExactly("yes", "1");
        }
    }

    /**
     * A small set saved from the skiplist encoding loads as a listpack, which keeps no negative
     * zero: as in Redis, whose listpack stores the integral score as an integer.
     */
    @Test
    void aNegativeZeroScoreLoadsAsZeroInASmallSet() throws IOException {
        try (EngineTestSupport ordo = open(config("no"))) {
            EmbeddedClient c = ordo.client();
            c.call("CONFIG", "SET", "zset-max-listpack-entries", "0");
            c.call("ZADD", "z", "-0", "a");
            assertThat(c.call("ZSCORE", "z", "a")).isEqualTo("-0".getBytes(StandardCharsets.US_ASCII));
            c.call("CONFIG", "SET", "zset-max-listpack-entries", "128");
            assertThat(c.call("DEBUG", "RELOAD")).isEqualTo("OK");
            assertThat(c.call("OBJECT", "ENCODING", "z")).isEqualTo("listpack".getBytes(StandardCharsets.US_ASCII));
            assertThat(c.call("ZSCORE", "z", "a")).isEqualTo("0".getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** Closing the engine during a BGSAVE waits for the abandoned writer, which removes its temp file. */
    @Test
    void closingDuringABackgroundSaveLeavesNoTempFile() throws IOException {
        Config c = config("no");
        c.set("rdb-key-save-delay", "10000", true);
        try (EngineTestSupport ordo = open(c)) {
            fill(ordo.client(), 100);
            assertThat(List.of(ordo.client().call("BGSAVE"))).containsExactly("Background saving started");
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("temp-"));
        }
    }

    @Test
    void saveRulesStartABackgroundSave() throws Exception {
        Config c = config("no");
        c.set("save", "1 2", true);
        try (EngineTestSupport ordo = open(c)) {
            EmbeddedClient client = ordo.client();
            client.call("ZADD", "k", "1", "a");
            client.call("ZADD", "k", "2", "b");
            // rdb_saves counts a save when it starts (as Redis's does): wait for it to end too.
            for (int i = 0; i < 1000 && !(info(client).contains("rdb_saves:1") && info(client).contains("rdb_bgsave_in_progress:0")); i++) {
                Thread.sleep(10);
            }
            assertThat(info(client)).contains("rdb_saves:1", "rdb_changes_since_last_save:0", "rdb_last_bgsave_status:ok");
            assertThat(dir.resolve("dump.rdb")).exists();
        }
    }

    /** INFO persistence has Redis 7.0's fields, in its order, with the append-only file off and on. */
    @Test
    void infoPersistenceFieldsAreRedisOnes() throws Exception {
        for (String appendonly : List.of("no", "yes")) {
            List<String> redisFields;
            try (dev.ordo.engine.differential.RedisServer redis = dev.ordo.engine.differential.RedisServer.start("--appendonly", appendonly);
                    dev.ordo.engine.differential.RespSocket s = new dev.ordo.engine.differential.RespSocket(redis.port())) {
                redisFields = fieldNames(s.call("INFO".getBytes(), "persistence".getBytes()).textString());
            }
            Path sub = Files.createDirectories(dir.resolve(appendonly));
            Config c = config(appendonly);
            c.set("dir", sub.toString(), true);
            try (EngineTestSupport ordo = open(c)) {
                assertThat(fieldNames(info(ordo.client()))).as("appendonly %s", appendonly).isEqualTo(redisFields);
            }
        }
    }

    private static List<String> fieldNames(String info) {
        return info.lines().filter(l -> l.contains(":")).map(l -> l.substring(0, l.indexOf(':'))).toList();
    }

    @Test
    void theAutomaticRuleRewritesAGrowingFile() throws Exception {
        Config c = config("yes");
        c.set("auto-aof-rewrite-min-size", "4096", true);
        c.set("auto-aof-rewrite-percentage", "100", true);
        Map<String, String> before;
        try (EngineTestSupport ordo = open(c)) {
            EmbeddedClient client = ordo.client();
            assertThat(info(client)).contains("aof_rewrites:1");
            for (int i = 0; i < 2000 && !info(client).contains("aof_rewrites:2"); i++) {
                client.call("ZINCRBY", "board", "1", "member-" + (i % 20));
                Thread.sleep(1);
            }
            for (int i = 0; i < 1000 && !(info(client).contains("aof_rewrites:2") && info(client).contains("aof_rewrite_in_progress:0")); i++) {
                Thread.sleep(5);
            }
            assertThat(info(client)).contains("aof_rewrites:2", "aof_last_bgrewrite_status:ok");
            before = KeyspaceDigest.of(ordo.engine);
        }
        try (EngineTestSupport ordo = open(c)) {
            assertThat(KeyspaceDigest.of(ordo.engine)).isEqualTo(before);
        }
    }
}
