package dev.ordo.engine.config;

import java.util.List;
import java.util.Optional;

/**
 * One configuration directive as Ordo knows it: the name a config file line, a {@code --name}
 * option or CONFIG GET/SET uses, the older names that reach it too, the value it has until
 * changed, one line on what it does, whether CONFIG SET may change it, and, for a directive Ordo
 * accepts for compatibility but does not act on, why not.
 *
 * @param name           the canonical name
 * @param aliases        older names of the same directive (such as {@code zset-max-ziplist-entries})
 * @param defaultValue   the value before any change, as CONFIG GET shows it
 * @param description    what it does, in one line
 * @param mutable        whether CONFIG SET may change it (else only a config file or the command line)
 * @param ignoredBecause why Ordo accepts it but does not act on it; empty when it is in force
 */
public record Directive(String name, List<String> aliases, String defaultValue, String description, boolean mutable,
                        Optional<String> ignoredBecause) {
    /**
     * A directive; the aliases are copied.
     *
     * @param name           the canonical name
     * @param aliases        older names of the same directive
     * @param defaultValue   the value before any change
     * @param description    what it does, in one line
     * @param mutable        whether CONFIG SET may change it
     * @param ignoredBecause why Ordo does not act on it; empty when it is in force
     */
    public Directive {
        aliases = List.copyOf(aliases);
    }
}
