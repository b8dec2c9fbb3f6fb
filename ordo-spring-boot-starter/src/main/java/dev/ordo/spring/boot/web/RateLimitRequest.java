package dev.ordo.spring.boot.web;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a rate-limit key expression sees of a request, the same in Spring MVC and WebFlux, so one
 * expression ({@code #request.remoteAddr}, {@code #request.header('X-Api-Key')}) works in both.
 * It reads only what has arrived before the body: parameters are the query string's, never a
 * form body's. Made by the starter; an expression reads it and never changes it.
 */
public final class RateLimitRequest {
    private final String method;
    private final String path;
    private final String remoteAddr;
    private final String principalName;
    private final Function<String, String> headers;
    private final Function<String, String> parameters;
    private final Map<String, String> pathVariables;

    RateLimitRequest(String method, String path, String remoteAddr, String principalName, Function<String, String> headers,
                     Function<String, String> parameters, Map<String, String> pathVariables) {
        this.method = method;
        this.path = path;
        this.remoteAddr = remoteAddr;
        this.principalName = principalName;
        this.headers = Objects.requireNonNull(headers, "headers");
        this.parameters = Objects.requireNonNull(parameters, "parameters");
        this.pathVariables = pathVariables == null ? Map.of() : Map.copyOf(pathVariables);
    }

    /**
     * The HTTP method, such as {@code GET}.
     *
     * @return the method's name
     */
    public String getMethod() {
        return method;
    }

    /**
     * The path within the application (without the context path), not decoded, without the query.
     *
     * @return the path, such as {@code /api/items/7}
     */
    public String getPath() {
        return path;
    }

    /**
     * The client's IP address as the server sees it: the proxy's, unless the application trusts
     * forwarded headers ({@code server.forward-headers-strategy}).
     *
     * @return the address, or null when the server does not know it
     */
    public String getRemoteAddr() {
        return remoteAddr;
    }

    /**
     * The authenticated user's name, when the request carries a principal (Spring Security runs
     * before the rate limiting).
     *
     * @return the name, or null for an anonymous request
     */
    public String getPrincipalName() {
        return principalName;
    }

    /**
     * The first value of a request header.
     *
     * @param name the header's name, in any case
     * @return the value, or null when absent
     */
    public String getHeader(String name) {
        return headers.apply(name);
    }

    /**
     * The first value of a request header; {@code #request.header('X-Api-Key')}.
     *
     * @param name the header's name, in any case
     * @return the value, or null when absent
     */
    public String header(String name) {
        return getHeader(name);
    }

    /**
     * The first value of a query parameter, decoded.
     *
     * @param name the parameter's name
     * @return the value, or null when absent
     */
    public String getParameter(String name) {
        return parameters.apply(name);
    }

    /**
     * The first value of a query parameter, decoded; {@code #request.parameter('tenant')}.
     *
     * @param name the parameter's name
     * @return the value, or null when absent
     */
    public String parameter(String name) {
        return getParameter(name);
    }

    /**
     * The URI template variables of the matched handler method, such as {@code id} for
     * {@code /items/{id}}; empty in URL filters, which run before a handler is chosen.
     *
     * @return the variables by name, decoded
     */
    public Map<String, String> getPathVariables() {
        return pathVariables;
    }
}
