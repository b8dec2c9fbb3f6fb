package dev.ordo.server.compat;

import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.RespSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command and subcommand Ordo runs is described as redis-server describes it: COMMAND INFO's
 * name, arity, flags, key positions, ACL categories and key specs, read from Ordo's one command
 * description (commands.txt), match Redis's for each command Redis 7.0 has. Not compared: tips
 * (Ordo reports none) and the commands Redis 7.0 lacks or describes differently by design,
 * listed below with the reason.
 */
class CommandTableDifferentialTest {
    /**
     * Newer than Redis 7.0 (CLIENT NO-TOUCH, CLIENT SETINFO), or described as Redis 7.2 does:
     * ZRANK and ZREVRANK take WITHSCORE, so their arity is -3.
     */
    private static final Set<String> NOT_IN_7_0 = Set.of("client|no-touch", "client|setinfo", "zrank", "zrevrank");

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    @Test
    void commandInfo_ofEveryOrdoCommand_matchesRedis() throws Exception {
        try (RespSocket ours = new RespSocket(SERVERS.ordoPort()); RespSocket real = new RespSocket(SERVERS.redis().port())) {
            List<String> names = new ArrayList<>();
            for (Reply name : ours.call(args("COMMAND", "LIST")).children()) {
                names.add(name.textString());
            }
            assertThat(names).hasSizeGreaterThan(150);
            List<String> differences = new ArrayList<>();
            int compared = 0;
            for (String name : names) {
                Reply o = ours.call(args("COMMAND", "INFO", name)).children().get(0);
                Reply r = real.call(args("COMMAND", "INFO", name)).children().get(0);
                if (r.kind() == Reply.Kind.NULL || NOT_IN_7_0.contains(name)) {
                    continue;
                }
                compared += 1 + compare(name, o, r, differences);
            }
            assertThat(differences).as("COMMAND INFO fields that differ from redis-server's").isEmpty();
            assertThat(compared).isGreaterThan(250);
        }
    }

    /** Compares one command's description and its subcommands'; returns how many subcommands it compared. */
    private static int compare(String name, Reply ours, Reply redis, List<String> differences) {
        String[] fields = {"name", "arity", "flags", "first key", "last key", "step", "categories", "tips", "key specs"};
        for (int i = 0; i < fields.length; i++) {
            if (i != 7 && !ours.children().get(i).toString().equals(redis.children().get(i).toString())) {
                differences.add(name + " " + fields[i] + ": Ordo " + ours.children().get(i) + ", Redis " + redis.children().get(i));
            }
        }
        int subs = 0;
        for (Reply sub : ours.children().get(9).children()) {
            String subName = sub.children().get(0).textString();
            Reply theirs = redis.children().get(9).children().stream()
                    .filter(x -> x.children().get(0).textString().equals(subName)).findFirst().orElse(null);
            if (theirs != null && !NOT_IN_7_0.contains(subName)) {
                compare(subName, sub, theirs, differences);
                subs++;
            }
        }
        return subs;
    }

    private static byte[][] args(String... words) {
        byte[][] out = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            out[i] = words[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }
}
