package dev.ordo.spring.boot.web;

import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.test.context.TestPropertySource;

/** The endpoint tests on Spring MVC: the interceptor, and the URL filter as a servlet filter, on Tomcat. */
@TestPropertySource(properties = "spring.main.web-application-type=servlet")
class WebMvcRateLimitTest extends RateLimitedEndpointsTest {
    @Override
    Class<?> contextType() {
        return ServletWebServerApplicationContext.class;
    }
}
