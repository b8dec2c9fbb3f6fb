package dev.ordo.patterns.store;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplyTest {
    @Test
    void from_plainTree_becomesTheSameShapes() {
        Reply r = Reply.from(Arrays.asList(1L, "a", null, List.of(), Arrays.asList(7, List.of("x"))));
        assertThat(r).isEqualTo(Reply.of(Reply.of(1), Reply.of("a"), Reply.Nil.NIL, Reply.of(List.of()),
                Reply.of(Reply.of(7), Reply.of(Reply.of("x")))));
        List<Reply> items = r.asList();
        assertThat(items.get(0).asLong()).isEqualTo(1L);
        assertThat(items.get(1).asString()).isEqualTo("a");
        assertThat(items.get(2).isNil()).isTrue();
        assertThat(items.get(2).asString()).isNull();
        assertThat(items.get(2).asList()).isNull();
        assertThat(items.get(3).asList()).isEmpty();
        assertThat(Reply.of("1.5").asDouble()).isEqualTo(1.5);
        assertThat(Reply.of("-inf").asDouble()).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void accessors_otherShape_failNamingWhatCame() {
        assertThatThrownBy(() -> Reply.of("a").asLong()).isInstanceOf(StoreException.class)
                .hasMessage("expected an integer reply, got Bulk[value=a]");
        assertThatThrownBy(() -> Reply.of(3).asString()).isInstanceOf(StoreException.class)
                .hasMessage("expected a string reply, got Int[value=3]");
        assertThatThrownBy(() -> Reply.Nil.NIL.asLong()).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> Reply.Nil.NIL.asDouble()).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> Reply.of(3).asList()).isInstanceOf(StoreException.class)
                .hasMessage("expected an array reply, got Int[value=3]");
        assertThatThrownBy(() -> Reply.from(1.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void array_isACopy() {
        List<Reply> items = new java.util.ArrayList<>(List.of(Reply.of(1)));
        Reply array = Reply.of(items);
        items.add(Reply.of(2));
        assertThat(array.asList()).containsExactly(Reply.of(1));
        assertThatThrownBy(() -> array.asList().add(Reply.of(3))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new Reply.Bulk(null)).isInstanceOf(NullPointerException.class);
    }
}
