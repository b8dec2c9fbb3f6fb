package dev.ordo.spring.boot.console;

import dev.ordo.console.Console;
import dev.ordo.console.ConsoleHttp;
import dev.ordo.console.ConsoleOptions;
import dev.ordo.console.ConsoleServlet;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.store.Store;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.OrdoProperties;
import dev.ordo.spring.boot.PatternRegistration;
import dev.ordo.spring.boot.OrdoRegistryProperties;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.util.ClassUtils;

import java.util.List;
import java.util.Map;

/**
 * Mounts the Ordo Console at {@code ordo.console.path} ({@code /ordo}) when
 * {@code ordo.console.enabled=true} in a servlet application: a servlet, so the application's own
 * security filters guard it like any other path. Read-only unless {@code ordo.console.writable}.
 * The console finds the declared patterns in the registry the starter writes at startup
 * ({@code ordo.registry.key}).
 *
 * <p>With Spring Security, writes also need its CSRF token: the console's responses hand the
 * request's token to the page in two headers, {@code X-Ordo-Csrf-Header} (the header to send it
 * in) and {@code X-Ordo-Csrf-Token}, which the page sends back with every write.
 */
@AutoConfiguration(after = OrdoPatternsAutoConfiguration.class)
@ConditionalOnClass(ConsoleServlet.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(name = "ordo.console.enabled", havingValue = "true")
@EnableConfigurationProperties({OrdoProperties.class, OrdoConsoleProperties.class, OrdoRegistryProperties.class})
public final class OrdoConsoleAutoConfiguration {
    /** Creates the configuration; Spring calls this. */
    public OrdoConsoleAutoConfiguration() {
    }

    /**
     * The console over the application's store.
     *
     * @param store    the store of the active mode
     * @param properties {@code ordo.*}, whose declared patterns the console shows
     * @param console  {@code ordo.console.*}
     * @param registry {@code ordo.registry.*}
     * @return the console
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnBean(Store.class)
    public Console ordoConsole(Store store, OrdoProperties properties, OrdoConsoleProperties console, OrdoRegistryProperties registry) {
        ConsoleOptions options = ConsoleOptions.readOnly().withWritable(console.writable()).withMaxPage(console.maxPage())
                .withRegistryKey(registry.key());
        // on a Redis Cluster, INFO and SCAN go to each master in turn
        List<Store> nodes = store instanceof LettuceStore lettuce ? lettuce.masters() : List.of(store);
        return new Console(store, nodes, "this application's " + (store.clustered() ? "Redis Cluster" : "store"), options,
                PatternRegistration.infos(properties));
    }

    /**
     * The console's servlet at {@code ordo.console.path}.
     *
     * @param console    the console
     * @param properties {@code ordo.console.*}
     * @return its registration
     */
    @Bean
    @ConditionalOnBean(Console.class)
    public ServletRegistrationBean<ConsoleServlet> ordoConsoleServlet(Console console, OrdoConsoleProperties properties) {
        ServletRegistrationBean<ConsoleServlet> bean = new ServletRegistrationBean<>(
                new ConsoleServlet(new ConsoleHttp(console), OrdoConsoleAutoConfiguration::csrfHeaders),
                properties.path(), properties.path() + "/*");
        bean.setName("ordoConsole");
        bean.setAsyncSupported(true);
        return bean;
    }

    /**
     * With Spring Security on the class path, the request's CSRF token for the page: the header
     * to send it in, and its value. Nothing without Security, or when the request has no token.
     */
    static Map<String, String> csrfHeaders(HttpServletRequest request) {
        return SECURITY ? Csrf.headers(request) : Map.of();
    }

    private static final boolean SECURITY = ClassUtils.isPresent("org.springframework.security.web.csrf.CsrfToken",
            OrdoConsoleAutoConfiguration.class.getClassLoader());

    /** Loaded only when Spring Security is present. */
    private static final class Csrf {
        static Map<String, String> headers(HttpServletRequest request) {
            if (request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token) {
                return Map.of("X-Ordo-Csrf-Header", token.getHeaderName(), "X-Ordo-Csrf-Token", token.getToken());
            }
            return Map.of();
        }
    }
}
