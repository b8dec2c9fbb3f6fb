package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.Listpack;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The list's in-memory listpack entries ({@link Listpack}) are byte for byte what the RDB
 * writer's encoder produces (the form Redis writes), their sizes are what
 * {@link Listpack#encodedSize} predicts, the RDB reader's validating {@link PackedList} reads them
 * back, and back-lengths walk them both ways.
 */
class ListpackLayoutAgreementTest {
    @Test
    void encode_sameBytesAsTheRdbEncoder_andPackedListReadsThem() throws Exception {
        List<byte[]> values = new ArrayList<>();
        for (String s : List.of("0", "1", "127", "128", "-1", "-4096", "4095", "4096", "-4097", "32767", "-32768", "32768",
                "8388607", "-8388608", "8388608", "2147483647", "-2147483648", "2147483648", "9223372036854775807",
                "-9223372036854775808", "9223372036854775808", "01", "-0", "+1", "", "a", "1.5", " 1")) {
            values.add(s.getBytes(StandardCharsets.US_ASCII));
        }
        for (int len : new int[] {62, 63, 64, 126, 127, 128, 4094, 4095, 4096, 16_380, 16_383, 20_000}) {
            byte[] v = new byte[len];
            Arrays.fill(v, (byte) 'x');
            values.add(v);
        }
        ListpackEncoder rdb = new ListpackEncoder();
        rdb.reset();
        int size = Listpack.EMPTY;
        for (byte[] v : values) {
            rdb.addString(v);
            size += Listpack.encodedSize(v);
        }
        int rdbSize = rdb.finish();
        byte[] ours = Listpack.empty(size);
        int at = Listpack.HEADER;
        int count = 0;
        for (byte[] v : values) {
            int n = Listpack.encodedSize(v);
            Listpack.open(ours, at, n, ++count);
            assertThat(Listpack.encode(v, ours, at)).isEqualTo(n);
            at += n;
        }
        assertThat(Arrays.copyOf(ours, Listpack.total(ours))).isEqualTo(Arrays.copyOf(rdb.buffer(), rdbSize));
        PackedList read = PackedList.listpack(ours, 0);
        int i = 0;
        for (int p = Listpack.HEADER; read.next(); p = Listpack.next(ours, p), i++) {
            assertThat(read.bytes()).isEqualTo(Listpack.get(ours, p));
            assertThat(Listpack.prev(ours, Listpack.next(ours, p))).isEqualTo(p);
        }
        assertThat(i).isEqualTo(values.size());
    }
}
