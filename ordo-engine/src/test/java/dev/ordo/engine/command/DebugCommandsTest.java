package dev.ordo.engine.command;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DEBUG's test hooks: DIGEST and DIGEST-VALUE (equal content, equal digest; any change, another
 * digest), PROTOCOL's sample replies, SET-DISABLE-DENY-SCRIPTS, PAUSE-CRON, STRINGMATCH-TEST and
 * QUICKLIST-PACKED-THRESHOLD. Byte comparisons with redis-server are in the server's
 * CornerCasesOverWireTest.
 */
class DebugCommandsTest {
    private static final String ZEROS = "0".repeat(40);

    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();

    @AfterEach
    void close() {
        support.close();
    }

    private String resp(String... args) {
        return RespText.call(support.engine, client, args);
    }

    private String digest() {
        return (String) client.call("DEBUG", "DIGEST");
    }

    private String digestOf(String key) {
        return (String) ((List<?>) client.call("DEBUG", "DIGEST-VALUE", key)).get(0);
    }

    @Test
    void digest_emptyDataset_isFortyZeros() {
        assertThat(digest()).isEqualTo(ZEROS);
        client.call("SET", "k", "v");
        assertThat(digest()).hasSize(40).matches("[0-9a-f]{40}").isNotEqualTo(ZEROS);
        client.call("DEL", "k");
        assertThat(digest()).isEqualTo(ZEROS);
    }

    @Test
    void digestValue_missingKeysAndNoKeys_zerosAndEmptyArray() {
        client.call("SET", "k", "v");
        assertThat((List<?>) client.call("DEBUG", "DIGEST-VALUE", "nokey", "k")).first().isEqualTo(ZEROS);
        assertThat((List<?>) client.call("DEBUG", "DIGEST-VALUE")).isEmpty();
        assertThat(resp("DEBUG", "DIGEST-VALUE", "k")).startsWith("*1\r\n+").hasSize(4 + 1 + 40 + 2);
    }

    @Test
    void digestValue_sameContentInEveryEncoding_isEqual() {
        client.call("ZADD", "zlist", "1", "a", "2.5", "b", "-3", "c");
        client.call("SADD", "sint", "1", "2", "3");
        client.call("SADD", "slist", "x", "y", "z");
        client.call("HSET", "hlist", "f", "v", "g", "w");
        client.call("SET", "sint-str", "12345");
        client.call("CONFIG", "SET", "zset-max-listpack-entries", "0");
        client.call("CONFIG", "SET", "set-max-intset-entries", "0");
        client.call("CONFIG", "SET", "set-max-listpack-entries", "0");
        client.call("CONFIG", "SET", "hash-max-listpack-entries", "0");
        client.call("ZADD", "ztree", "-3", "c", "2.5", "b", "1", "a");
        client.call("SADD", "stable", "3", "2", "1");
        client.call("SADD", "stable2", "z", "y", "x");
        client.call("HSET", "htable", "g", "w", "f", "v");
        client.call("SET", "raw-str", "12345 ");
        client.call("SETRANGE", "raw-str", "0", "12345");
        client.call("SET", "raw-str", "12345", "KEEPTTL");
        assertThat(new String((byte[]) client.call("OBJECT", "ENCODING", "zlist"))).isEqualTo("listpack");
        assertThat(new String((byte[]) client.call("OBJECT", "ENCODING", "ztree"))).isEqualTo("skiplist");
        assertThat(new String((byte[]) client.call("OBJECT", "ENCODING", "sint"))).isEqualTo("intset");
        assertThat(new String((byte[]) client.call("OBJECT", "ENCODING", "stable"))).isEqualTo("hashtable");
        assertThat(new String((byte[]) client.call("OBJECT", "ENCODING", "htable"))).isEqualTo("hashtable");

        assertThat(digestOf("ztree")).isEqualTo(digestOf("zlist"));
        assertThat(digestOf("stable")).isEqualTo(digestOf("sint"));
        assertThat(digestOf("stable2")).isEqualTo(digestOf("slist"));
        assertThat(digestOf("htable")).isEqualTo(digestOf("hlist"));
        assertThat(digestOf("raw-str")).isEqualTo(digestOf("sint-str"));
        assertThat(digestOf("sint")).isNotEqualTo(digestOf("sint-str"));
    }

    @Test
    void digest_anyChangeOfKeyValueExpiryOrDatabase_changesIt_andUndoingRestoresIt() {
        client.call("ZADD", "z", "1", "a", "2", "b");
        client.call("HSET", "h", "f", "v");
        String start = digest();

        client.call("ZADD", "z", "1.5", "a");
        assertThat(digest()).isNotEqualTo(start);
        client.call("ZADD", "z", "1", "a");
        assertThat(digest()).isEqualTo(start);

        client.call("HSET", "h", "f", "w");
        assertThat(digest()).isNotEqualTo(start);
        client.call("HSET", "h", "f", "v");
        assertThat(digest()).isEqualTo(start);

        client.call("RENAME", "z", "z2");
        assertThat(digest()).isNotEqualTo(start);
        client.call("RENAME", "z2", "z");
        assertThat(digest()).isEqualTo(start);

        client.call("PEXPIREAT", "h", String.valueOf(support.time.get() + 100_000));
        String withTtl = digest();
        assertThat(withTtl).isNotEqualTo(start);
        client.call("PEXPIREAT", "h", String.valueOf(support.time.get() + 200_000));
        assertThat(digest()).isNotEqualTo(withTtl).isNotEqualTo(start);
        client.call("PERSIST", "h");
        assertThat(digest()).isEqualTo(start);

        client.call("MOVE", "h", "1");
        assertThat(digest()).isNotEqualTo(start);
    }

    @Test
    void digest_expiredButNotDeletedKey_stillCounts() {
        client.call("DEBUG", "SET-ACTIVE-EXPIRE", "0");
        client.call("SET", "k", "v", "PX", "10");
        String before = digest();
        support.advance(1000);
        assertThat(digest()).isEqualTo(before).isNotEqualTo(ZEROS);
        assertThat(digestOf("k")).isNotEqualTo(ZEROS);
    }

    @Test
    void protocol_resp2AndResp3_sendRedisSampleReplies() {
        assertThat(resp("DEBUG", "PROTOCOL", "attrib")).isEqualTo("$39\r\nSome real reply following the attribute\r\n");
        assertThat(resp("DEBUG", "PROTOCOL", "bignum")).isEqualTo("$37\r\n1234567999999999999999999999999999999\r\n");
        assertThat(resp("DEBUG", "PROTOCOL", "map")).isEqualTo("*6\r\n:0\r\n:0\r\n:1\r\n:1\r\n:2\r\n:0\r\n");
        assertThat(resp("DEBUG", "PROTOCOL", "push")).isEqualTo("-ERR RESP2 is not supported by this command\r\n");
        client.call("HELLO", "3");
        assertThat(resp("DEBUG", "PROTOCOL", "attrib"))
                .isEqualTo("|1\r\n$14\r\nkey-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n$39\r\nSome real reply following the attribute\r\n");
        assertThat(resp("DEBUG", "PROTOCOL", "map")).isEqualTo("%3\r\n:0\r\n#f\r\n:1\r\n#t\r\n:2\r\n#f\r\n");
        assertThat(resp("DEBUG", "PROTOCOL", "null")).isEqualTo("_\r\n");
        assertThat(client.call("DEBUG", "PROTOCOL", "attrib")).isEqualTo("Some real reply following the attribute".getBytes());
        assertThatThrownBy(() -> client.call("DEBUG", "PROTOCOL", "nosuchtype")).hasMessageStartingWith("ERR Wrong protocol type name.");
        assertThatThrownBy(() -> client.call("DEBUG", "PROTOCOL"))
                .hasMessage("ERR unknown subcommand or wrong number of arguments for 'PROTOCOL'. Try DEBUG HELP.");
    }

    @Test
    void setDisableDenyScripts_one_letsScriptsCallNoscriptCommands_butNeverScriptsInScripts() {
        String save = "return redis.call('save')";
        assertThatThrownBy(() -> client.call("EVAL", save, "0")).hasMessageStartingWith("ERR This Redis command is not allowed from script");
        assertThat(client.call("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1")).isEqualTo("OK");
        assertThat(client.call("EVAL", save, "0")).isEqualTo("OK");
        assertThat(client.call("EVAL", "redis.setresp(3); return redis.call('debug', 'protocol', 'attrib')", "0"))
                .isEqualTo("Some real reply following the attribute".getBytes());
        assertThatThrownBy(() -> client.call("EVAL", "return redis.call('eval', 'return 1', '0')", "0"))
                .hasMessageStartingWith("ERR This Redis command is not allowed from script");
        assertThat(client.call("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "0")).isEqualTo("OK");
        assertThatThrownBy(() -> client.call("EVAL", save, "0")).hasMessageStartingWith("ERR This Redis command is not allowed from script");
    }

    @Test
    void pauseCron_one_stopsActiveExpiry_zeroResumesIt() throws InterruptedException {
        assertThat(client.call("DEBUG", "PAUSE-CRON", "1")).isEqualTo("OK");
        client.call("SET", "k", "v", "PX", "10");
        support.advance(1000);
        Thread.sleep(300);
        assertThat(client.call("DBSIZE")).isEqualTo(1L);
        assertThat(client.call("DEBUG", "PAUSE-CRON", "0")).isEqualTo("OK");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((Long) client.call("DBSIZE") != 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(client.call("DBSIZE")).isEqualTo(0L);
    }

    @Test
    void stringmatchTest_randomPatterns_returnsWithRedisStatus() {
        assertThat(DebugCommands.stringmatchTest(new SplittableRandom(7), 200_000)).isPositive();
        assertThat(client.call("DEBUG", "STRINGMATCH-TEST")).isEqualTo("Apparently Redis did not crash: test passed");
        assertThatThrownBy(() -> client.call("DEBUG", "STRINGMATCH-LEN"))
                .hasMessage("ERR unknown subcommand or wrong number of arguments for 'STRINGMATCH-LEN'. Try DEBUG HELP.");
    }

    @Test
    void quicklistPackedThreshold_memoryValuesUpTo4gbLess1mb_acceptedOthersRefused() {
        for (String ok : new String[] {"0", "1", "1k", "1kb", "4095mb"}) {
            assertThat(client.call("DEBUG", "QUICKLIST-PACKED-THRESHOLD", ok)).isEqualTo("OK");
        }
        for (String bad : new String[] {"4gb", "-1", "abc", ""}) {
            assertThatThrownBy(() -> client.call("DEBUG", "QUICKLIST-PACKED-THRESHOLD", bad))
                    .hasMessage("ERR argument must be a memory value bigger than 1 and smaller than 4gb");
        }
    }

    @Test
    void help_listsEverySubcommandOrdoHas() {
        @SuppressWarnings("unchecked")
        List<Object> help = (List<Object>) client.call("DEBUG", "HELP");
        for (String sub : new String[] {"DIGEST", "DIGEST-VALUE <key> [<key> ...]", "LOADAOF", "OBJECT <key>", "PAUSE-CRON <0|1>",
            "PROTOCOL <type>", "QUICKLIST-PACKED-THRESHOLD <size>", "RELOAD [MERGE] [NOFLUSH] [NOSAVE]", "SET-ACTIVE-EXPIRE <0|1>",
            "SET-DISABLE-DENY-SCRIPTS <0|1>", "SLEEP <seconds>", "STRINGMATCH-TEST"}) {
            assertThat(help).contains((Object) sub);
        }
    }
}
