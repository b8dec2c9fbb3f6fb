package example;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** What the enforcer's ban checks in the POM, checked again where it matters: at run time. */
class RedisUserClasspathTest {
    @Test
    void classpath_redisUser_hasNeitherEngineNorLuaj() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("dev.ordo.engine.Engine"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.luaj.vm2.LuaValue"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("dev.ordo.server.Ordo"));
    }
}
