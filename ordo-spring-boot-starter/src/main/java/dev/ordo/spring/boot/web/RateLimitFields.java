package dev.ordo.spring.boot.web;

import dev.ordo.patterns.ratelimit.Decision;
import dev.ordo.patterns.ratelimit.Limit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The response header fields of one limiter, as draft-ietf-httpapi-ratelimit-headers (-09 and
 * later) defines them: RFC 9651 structured-field Lists.
 *
 * <pre>
 * RateLimit-Policy: "api-1s";q=10;w=1, "api-1h";q=1000;w=3600    one member per Limit
 * RateLimit: "api-1s";r=0;t=3                                     t only on a refusal
 * Retry-After: 3                                                  only on a refusal
 * </pre>
 *
 * <p>A policy is named {@code <limiter>-<window>} ({@code 1s}, {@code 10m}, {@code 500ms}), which
 * a client reading both fields can match with the configuration ({@code ordo.rate-limits.api.limits=10/1s});
 * a window written twice in one limiter names the later limit {@code <limiter>-<index>} instead.
 * {@code w} is whole seconds, so a window that is not (500ms) has no {@code w}. RateLimit names
 * the policy the decision says decided (the limit with the fewest permits left, or the one a
 * refusal waits for); a limiter that does not say gets the policy with the fewest permits. {@code t} and Retry-After are the retry-after rounded up to
 * whole seconds, at least 1. Never a {@code pk}: keys are user data. Integers stay within the 15
 * digits the format allows ({@link Limit#MAX_PERMITS} has 13).
 */
final class RateLimitFields {
    /** The header field of the policies. */
    static final String POLICY = "RateLimit-Policy";
    /** The header field of the current state. */
    static final String RATE_LIMIT = "RateLimit";
    /** The header field of the wait before retrying, in seconds. */
    static final String RETRY_AFTER = "Retry-After";

    private final String policy;
    /** Each limit's quoted policy name, in the limiter's order. */
    private final List<String> names;
    /** The policy with the fewest permits, for decisions that do not name their limit. */
    private final String tightest;

    private RateLimitFields(String policy, List<String> names, String tightest) {
        this.policy = policy;
        this.names = names;
        this.tightest = tightest;
    }

    /** The fields of limiter {@code name}, which enforces {@code limits}. */
    static RateLimitFields of(String name, List<Limit> limits) {
        List<String> members = new ArrayList<>();
        List<String> quotedNames = new ArrayList<>();
        Set<String> names = new HashSet<>();
        String tightest = null;
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < limits.size(); i++) {
            Limit limit = limits.get(i);
            String policyName = name + "-" + window(limit.window());
            if (!names.add(policyName)) {
                policyName = name + "-" + i;
                names.add(policyName);
            }
            String quoted = string(policyName);
            quotedNames.add(quoted);
            long seconds = limit.window().getSeconds();
            boolean wholeSeconds = limit.window().getNano() == 0;
            members.add(quoted + ";q=" + limit.permits() + (wholeSeconds ? ";w=" + seconds : ""));
            if (limit.permits() < fewest) {
                fewest = limit.permits();
                tightest = quoted;
            }
        }
        return new RateLimitFields(String.join(", ", members), List.copyOf(quotedNames), tightest);
    }

    /** The RateLimit-Policy value. */
    String policy() {
        return policy;
    }

    /** The RateLimit value after {@code decision}. */
    String rateLimit(Decision decision) {
        String name = decision.limit() >= 0 && decision.limit() < names.size() ? names.get(decision.limit()) : tightest;
        String value = name + ";r=" + Math.max(0, decision.remaining());
        return decision.allowed() ? value : value + ";t=" + retryAfterSeconds(decision);
    }

    /** The Retry-After value of a refusal: whole seconds, rounded up, at least 1. */
    static long retryAfterSeconds(Decision decision) {
        Duration wait = decision.retryAfter();
        long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }

    /** A window as short text, in its largest whole unit: 1s, 10m, 2h, 1d, 500ms. */
    static String window(Duration window) {
        long millis = window.toMillis();
        if (window.getNano() % 1_000_000 != 0) {
            return window.toNanos() / 1000 + "us";
        }
        if (millis % 86_400_000 == 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }

    /** {@code text} as an sf-string: quoted, backslash-escaped, other than printable ASCII replaced by '_'. */
    static String string(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else {
                out.append(c >= 0x20 && c <= 0x7e ? c : '_');
            }
        }
        return out.append('"').toString();
    }
}
