package dev.ordo.spring.boot.test;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/** An application with nothing but auto-configuration. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
class TestApp {
}
