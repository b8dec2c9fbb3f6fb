package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.store.Reply;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/** A small string map as one hash field value: {@code k=v&k=v}, each part URL-encoded. */
final class Metadata {
    /** The longest encoded metadata accepted for one member. */
    static final int MAX_ENCODED_LENGTH = 64 * 1024;

    private Metadata() {
    }

    static String encode(Map<String, String> map) {
        StringJoiner out = new StringJoiner("&");
        map.forEach((k, v) -> out.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        String text = out.toString();
        if (text.length() > MAX_ENCODED_LENGTH) {
            throw new IllegalArgumentException("metadata is " + text.length() + " characters encoded; at most " + MAX_ENCODED_LENGTH + " are allowed");
        }
        return text;
    }

    static Map<String, String> decode(Reply reply) {
        String text = reply.asString();
        if (text == null || text.isEmpty()) {
            return Map.of();
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : text.split("&")) {
            int eq = pair.indexOf('=');
            map.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return map;
    }
}
