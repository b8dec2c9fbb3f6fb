package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.list.ListValue;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every list type an RDB file may hold, built byte by byte: the plain list (1), the ziplist (10),
 * the quicklist of ziplists (14) and the quicklist of listpacks and plain nodes (18), each read
 * to the same elements and given Redis 7.2's encoding for its size.
 */
class ListRdbFormatsTest {
    private static final Object[] ENTRIES = {"a", 0L, 12L, -1L, 127L, -4096L, 32767L, -8388608L, 2147483647L, Long.MIN_VALUE,
        "q".repeat(300), ""};
    private static final List<String> TEXT = Arrays.stream(ENTRIES).map(String::valueOf).toList();

    @Test
    void everyListType_readsToTheSameElements() throws IOException {
        RawRdb plain = new RawRdb(10).b(Rdb.TYPE_LIST).string("plain").length(ENTRIES.length);
        for (Object e : ENTRIES) {
            plain.string(String.valueOf(e));
        }
        byte[] file = plain
                .entry(Rdb.TYPE_LIST_ZIPLIST, "zl", RawRdb.ziplist(ENTRIES))
                .b(Rdb.TYPE_LIST_QUICKLIST).string("ql").length(2)
                .string(RawRdb.ziplist(Arrays.copyOfRange(ENTRIES, 0, 5))).string(RawRdb.ziplist(Arrays.copyOfRange(ENTRIES, 5, 12)))
                .b(Rdb.TYPE_LIST_QUICKLIST_2).string("ql2").length(3)
                .length(Rdb.QUICKLIST_NODE_PACKED).string(RawRdb.listpack(Arrays.copyOfRange(ENTRIES, 0, 5)))
                .length(Rdb.QUICKLIST_NODE_PLAIN).string("p".repeat(10_000))
                .length(Rdb.QUICKLIST_NODE_PACKED).string(RawRdb.listpack(Arrays.copyOfRange(ENTRIES, 5, 12)))
                .finish();
        Map<Key, RdbTestSupport.Stored> db = RdbTestSupport.read(file).dbs.get(0);
        for (String key : List.of("plain", "zl", "ql")) {
            ListValue list = (ListValue) db.get(Key.of(key.getBytes(StandardCharsets.US_ASCII))).value();
            list.checkInvariants();
            assertThat(elements(list)).as(key).isEqualTo(TEXT);
            assertThat(list.encoding()).as(key).isEqualTo(ListValue.Encoding.LISTPACK);
        }
        ListValue withPlain = (ListValue) db.get(Key.of("ql2".getBytes(StandardCharsets.US_ASCII))).value();
        withPlain.checkInvariants();
        List<String> expected = new ArrayList<>(TEXT.subList(0, 5));
        expected.add("p".repeat(10_000));
        expected.addAll(TEXT.subList(5, 12));
        assertThat(elements(withPlain)).isEqualTo(expected);
        assertThat(withPlain.encoding()).isEqualTo(ListValue.Encoding.QUICKLIST);
        assertThat(withPlain.isPlain(1)).isTrue();
    }

    @Test
    void quicklistTwo_singleSmallNode_isAListpack_emptyNodesSkipped_emptyListSkipped() throws IOException {
        byte[] file = new RawRdb(10)
                .b(Rdb.TYPE_LIST_QUICKLIST_2).string("one").length(2)
                .length(Rdb.QUICKLIST_NODE_PACKED).string(RawRdb.listpack())
                .length(Rdb.QUICKLIST_NODE_PACKED).string(RawRdb.listpack("a", 1L))
                .b(Rdb.TYPE_LIST_QUICKLIST_2).string("none").length(1)
                .length(Rdb.QUICKLIST_NODE_PACKED).string(RawRdb.listpack())
                .finish();
        Map<Key, RdbTestSupport.Stored> db = RdbTestSupport.read(file).dbs.get(0);
        ListValue one = (ListValue) db.get(Key.of("one".getBytes(StandardCharsets.US_ASCII))).value();
        assertThat(elements(one)).containsExactly("a", "1");
        assertThat(one.encoding()).isEqualTo(ListValue.Encoding.LISTPACK);
        assertThat(db).doesNotContainKey(Key.of("none".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void quicklistTwo_damagedListpack_isRefused() {
        byte[] lp = RawRdb.listpack("a", "b");
        lp[4] = 3;
        byte[] file = new RawRdb(10).b(Rdb.TYPE_LIST_QUICKLIST_2).string("l").length(1)
                .length(Rdb.QUICKLIST_NODE_PACKED).string(lp).finish();
        assertThatThrownBy(() -> RdbTestSupport.read(file)).isInstanceOf(RdbException.class).hasMessageContaining("entries");
    }

    private static List<String> elements(ListValue list) {
        List<String> out = new ArrayList<>();
        list.forEach((b, off, len) -> out.add(new String(b, off, len, StandardCharsets.ISO_8859_1)));
        return out;
    }
}
