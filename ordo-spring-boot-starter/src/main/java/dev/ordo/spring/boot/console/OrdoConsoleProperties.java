package dev.ordo.spring.boot.console;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The Ordo Console mounted in this application, under {@code ordo.console.*}.
 *
 * @param enabled  Serve the Ordo Console (a web dashboard of the boards, queues, rate limiters and the server) in this servlet application.
 * @param path     Where the console is served; behind the application's Spring Security, as every other path.
 * @param writable Allow the console's write actions (edit a score, remove a member, retry or purge dead letters), each confirmed and logged.
 * @param maxPage  The most rows one console request returns.
 */
@ConfigurationProperties("ordo.console")
public record OrdoConsoleProperties(@DefaultValue("false") boolean enabled, @DefaultValue("/ordo") String path,
                                    @DefaultValue("false") boolean writable, @DefaultValue("500") int maxPage) {
    /**
     * Refuses a path that does not start with {@code /} or ends with one.
     *
     * @param enabled  whether to serve the console
     * @param path     where
     * @param writable whether write actions are allowed
     * @param maxPage  the most rows one request returns
     */
    public OrdoConsoleProperties {
        if (!path.startsWith("/") || path.length() < 2 || path.endsWith("/")) {
            throw new IllegalArgumentException("ordo.console.path must start with '/' and not end with one, such as /ordo; got '" + path + "'");
        }
    }
}
