package dev.ordo.engine.differential;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.fail;

/**
 * A corpus of scripts and transactions sent to Ordo's engine and to a real {@code redis-server},
 * in RESP2 and RESP3; every reply must match (doubles by value, maps and sets in any order). Each
 * case starts from empty databases. The corpus covers every conversion rule both ways, the
 * {@code redis} library, the error paths and their texts, the sandbox, the seeds' scripts, and
 * MULTI/EXEC/WATCH.
 */
class ScriptDifferentialTest {
    private static RedisServer redis;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServer.start();
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (redis != null) {
            redis.close();
        }
    }

    /** One case: a name and the commands to send in order. */
    record Case(String name, List<String[]> commands) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case c(String name, String[]... commands) {
        return new Case(name, List.of(commands));
    }

    /** EVAL of {@code script} with numkeys, keys and args as given, or with numkeys 0 when none are. */
    private static String[] eval(String script, String... numKeysKeysArgs) {
        return cmd("EVAL", script, numKeysKeysArgs.length == 0 ? new String[] {"0"} : numKeysKeysArgs);
    }

    private static String[] cmd(String name, String first, String... rest) {
        String[] out = new String[rest.length + 2];
        out[0] = name;
        out[1] = first;
        System.arraycopy(rest, 0, out, 2, rest.length);
        return out;
    }

    private static String[] r(String... args) {
        return args;
    }

    /** Not a command: the case waits 5 ms here (so that keys set to expire in 1 ms have expired). */
    private static final String[] PAUSE = {"(pause)"};

    /** {@code local a0, a1, ...}: n local variables. */
    private static String locals(int n) {
        return "local " + targets(n);
    }

    /** {@code a0, a1, ...}: n names. */
    private static String targets(int n) {
        return String.join(", ", java.util.stream.IntStream.range(0, n).mapToObj(i -> "a" + i).toList());
    }

    static final String SLIDING_WINDOW = """
            local key    = KEYS[1]
            local now    = tonumber(ARGV[1])
            local window = tonumber(ARGV[2])
            local limit  = tonumber(ARGV[3])
            redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
            if redis.call('ZCARD', key) < limit then
                redis.call('ZADD', key, now, ARGV[4])
                redis.call('PEXPIRE', key, window)
                return 1
            end
            return 0
            """;
    static final String POP_DUE = """
            local jobs = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
            if #jobs == 0 then return false end
            redis.call('ZREM', KEYS[1], jobs[1])
            return jobs[1]
            """;
    static final String POP_ALL_DUE = """
            local tasks = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
            if #tasks > 0 then
                redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
            end
            return tasks
            """;
    static final String ADD_IF_NOT_LOWER = """
            local current = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if current ~= false and current > tonumber(ARGV[2]) then
                return 0
            end
            return redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
            """;
    static final String ADD_IF_NOT_LOWER_FIXED = """
            local current = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if current ~= false and tonumber(current) > tonumber(ARGV[2]) then
                return 0
            end
            return redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
            """;
    static final String PACKED_DIMENSION_CAS = """
            local score = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
            local high = math.floor(score / 2^20)
            local low = score % 2^20
            if low ~= tonumber(ARGV[2]) then return {err = 'CONFLICT low part changed'} end
            local updated = high * 2^20 + tonumber(ARGV[3])
            redis.call('ZADD', KEYS[1], updated, ARGV[1])
            return redis.call('ZSCORE', KEYS[1], ARGV[1])
            """;

    static Stream<Arguments> cases() {
        List<Case> cases = new ArrayList<>();
        // Found by probing beside redis-server
        cases.add(c("numbers past a long reply as C's cast gives them: -2^63",
                eval("return 1e20"), eval("return 2^63"), eval("return -2^63"), eval("return math.huge"),
                eval("return -math.huge"), eval("return 0/0"), eval("return -1e20"), eval("return 2^63 - 1024")));
        cases.add(c("error_reply and status_reply given a bad argument return an error table",
                eval("local t = redis.error_reply(); return type(t)"), eval("return redis.error_reply()"),
                eval("return redis.status_reply(1)"), eval("return redis.error_reply('a', 'b')"),
                eval("return redis.status_reply({})")));
        cases.add(c("error_reply takes its first word as the code when a space follows, else ERR; CR and LF trimmed",
                eval("return redis.error_reply('')"), eval("return redis.error_reply('-')"), eval("return redis.error_reply('FOO')"),
                eval("return redis.error_reply('-FOO')"), eval("return redis.error_reply('x\\r\\n')"),
                eval("return redis.error_reply('a\\nb')"), eval("return redis.error_reply('-MY err')"),
                eval("return redis.error_reply('\\r\\nlead ing')"), eval("return redis.error_reply('-ERR x')"),
                eval("local e = redis.error_reply('abc') return e.err"), eval("return redis.pcall('NOSUCH').err")));
        cases.add(c("gmatch moves past an empty match, may match empty at the end, and takes a leading ^ as itself",
                eval("local t = {} for w in string.gmatch('a,b,,c', '([^,]*)') do t[#t + 1] = '[' .. w .. ']' end return table.concat(t)"),
                eval("local t = {} for w in string.gmatch('abc', 'x*') do t[#t + 1] = '[' .. w .. ']' end return table.concat(t)"),
                eval("local t = {} for a, b in string.gmatch('k1=v1, k2=v2', '(%w+)=(%w+)') do t[#t + 1] = a .. ':' .. b end return t"),
                eval("local t = {} for p in string.gmatch('hello', '()l') do t[#t + 1] = p end return t"),
                eval("local t = {} for w in string.gmatch('^a^b', '^%a') do t[#t + 1] = w end return t"),
                eval("local t = {} for w in string.gfind('one two', '%a+') do t[#t + 1] = w end return t"),
                eval("local t = {} for w in ('x'):gmatch('') do t[#t + 1] = '<' .. w .. '>' end return t"),
                eval("return string.gmatch()"), eval("return string.gmatch('a', {})")));
        cases.add(c("string.format's 0 flag pads hex and octal with zeros, not for an integer with a precision or for inf",
                eval("return {string.format('%02x|%08X|%#05x|%05.3d|%05f|%05.1f|%-5x|%05o|%05x', 10, 255, 10, 7, 1/0, 2.25, 10, 8, -1)}"),
                eval("return string.format('%+05d|% 05d|%06g|%05s', 3, 3, -1/0, 'ab')")));
        cases.add(c("pcall catches an error reply table as its text, other tables as they are",
                eval("local ok, e = pcall(function() error(redis.error_reply('MY x')) end) return {tostring(ok), type(e), e}"),
                eval("local ok, e = pcall(function() error({err = 'raw'}) end) return {type(e), e}"),
                eval("local ok, e = pcall(function() error({other = 1}) end) return {type(e), e.other}"),
                eval("local ok, e = pcall(error, 'plain') return {tostring(ok), e}"),
                eval("return {pcall(function(a) return a + 1 end, 41)}"),
                eval("local ok, e = pcall(redis.call, 'NOSUCH') return {tostring(ok), type(e), e}")));
        cases.add(c("upper and lower change only ASCII letters, byte by byte",
                eval("return string.upper(ARGV[1]) .. string.lower(ARGV[1])", "0", "caf\u00e9 \u00c0BC"),
                eval("return {string.byte(string.upper('\\233xyz'), 1, -1)}"), eval("return string.upper()"), eval("return ('aB'):lower()")));
        cases.add(c("pairs and next see what read-only library tables hold",
                eval("local n = 0 for k in pairs(string) do n = n + 1 end return n"),
                eval("local n = 0 for k in pairs(math) do n = n + 1 end return n"),
                eval("local n = 0 for k in pairs(table) do n = n + 1 end return n"),
                eval("local keys = {} for k in pairs(bit) do keys[#keys + 1] = k end table.sort(keys) return keys"),
                eval("return next(string) ~= nil"), eval("return type(next(_G))")));
        cases.add(c("a shebang needs a line of its own",
                cmd("EVAL", "#!lua flags=no-writes", "0"), cmd("EVAL", "#!lua", "0"), cmd("EVAL", "#!", "0")));
        cases.add(c("function and engine names ignore case; metadata is checked as Redis does",
                cmd("FUNCTION", "FLUSH"),
                cmd("FUNCTION", "LOAD", "#!LUA NAME=cs\nredis.register_function('Fx', function() return 1 end)"),
                cmd("FCALL", "fx", "0"), cmd("FCALL", "FX", "0"), cmd("FCALL", "fx", "x"), cmd("FCALL", "nosuch", "x"),
                cmd("FUNCTION", "LOAD", "#!lua name=other\nredis.register_function('FX', function() return 2 end)"),
                cmd("FUNCTION", "LOAD", "#!lua name=a name=b\nredis.register_function('f2', function() return 2 end)"),
                cmd("FUNCTION", "LOAD", "#!lua name=nl"),
                cmd("FUNCTION", "LOAD", "#!lua name=bad\nredis.register_function('g', 5)"),
                cmd("FUNCTION", "LOAD", "#!lua name=bad\nredis.register_function(5, 5)"),
                cmd("FUNCTION", "LOAD", "#!lua name=flagged\nredis.register_function{function_name='fl', "
                        + "callback=function() return 3 end, flags={'allow-cross-slot-keys', 'no-cluster', 'no-writes'}}"),
                cmd("FUNCTION", "LIST", "LIBRARYNAME", "FLAG*"), cmd("FUNCTION", "LIST", "LIBRARYNAME"),
                cmd("FUNCTION", "FLUSH")));
        // Lua to reply conversions
        cases.add(c("error levels, and what pcall and xpcall catch, as Lua 5.1",
                eval("error(true)"),
                eval("error('x', 0)"),
                eval("error('x', 1)"),
                eval("error('x', 2)"),
                eval("error()"),
                eval("error(nil)"),
                eval("error(42)"),
                eval("local function f() error('deep', 2) end f()"),
                eval("return {pcall(error, 'x', 2)}"),
                eval("return {pcall(error, 'x')}"),
                eval("return {xpcall(function() local x; return x.y end, function(m) return 'H:' .. m end)}"),
                eval("return {pcall(function() error('lvl0', 0) end)}"),
                eval("return {pcall(function() error('lvl1') end)}"),
                eval("return {pcall(function() return nil + 1 end)}"),
                eval("return {pcall(function() local x = nil; return x.y end)}"),
                eval("return {pcall(nil)}"),
                eval("return {pcall(function() local t = setmetatable({}, {__index=function(t,k) error('idx '..k) end}) return t.foo end)}"),
                eval("return {pcall(redis.call, 'nosuch')}"),
                eval("return {pcall(function() return redis.call('nosuch') end)}"),
                eval("return {xpcall(function() error('a') end, function(m) error('h') end)}"),
                eval("return {xpcall(function() error('a') end, function(m) return m, 2 end)}"),
                eval("return {xpcall(function() return 1, 2 end, function(m) return m end)}"),
                eval("return {pcall(function() local function f() error('deep', 2) end f() end)}"),
                eval("return {pcall(function() local function f() error('deep', 3) end f() end)}"),
                eval("return {pcall(error, 42)}"),
                eval("return {pcall(error, {1})}"),
                eval("return {pcall(error)}"),
                eval("return {pcall(function() error(nil) end)}"),
                eval("local t = {pcall(function() error(setmetatable({}, {__tostring=function() return 'TS' end})) end)} return tostring(t[2])"),
                eval("return select('#', xpcall(function() error('a') end, function(m) return 1, 2 end))"),
                eval("return {pcall(function() error('ERR custom') end)}"),
                eval("error('ERR custom')"),
                eval("return {pcall(function() redis.call('set') end)}"),
                eval("return {pcall(function() local t = {} t.x.y = 1 end)}"),
                eval("local ok, e = pcall(function() return #nil end) return e"),
                eval("local ok, e = pcall(function() return {} .. 'x' end) return e"),
                eval("local ok, e = pcall(function() return {} < {} end) return e"),
                eval("local ok, e = pcall(function() local a = 'x' + 1 end) return e"),
                eval("return {pcall(coroutine.wrap(function() error('in co') end))}"),
                eval("error('ERR x', 0)"),
                eval("error('WRONGTYPE x', 0)"),
                eval("error('user_script:1: ERR y', 0)"),
                eval("error('MYCODE x')"),
                eval("error('x y', 0)")));
        cases.add(c("unpack as Lua 5.1: raw reads, C int bounds, at most 8000 results less the arguments",
                eval("local t = {} for i=1,7999 do t[i]=i end return #{unpack(t)}"),
                eval("local t = {} for i=1,8000 do t[i]=i end return #{unpack(t)}"),
                eval("local t = {} for i=1,7998 do t[i]=i end return #{unpack(t, 1)}"),
                eval("local t = {} for i=1,7999 do t[i]=i end return #{unpack(t, 1)}"),
                eval("return #{unpack({}, 1, 7997)}"),
                eval("return #{unpack({}, 1, 7998)}"),
                eval("return select('#', unpack({}, -5, -3))"),
                eval("return #{unpack({1,2}, 2, 1)}"),
                eval("return {unpack({1,2,3}, '2')}"),
                eval("return {unpack({1,2,3}, 1.9, 2.9)}"),
                eval("return unpack()"),
                eval("return {unpack({1,2,3}, nil, 2)}"),
                eval("return #{unpack({}, 2^31 - 2, 2^31 - 1)}"),
                eval("return #{unpack({}, -2^31, 2^31 - 1)}"),
                eval("return {unpack({1,2,3}, {})}"),
                eval("return {unpack(setmetatable({}, {__index=function(t, k) return k * 10 end}), 1, 3)}"),
                eval("return {unpack({1, nil, 3})}")));
        cases.add(c("a nil or NaN key is 'table index is nil/NaN' as in Lua 5.1",
                eval("local t = {} t[nil] = 1"),
                eval("local t = {} t[0/0] = 1"),
                eval("return {pcall(function() local t = {} t[nil] = 1 end)}"),
                eval("local t = {[nil] = 1}"),
                eval("local k; local t = {} t[k] = 2"),
                eval("local n = 0/0; local t = {[n] = 1}"),
                eval("local t = setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, v) end}) t[nil] = 1"),
                eval("local t = {} rawset(t, 1, nil) return #t"),
                eval("local t = {} rawset(t, 'a', 1) return t.a")));
        cases.add(c("bad arguments worded as Lua 5.1: number, the name the call gives, a method's object not counted",
                eval("return string.sub()"),
                eval("return ('x'):sub({})"),
                eval("return math.floor('a')"),
                eval("return string.len()"),
                eval("return string.lower({})"),
                eval("return string.format('%d', 'x')"),
                eval("return string.find(nil, 'a')"),
                eval("return table.insert(nil, 1)"),
                eval("return table.concat({{}})"),
                eval("return table.remove('x')"),
                eval("return math.max()"),
                eval("return math.max(1, 'a')"),
                eval("return ipairs(nil)"),
                eval("return pairs(nil)"),
                eval("return setmetatable(1, {})"),
                eval("return select(0)"),
                eval("return select('x')"),
                eval("return string.byte('a', {})"),
                eval("return string.char(256)"),
                eval("return string.char('x')"),
                eval("return tostring()"),
                eval("return math.random(0)"),
                eval("return table.sort({3, 1}, 5)"),
                eval("return string.rep()"),
                eval("local t = {} return t:nope()"),
                eval("return ('abc'):find({})"),
                eval("return table.concat({'a', 1, true})"),
                eval("return table.concat({'a'}, {})"),
                eval("return ('x'):rep()"),
                eval("return string.upper()"),
                eval("local s = 'x' return s.sub()"),
                eval("local f = string.sub return f()"),
                eval("return {pcall(string.sub)}"),
                eval("return math.min('a', 1)"),
                eval("return (nil)()"),
                eval("return string.format('%s %d', 'a', {})"),
                eval("return tonumber('10', 99)"),
                eval("return ('x'):byte({})"),
                eval("return cjson.encode(function() end)"),
                eval("local ok, e = pcall(string.rep) return e")));
        cases.add(c("table.insert as Lua 5.1: two or three arguments, raw shifts",
                eval("local t = {1,2} table.insert(t, 1, 0) return t"),
                eval("local t = {1,2} table.insert(t, 'x') return t"),
                eval("local t = {} table.insert(t) return #t"),
                eval("local t = {1} table.insert(t, 'a', 2) return t"),
                eval("table.insert(nil, 1)"),
                eval("local t = {1,2} table.insert(t, 2.7, 9) return t"),
                eval("return table.insert({}, 1, 2, 3)"),
                eval("local t = {} for i = 1, 5 do table.insert(t, i * 10) end table.insert(t, 3, 'm') return t"),
                eval("local t = {'a'} table.insert(t, 1, 'b') table.insert(t, 'c') return t"),
                eval("local t = {1,2} t:insert(3) return t")));
        cases.add(c("an error the 5.1 VM raises inside a C function has no position (next's bad key)",
                eval("return next({}, 'nokey')"),
                eval("local t = setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, v) end}) t[nil] = 1"),
                eval("return {pcall(next, {}, 'nokey')}"),
                eval("local ok, e = pcall(function() return next({}, 'nokey') end) return e"),
                eval("local t = {} t[nil] = 1")));
        cases.add(c("string.rep counts as a C int and refuses non-strings as Lua 5.1", eval("return ('x'):rep(-1)"),
                eval("return #string.rep('ab', 2^31)"), eval("return string.rep('ab', '2')"), eval("return string.rep(5, 2)"),
                eval("return string.rep(nil, 2)"), eval("return string.rep('a')"), eval("return string.rep(2.5, 2)"),
                eval("return string.rep({}, 2)"), eval("return string.rep('ab', 2.9)"), eval("return string.rep('ab', -2.9)"),
                eval("return #string.rep('', 1e10)"), eval("return #string.rep('abc', 1000)")));
        cases.add(c("runtime errors", eval("return 1 + {}"), eval("return {} < 1"), eval("return 'a' < 1"), eval("return 1 < 'a'"),
                eval("local x = 'a' return x > 2")));
        // runtime errors name the culprit as Lua 5.1 does: local, global, field, upvalue, method, or no name
        cases.add(c("runtime error names: index",
                eval("local t = nil return t.x"), eval("local t = {} return t.b.c"), eval("local t = {a = {}} return t.a.b.c"),
                eval("local u local function f() return u.x end return f()"), eval("local u = {} local function f() return u.x.y end return f()"),
                eval("return KEYS.x.y"), eval("return KEYS[1].x"), eval("local t = {} local k = 'a' return t[k].z"),
                eval("local t = {} local k = {} return t[k].z"), eval("local n = 5 return n.x"), eval("local s = 'x' return s.y.z"),
                eval("return redis.call.x"), eval("return ({}).a.b"), eval("local t = setmetatable({}, {__index = 5}) return t.x"),
                eval("local t = {} t.x.y = 1"), eval("local b = true b.x = 1"), eval("local u = 5 local function f() u.x = 1 end f()"),
                eval("local s = 'x' s.y = 1"), eval("local o return o:m()")));
        cases.add(c("runtime error names: call",
                eval("return redis.foo()"), eval("return string.nosuch()"), eval("local o = {} return o:x()"), eval("return ('x'):nosuch()"),
                eval("local f = 5 return f()"), eval("local f = 5 f()"), eval("local f local r = f() return r"), eval("return ARGV()"),
                eval("return redis()"), eval("local t = {f = 5} return t.f(1, 2)"), eval("local t = {} return t[1]()"),
                eval("local u = 5 local function f() return u() end return f()"), eval("return (nil)()"),
                eval("local function f() end return f()()"), eval("local t = setmetatable({}, {__call = 5}) return t()"),
                eval("for k in 5 do end"), eval("local t = {} for k, v in t do end")));
        cases.add(c("runtime error names: arithmetic, concatenation, length",
                eval("local x return x + 1"), eval("local x return 1 + x"), eval("local x, y return x + y"), eval("local x = {} return 2 * x"),
                eval("local x = '5' local y = {} return x - y"), eval("local x = 'a5' return x % 2"), eval("return string + 1"),
                eval("return 1 + 'a'"), eval("return 2 ^ {}"), eval("return -{}"), eval("local t = {} return -t"), eval("local t = {} return t.a / 2"),
                eval("local x = {} return 'a' .. x"), eval("local x = {} return x .. 'a'"), eval("local a, b = {}, {} return a .. b"),
                eval("local a = 'x' return a .. {} .. 'y'"), eval("local a = 'x' return a .. 1 .. nil"), eval("local t = {a = 'x'} return t.a .. t.b"),
                eval("return KEYS .. 'x'"), eval("local x = 5 return #x"), eval("local t = {} return #t.a"), eval("return #nil"),
                eval("return #redis.call")));
        cases.add(c("runtime error names: registers, control flow and nested functions",
                eval("local t = {} local x = t.a local y = x return y.b"), eval("local a = {} local b = a local c = b return c.x.y"),
                eval("local t = {} return (t.a or 5)()"), eval("local t = {} local x = t.a or 5 return x()"), eval("local a, b = {}, nil return (a and b).x"),
                eval("local t = {} for i = 1, 3 do t = t[i] end"), eval("local t = {} for i = 1, 3 do local v = t[i] v.x = 1 end"),
                eval("for k, v in pairs({a = 1}) do return v.x end"), eval("local i = 0 repeat local x = i i = i + 1 until x.y"),
                eval("local t = {} local a if t.x then a = 1 else a = t.y end return a.z"), eval("local x = 1 if x > 0 then x = nil end return x.y"),
                eval("local function outer() local u return function() return function() return u.x end end end return outer()()()"),
                eval("local f = function(...) local a, b = ... return b.x end return f(1)"), eval("local t = {} function t:m() return self.x.y end return t:m()"),
                eval("local function f() return nil, nil end local a, b = f() return b.x"), eval("return (function() return nil end)().y"),
                eval("local t = setmetatable({}, {__index = function(t, k) local z return z[k] end}) return t.x"),
                eval("local t = setmetatable({}, {__add = function(a, b) return a.q.r end}) return t + 1"),
                eval("local t = {}\n\nlocal x = t.a\nreturn x.b"), eval("local x = {} local function f() return x end return x + 1"),
                eval("local a, b = '7', {} local function f() return a, b end return a / b"), eval("local x = 5 local function f() return x end return x.y"),
                eval("for i = 1, 2 do local v local function f() return v end v.x = 1 end"),
                r("FUNCTION", "LOAD", "REPLACE", "#!lua name=errs\nredis.register_function('idx', function(keys, args) local t return t.x end)\n"
                        + "redis.register_function('call', function(keys, args) return redis.nosuch(args[1]) end)\n"
                        + "redis.register_function('arith', function(keys, args) return args[1] + args.n end)"),
                r("FCALL", "idx", "0"), r("FCALL", "call", "0", "a"), r("FCALL", "arith", "0", "1"), r("FUNCTION", "FLUSH"),
                r("FUNCTION", "LOAD", "#!lua name=loadfails\nlocal t\nt.x = 1")));
        cases.add(c("runtime errors raised inside library functions, and comparisons",
                eval("local t = {1, 'a', 2} table.sort(t) return t"), eval("local t = {{}, {}} table.sort(t) return 1"),
                eval("return tostring(setmetatable({}, {__tostring = 5}))"), eval("local a, b = {}, {} return a < b"), eval("return nil <= nil"),
                eval("return {} <= 1"), eval("error('attempt to call a nil value')")));
        cases.add(c("tonumber reads numbers as C strtod does",
                eval("local out = {} for _, v in ipairs({'inf', '-inf', 'infinity', 'INF', ' 12 ', '0x1A', ' 0x10 ', '1e400', '1.5e3', '', 'abc', '0x', '1e', '5 x', '-'}) do out[#out + 1] = tostring(tonumber(v)) end return out"),
                eval("return {tostring(tonumber('10', 16)), tostring(tonumber('z', 36)), tostring(tonumber(' 11 ', 2)), tostring(tonumber(7)), tostring(tonumber('8', 10))}"),
                eval("return tostring(tonumber(nil))"), eval("return tostring(tonumber())"), eval("return tostring(tonumber({}))")));
        cases.add(c("integers truncate", eval("return 3.99"), eval("return -3.99"), eval("return 2^53"), eval("return 0/0 == 0/0")));
        cases.add(c("strings and booleans", eval("return 'hello'"), eval("return true"), eval("return false"), eval("return nil"), eval("return ''")));
        cases.add(c("arrays stop at nil", eval("return {1, 2, 3.5, 'x', nil, 5}"), eval("return {}"), eval("return {{1, {2, {'deep'}}}, {}}")));
        cases.add(c("status and error tables", eval("return {ok='FINE'}"), eval("return {err='My error'}"), eval("return {err='-X prefixed'}"),
                eval("return redis.status_reply('DONE')"), eval("return redis.error_reply('CODE text')"), eval("return {1, {err='inner'}, 3}"),
                eval("return {err='line\\nbreak'}"), eval("return {ok=5}")));
        cases.add(c("resp3 types", eval("redis.setresp(3) return redis.call('ZSCORE', KEYS[1], 'a')", "z"),
                r("ZADD", "z", "1.5", "a", "2", "b"), eval("redis.setresp(3) return redis.call('ZSCORE', KEYS[1], 'a')", "1", "z"),
                eval("redis.setresp(3) local r = redis.call('ZSCORE', KEYS[1], 'a') return type(r) .. ':' .. tostring(r.double)", "1", "z"),
                eval("return {double=3.25}"), eval("redis.setresp(3) return {map={a=1}}"), eval("return {set={x=true}}"),
                eval("redis.setresp(3) return redis.call('HGETALL', 'nohash')"), r("HSET", "h", "f", "v"),
                eval("redis.setresp(3) return redis.call('HGETALL', 'h')"), eval("redis.setresp(3) return redis.call('GET', 'nokey') == nil"),
                eval("return redis.call('GET', 'nokey') == false"), eval("redis.setresp(3) return true"), eval("redis.setresp(3) return false"),
                eval("return redis.setresp(4)"), r("SADD", "s", "m"), eval("redis.setresp(3) local r = redis.call('SMEMBERS', 's') return r.set.m", "0"),
                eval("redis.setresp(3) return redis.call('EXISTS', 'h', 'nokey')")));
        // reply to Lua conversions
        cases.add(c("reply conversions", r("ZADD", "z", "1", "a", "2", "b"),
                eval("local r = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES') return {#r, r[1], r[2], type(r[2])}", "1", "z"),
                eval("local r = redis.call('SET', 'k', 'v') return {type(r), r.ok}"),
                eval("local r = redis.call('ZCARD', 'z') return {type(r), r}"),
                eval("local r = redis.call('GET', 'missing') return {type(r), tostring(r)}"),
                eval("local r = redis.pcall('INCR', 'k') return {type(r), r.err}"),
                eval("return redis.call('ZSCORE', 'z', 'b')"), eval("return redis.call('ZMSCORE', 'z', 'a', 'zz', 'b')")));
        // arguments
        cases.add(c("argument conversion", eval("return redis.call('SET', 'n', 1.5)"), eval("return redis.call('GET', 'n')"),
                eval("redis.call('SET', 'n', 1/3) return redis.call('GET', 'n')"), eval("redis.call('SET', 'n', 2^53) return redis.call('GET', 'n')"),
                eval("redis.call('SET', 'n', -0.0) return redis.call('GET', 'n')"), eval("redis.call('SET', 'n', 100) return redis.call('GET', 'n')"),
                eval("return redis.call('GET', {})"), eval("return redis.call('GET', nil)"), eval("return redis.call('GET', true)"),
                eval("return redis.call()"), eval("return redis.pcall()"), eval("return KEYS", "2", "a", "b", "c"), eval("return ARGV", "1", "a", "b", "c"),
                eval("return #KEYS + #ARGV", "0")));
        // errors
        cases.add(c("error paths", eval("return redis.call('nosuch')"), eval("return redis.call('get')"), eval("return redis.pcall('get')"),
                r("SET", "str", "v"), eval("return redis.call('ZADD', KEYS[1], 1, 'a')", "1", "str"), eval("return redis.pcall('ZADD', KEYS[1], 1, 'a')", "1", "str"),
                eval("error('boom')"), eval("error({err='X custom'})"), eval("local ok, e = pcall(redis.call, 'nosuch') return {tostring(ok), e.err}"),
                eval("return redis.call('eval', 'return 1', 0)"), eval("return redis.call('multi')"), eval("return redis.call('bzpopmin', 'q', 0)"),
eval("return redis.call('config', 'nosuch')"),
                eval("return redis.call('object', 'encoding')"), eval("return redis.call('client', 'id')"),
                eval("\n\nredis.call('nosuch')"), eval("return 1", "-1"), eval("return 1", "3", "a"), eval("return 1", "x"),
                r("EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "0"), r("EVALSHA", "short", "0"), r("EVAL"), r("EVAL", "return 1")));
        cases.add(c("read-only scripts", r("EVAL_RO", "return redis.call('SET', 'a', 'b')", "0"), r("EVAL_RO", "return redis.call('GET', 'a')", "0"),
                r("EVAL_RO", "return redis.pcall('DEL', 'a')", "0"), r("SCRIPT", "LOAD", "return redis.call('INCR', KEYS[1])"),
                r("EVALSHA_RO", "e8f6b5b4ad2faca4bd2bcdd0e6bd0c61aac5aadd", "1", "c")));
        cases.add(c("shebang flags", eval("#!lua flags=no-writes\nreturn redis.call('set','a','b')"), eval("#!lua flags=no-writes\nreturn redis.call('get','a')"),
                eval("#!lua\nreturn 1"), eval("#!lua flags=bogus\nreturn 1"), eval("#!js\nreturn 1"), eval("#!lua name=x\nreturn 1"),
                r("EVAL_RO", "#!lua\nreturn 1", "0"), r("EVAL_RO", "#!lua flags=no-writes\nreturn 2", "0"),
                eval("#!lua flags=no-writes,allow-oom\nreturn 3"), eval("#!lua\n\nerror('line three')"), r("SCRIPT", "LOAD", "#!lua flags=nope\nreturn 1")));
        cases.add(c("script cache", r("SCRIPT", "LOAD", "return 'cached'"), r("EVALSHA", "ad9a2d2a2a1b0b1fd5a2cd2c4a9b70c0ff2cc1bb", "0"),
                r("SCRIPT", "EXISTS", "ad9a2d2a2a1b0b1fd5a2cd2c4a9b70c0ff2cc1bb", "0000000000000000000000000000000000000000"),
                r("SCRIPT", "FLUSH"), r("SCRIPT", "FLUSH", "ASYNC"), r("SCRIPT", "FLUSH", "SYNC"), r("SCRIPT", "FLUSH", "bogus"),
                r("SCRIPT", "EXISTS", "ad9a2d2a2a1b0b1fd5a2cd2c4a9b70c0ff2cc1bb"), r("SCRIPT", "LOAD"), r("SCRIPT", "KILL"), r("SCRIPT", "NOSUCH"),
                r("SCRIPT", "HELP"), r("EVAL", "return redis.sha1hex('abc')", "0"), r("EVAL", "return redis.sha1hex()", "0")));
        // sandbox
        cases.add(c("sandbox", eval("return x"), eval("x = 1"), eval("_G.x = 1"), eval("return os"), eval("return io"), eval("return debug"),
                eval("return require"), eval("return dofile"), eval("return loadfile"), eval("return print"), eval("string.x = 1"),
                eval("table.insert = nil"), eval("tostring = nil"), eval("KEYS = {}"), eval("string.upper = nil"), eval("table.insert(_G, 1)"),
                eval("table.insert(string, 'x')"), eval("return table.remove(_G)"), eval("return rawget(_G, 'redis') ~= nil"), eval("rawset(_G, 'y', 1) return y"), eval("return setmetatable(_G, nil)"), eval("local t = {} t.x = 1 return t.x"),
                eval("return loadstring(string.dump(function() return 1 end)) == nil"), eval("local f = loadstring('return 7') return f()"),
                eval("return type(luajava)"), eval("return math.mod(7, 3)"), eval("return unpack({4, 5, 6})"), eval("return table.getn({1, 2, 3})")));
        // Lua 5.1 surface
        cases.add(c("lua 5.1 library", eval("return tostring(1/3)"), eval("return tostring(2^53)"), eval("return tostring(-0.5)"),
                eval("return string.format('%.3f %d %s %5.1f|%-5d|%05d %x %X %o %e %g %G', 1.23456, 42, 'x', 3.14159, 7, -42, 255, 255, 8, 12345.678, 0.0001, 1e20)"),
                eval("return string.format('%q', 'a\"b\\\\c\\n')"), eval("return string.format('%10s|%-10s|%.2s', 'r', 'l', 'abc')"),
                eval("return string.format('%.16f', 0.1)"), eval("return string.format('%5.2f%%', 99.555)"), eval("return string.format('%d', 3.99)"),
                eval("return string.format('%c%c', 72, 105)"), eval("return tonumber('0x10') + tonumber(' 12 ') + tonumber('1e2')"),
                eval("return tonumber('abc') == nil"), eval("return {string.find('hello world', 'o w')}"), eval("return (string.gsub('abc', 'b', 'X'))"),
                eval("return #'abc' + select('#', 1, 2)"), eval("return table.concat({1, 2, 3}, ',')"),
                eval("local t = {3, 1, 2} table.sort(t) return t"), eval("return math.floor(-3.5) + math.ceil(3.2) + math.abs(-2)"),
                eval("return {math.max(1, 5, 3), math.min(4, 2), math.fmod(7, 3)}"), eval("return tostring(math.huge) .. tostring(-math.huge)"),
                eval("return string.rep('ab', 3)"), eval("return {string.byte('AB', 1, 2)}"), eval("return string.upper('abc') .. string.lower('DEF')"),
                eval("return string.sub('hello', 2, -2)"), eval("local s = 0 for w in string.gmatch('one two three', '%a+') do s = s + 1 end return s"),
                eval("return table.maxn({1, 2, nil, 4})"), eval("return select(2, pcall(error, 'x'))"), eval("return type(coroutine.wrap(function() end))"),
                eval("return coroutine.wrap(function() coroutine.yield(5) end)()"), eval("return _VERSION")));
        cases.add(c("cjson, cmsgpack, bit, struct", eval("return cjson.encode({1, 2, 3, {a = 1}})"), eval("return cjson.encode({x = 'a/b', y = 1.5})"),
                eval("local t = cjson.decode('[1,\"two\",{\"k\":null}]') return {t[1], t[2], tostring(t[3].k == cjson.null)}"),
                eval("return cjson.decode('{bad')"), eval("return cjson.encode({[1] = 1, [5] = 5, [100] = 100})"),
                eval("return cmsgpack.unpack(cmsgpack.pack({1, 2, 'x'}, 300, -1.5))"), eval("return #cmsgpack.pack(1, 1000, 100000, 'abc', {a = 1})"),
                eval("return {bit.band(0xff, 0x0f), bit.bor(1, 2), bit.bxor(3, 1), bit.lshift(1, 31), bit.rshift(-1, 28), bit.arshift(-16, 2), bit.tohex(255), bit.tohex(-1, -4), bit.bnot(0)}"),
                eval("return {struct.unpack('>i4', struct.pack('>i4', 123456))}"), eval("return struct.size('<i2i4d')"),
                eval("return struct.pack('bBhH', -1, 255, -2, 65535)")));
        cases.add(c("redis library", eval("return redis.REDIS_VERSION ~= nil"), eval("return type(redis.REDIS_VERSION_NUM)"),
                eval("return {redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING}"),
                eval("return {redis.REPL_NONE, redis.REPL_AOF, redis.REPL_REPLICA, redis.REPL_ALL}"), eval("redis.log(redis.LOG_NOTICE, 'hi') return 1"),
                eval("redis.set_repl(redis.REPL_ALL) return redis.replicate_commands()"), eval("return redis.log()"),
                eval("return redis.setresp()"), eval("return redis.set_repl(99)")));
        cases.add(c("select inside a script", r("SET", "k", "db0"), eval("redis.call('SELECT', 1) redis.call('SET', 'k', 'db1') return redis.call('GET', 'k')"),
                r("GET", "k"), r("SELECT", "1"), r("GET", "k"), r("FLUSHDB"), r("SELECT", "0")));
        // the seeds' scripts
        cases.add(c("seed: sliding window limiter", eval(SLIDING_WINDOW, "1", "rate:u1", "1000", "60000", "2", "r1"),
                eval(SLIDING_WINDOW, "1", "rate:u1", "1001", "60000", "2", "r2"), eval(SLIDING_WINDOW, "1", "rate:u1", "1002", "60000", "2", "r3"),
                eval(SLIDING_WINDOW, "1", "rate:u1", "70000", "60000", "2", "r4"), r("ZRANGE", "rate:u1", "0", "-1", "WITHSCORES"), r("TTL", "rate:u1")));
        cases.add(c("seed: pop due job", r("ZADD", "jobs", "100", "a", "200", "b", "300", "c"), eval(POP_DUE, "1", "jobs", "250"),
                eval(POP_DUE, "1", "jobs", "250"), eval(POP_DUE, "1", "jobs", "250"), eval(POP_ALL_DUE, "1", "jobs", "1000"), eval(POP_ALL_DUE, "1", "jobs", "1000")));
        cases.add(c("seed: conditional zadd", eval(ADD_IF_NOT_LOWER, "1", "board", "alice", "100"), eval(ADD_IF_NOT_LOWER, "1", "board", "alice", "50"),
                eval(ADD_IF_NOT_LOWER_FIXED, "1", "board", "alice", "50"), eval(ADD_IF_NOT_LOWER_FIXED, "1", "board", "alice", "150"),
                r("ZSCORE", "board", "alice")));
        cases.add(c("seed: packed dimension compare-and-set", r("ZADD", "packed", String.valueOf(5L * (1 << 20) + 7), "p1"),
                eval(PACKED_DIMENSION_CAS, "1", "packed", "p1", "7", "9"), eval(PACKED_DIMENSION_CAS, "1", "packed", "p1", "7", "11"),
                r("ZSCORE", "packed", "p1")));
        // functions
        String lib = "#!lua name=mylib\n"
                + "redis.register_function('myfunc', function(keys, args) return {keys[1], args[1]} end)\n"
                + "redis.register_function{function_name='ro', callback=function(keys, args) return redis.call('GET', keys[1]) end, flags={'no-writes'}, description='reads'}\n"
                + "redis.register_function{function_name='w', callback=function(keys, args) return redis.call('SET', keys[1], 'v') end, flags={'no-writes'}}\n"
                + "redis.register_function('boom', function(keys, args) return redis.call('nosuch') end)\n"
                + "redis.register_function('incr', function(keys, args) return redis.call('INCRBY', keys[1], args[1]) end)";
        cases.add(c("functions", r("FUNCTION", "FLUSH"), r("FUNCTION", "LOAD", lib), r("FCALL", "myfunc", "1", "k", "a"), r("SET", "k", "val"),
                r("FCALL", "ro", "1", "k"), r("FCALL_RO", "ro", "1", "k"), r("FCALL_RO", "myfunc", "1", "k", "a"), r("FCALL", "w", "1", "k"),
                r("FCALL", "boom", "0"), r("FCALL", "incr", "1", "n", "5"), r("FCALL", "incr", "1", "n", "5"), r("FCALL", "nosuch", "0"),
                r("FCALL", "myfunc", "3", "k"), r("FUNCTION", "LOAD", lib), r("FUNCTION", "LIST"), r("FUNCTION", "LIST", "WITHCODE"),
                r("FUNCTION", "LIST", "LIBRARYNAME", "my*"), r("FUNCTION", "LIST", "LIBRARYNAME", "zz*"), r("FUNCTION", "STATS"),
                r("FUNCTION", "LOAD", "REPLACE", lib.replace("return {keys[1], args[1]}", "return 'replaced'")), r("FCALL", "myfunc", "0"),
                r("FUNCTION", "DELETE", "nosuch"), r("FUNCTION", "DELETE", "mylib"), r("FCALL", "myfunc", "0"), r("FUNCTION", "KILL"),
                r("FUNCTION", "FLUSH", "bogus"), r("FUNCTION", "FLUSH", "SYNC"), r("FUNCTION", "RESTORE", "garbage"), r("FUNCTION", "HELP")));
        cases.add(c("function load errors", r("FUNCTION", "LOAD", "return 1"), r("FUNCTION", "LOAD", "#!lua\nreturn 1"),
                r("FUNCTION", "LOAD", "#!lua name=e2\nreturn 1"), r("FUNCTION", "LOAD", "#!lua name=e3\nredis.call('set','a','b')"),
                r("FUNCTION", "LOAD", "#!js name=e4\nx"), r("FUNCTION", "LOAD", "#!lua name=e5 foo=bar\nx"),
                r("FUNCTION", "LOAD", "#!lua name=e6\nredis.register_function('a', function() end)\nredis.register_function('a', function() end)"),
                r("FUNCTION", "LOAD", "#!lua name=e7\nredis.register_function('bad name', function() end)"),
                r("FUNCTION", "LOAD", "#!lua name=e8\nredis.register_function{function_name='f', callback=function() end, flags={'bogus'}}"),
                r("FUNCTION", "LOAD", "#!lua name=e9\nredis.register_function('f')"), r("FUNCTION", "LOAD", "#!lua name=e10\nx = 1"),
                r("FUNCTION", "LOAD", "#!lua name=ok1\nredis.register_function('f1', function() return redis.REDIS_VERSION ~= nil end)"),
                r("FUNCTION", "LOAD", "#!lua name=ok2\nredis.register_function('f1', function() return 2 end)"), r("FCALL", "f1", "0")));
        // compile errors, worded as Lua 5.1 words them
        cases.add(c("compile errors: a token expected",
                eval("a 1"), eval("return {1,2"), eval("for i=1 do end"), eval("x = {[1 = 2}"), eval("x = {[1] 2}"), eval("if x 1 then end"),
                eval("while x end"), eval("for i = 1, 2 x = 1 end"), eval("local function f(a b) end"), eval("return a:b:c()")));
        cases.add(c("compile errors: a token expected, opened on an earlier line",
                eval("if x then\n  y = 1\n"), eval("x = {\n1,\n2"), eval("local f = function()\n  return 1\n"), eval("repeat\n  x = 1\n"),
                eval("x = f(\n1,\n2"), eval("while true do\n\n  local x = (1\n\nend")));
        cases.add(c("compile errors: unexpected symbols",
                eval("return ("), eval("x = 1;;"), eval(";"), eval("return 1 << 2"), eval("x = 1 :: y"), eval("::top::"), eval("return 7 // 2"),
                eval("x = }"), eval("return return")));
        cases.add(c("compile errors: a name expected",
                eval("local 1 = 2"), eval("x = a.1"), eval("function a.() end"), eval("for 1 = 1, 2 do end"), eval("local function (a) end")));
        cases.add(c("compile errors: strings and long brackets",
                eval("return 'abc"), eval("return 'ab\ncd'"), eval("return \"abc\\"), eval("return [[abc"), eval("--[==[ never closed\n\n"),
                eval("x = [="), eval("x = [==x"), eval("return '\\300'"), eval("return \"ab\\256cd\"")));
        cases.add(c("compile errors: malformed numbers",
                eval("return 1..2"), eval("return 3e"), eval("return 0x"), eval("return 0x1p"), eval("return 1e+"), eval("return .5e"),
                eval("return 1e5x"), eval("return 0xAg"), eval("return 0x.8")));
        cases.add(c("compile errors: lua 5.1 grammar",
                eval("for x y in z do end"), eval("a:b"), eval("a:b c"), eval("local x = f\n(g)"), eval("f\n(1)"), eval("break"),
                eval("\n\nbreak\n\nx = 1"), eval("local function f() break end"), eval("while true do break x = 1 end"),
                eval("function f() return ... end"), eval("return function(a) return {...} end"), eval("(a) = 1"), eval("a, f() = 1"),
                eval("f() = 1"), eval("return 1 x"), eval("return 1;;"), eval("x = 1 end"), eval("until x"), eval("local function f(a,) end"),
                eval("local function f(..., a) end"), eval("function a:b:c() end"), eval("x = {a.b = 1}"), eval("local a <const> = 1"),
                eval("goto continue")));
        cases.add(c("compile errors: how the near token is shown",
                eval("x = 1 'a\\tb\\65'"), eval("x = 1 \"a\\0b\""), eval("x = 1 [==[\nfirst\nsecond]==]"), eval("x = 1 0x10"), eval("x = 1 \u0001"),
                eval("x = 1 \u007f"), eval("x = 1 \0"), eval("return a ~ b"), eval("return a != b"), eval("x = 1 @")));
        cases.add(c("compile errors: line counting",
                eval("x = 1\r\ny\r\n"), eval("x = 1\n\ry"), eval("x = 1\r\ry"), eval("return 'a\\\r\nb' x"), eval("return [[\r\na\r\n\r\nb]] x"),
                eval("-- comment\n--[[ long\ncomment ]] x")));
        cases.add(c("lua 5.1 syntax that compiles",
                eval("return 0x1p4"), eval("return 5 % 2 ^ 3 .. #'x'"), eval("local x = function(v) return v end return {x\n(7)}"),
                eval("return 'a' .. 'b' --[==[ multi\nline ]==] .. 'c'"), eval("return [==[\nfirst]] ]=] ]==]"),
                eval("return (function(...) return select('#', ...) end)(1, nil, 3)"),
                eval("local t = {1, 2; 3, n = 4, ['k'] = 5,} return #t + t.n + t.k"),
                eval("local s = 'x' return s:rep(3) .. ('%d'):format(5) .. #{...}"), eval("do local x = 1; do local x = x + 1; return x end end"),
                eval("return \"\\65\\066\\0677\""), eval("return 'a\\\nb'"), eval("local x = 5 return {- - x, not nil == true, 2^3^2}"),
                eval("repeat local x = 1 until x == 1 return 'done'"), eval("local f = function(...) local a, b = ... return b end return f(1, 2)"),
                eval("return 1 --[[ inline ]] + 1"), eval("return 'x' --[= not long\n")));
        cases.add(c("compile errors: lua 5.1's limits",
                eval("return " + "(".repeat(198) + "1" + ")".repeat(198)), eval("return " + "(".repeat(199) + "1" + ")".repeat(199)),
                eval("do ".repeat(199) + "end ".repeat(199)), eval("do ".repeat(200) + "end ".repeat(200)),
                eval("return " + "1 .. ".repeat(199) + "1"), eval("return " + "- ".repeat(199) + "1"),
                eval("return " + "(".repeat(100_000)), eval("return " + "{".repeat(1 << 20)),
                eval(locals(200) + " return a199"), eval(locals(201)), eval("local function f(...)\n" + locals(199) + " end"),
                eval("local function f(...)\n" + locals(200) + " end"), eval("local t = {}\nfunction t:m()\n" + locals(200) + " end"),
                eval("for i = 1, 2 do " + locals(197) + " end"), eval(locals(60) + "\nreturn (function() return #{" + targets(60) + "} end)()"),
                eval(locals(61) + "\nreturn function()\n return {" + targets(61) + "} end"),
                eval(locals(61) + "\nreturn function() return function()\n\n return {" + targets(61) + "} end end"),
                eval(targets(199) + " = 1"), eval(locals(201).replace("local", "") + " = 1"), eval("do " + targets(200) + " = 1 end")));
        cases.add(c("compile errors: script load, eval_ro and shebang lines", r("SCRIPT", "LOAD", "return ("), r("SCRIPT", "LOAD", "x = [[\n\n"),
                r("EVAL_RO", "local x = f\n(g)", "0"), eval("#!lua\nreturn ("), eval("#!lua flags=no-writes\n\n\nx = 1 1"), eval("#!lua\n#!lua\nreturn 1")));
        cases.add(c("compile errors: function load", r("FUNCTION", "LOAD", "#!lua name=c1\na 1"), r("FUNCTION", "LOAD", "#!lua name=c2\n\nreturn ("),
                r("FUNCTION", "LOAD", "#!lua name=c3\nbreak"),
                r("FUNCTION", "LOAD", "#!lua name=c4\nredis.register_function('f', function() return 1 end)\nlocal x = "),
                r("FUNCTION", "LOAD", "#!lua name=c5\nredis.register_function('f', function()\n  return {1, 2\nend)"),
                r("FUNCTION", "LOAD", "#!lua name=c6\nreturn " + "1 .. ".repeat(199) + "1"),
                r("FUNCTION", "LOAD", "#!lua name=c7\nredis.register_function('f', function(keys, args) return ... end)"),
                r("FUNCTION", "LOAD", "#!lua name=c8\r\nreturn 'abc"), r("FUNCTION", "LOAD", "#!lua name=c9\n--[[ unfinished"),
                r("FUNCTION", "LOAD", "#!lua name=ok\nredis.register_function('f', function(keys, args) local t = {n = 1; 2,} local function x(v) return #v + v.n end return {x\n(t)} end)"),
                r("FCALL", "f", "0"), r("FUNCTION", "LOAD", "#!lua name=ok\nredis.register_function('g', function() return 1 end)"),
                r("FUNCTION", "FLUSH")));
        // transactions
        cases.add(c("multi exec", r("MULTI"), r("SET", "a", "1"), r("INCR", "a"), r("ZADD", "z", "1", "m"), r("EXEC"), r("GET", "a")));
        cases.add(c("runtime error does not roll back", r("SET", "s", "x"), r("MULTI"), r("INCR", "s"), r("SET", "t", "1"), r("EXEC"), r("GET", "t")));
        cases.add(c("queue-time error aborts", r("MULTI"), r("SET", "a", "1"), r("NOSUCH"), r("INCR"), r("EXEC"), r("GET", "a")));
        cases.add(c("refused exec discards the transaction", r("MULTI"), r("SET", "a", "1"), r("EXEC", "x"), r("DISCARD"), r("EXEC", "y"),
                r("GET", "a"), r("WATCH", "a"), r("MULTI"), r("EXEC", "z"), r("SET", "a", "2"), r("MULTI"), r("GET", "a"), r("EXEC")));
        cases.add(c("multi errors", r("EXEC"), r("DISCARD"), r("MULTI"), r("MULTI"), r("WATCH", "a"), r("DISCARD"), r("MULTI"), r("DISCARD"),
                r("MULTI"), r("PING"), r("ECHO", "e"), r("EXEC"), r("MULTI"), r("EXEC")));
        cases.add(c("watch", r("SET", "w", "1"), r("WATCH", "w"), r("SET", "w", "2"), r("MULTI"), r("GET", "w"), r("EXEC"),
                r("WATCH", "w"), r("MULTI"), r("GET", "w"), r("EXEC"), r("WATCH", "w"), r("UNWATCH"), r("SET", "w", "3"), r("MULTI"), r("GET", "w"), r("EXEC"),
                r("WATCH", "w", "nokey"), r("DEL", "nokey"), r("MULTI"), r("PING"), r("EXEC"), r("WATCH"), r("UNWATCH", "x")));
        cases.add(c("watch sees flushall and expiry", r("SET", "w", "1"), r("WATCH", "w"), r("FLUSHALL"), r("MULTI"), r("PING"), r("EXEC"),
                r("WATCH", "nokey"), r("FLUSHALL"), r("MULTI"), r("PING"), r("EXEC")));
        cases.add(c("watch sees swapdb", r("SET", "w", "1"), r("WATCH", "w"), r("SWAPDB", "0", "1"), r("MULTI"), r("PING"), r("EXEC"),
                r("WATCH", "absent"), r("SWAPDB", "0", "1"), r("MULTI"), r("PING"), r("EXEC"), r("SELECT", "1"), r("FLUSHDB"), r("SELECT", "0")));
        // Expired keys stay stored until something deletes them; whether the active cycle got to
        // them first changes no reply here (both ways the EXECs answer as below).
        cases.add(c("watch: swapdb bringing in an already expired key is no change",
                r("SELECT", "1"), r("SET", "k", "1", "PX", "1"), r("SELECT", "0"), PAUSE, r("WATCH", "k"), r("SWAPDB", "0", "1"),
                r("MULTI"), r("PING"), r("EXEC"),
                r("WATCH", "k"), r("SWAPDB", "0", "1"), r("SWAPDB", "0", "1"), r("MULTI"), r("PING"), r("EXEC"),
                r("SELECT", "1"), r("SET", "d", "1", "PX", "1"), r("SELECT", "0"), PAUSE, r("WATCH", "d"), r("SWAPDB", "0", "1"),
                r("DEL", "d"), r("SET", "other", "1"), r("MULTI"), r("PING"), r("EXEC")));
        cases.add(c("watch: swapdb replacing an expired key by a live one is a change",
                r("SET", "e", "1", "PX", "1"), r("SELECT", "1"), r("SET", "e", "2"), r("SELECT", "0"), PAUSE, r("WATCH", "e"),
                r("SWAPDB", "0", "1"), r("MULTI"), r("PING"), r("EXEC"), r("SELECT", "1"), r("FLUSHDB"), r("SELECT", "0")));
        cases.add(c("reset ends multi and watch", r("SET", "w", "1"), r("WATCH", "w"), r("MULTI"), r("SET", "x", "1"), r("RESET"),
                r("SET", "w", "2"), r("EXEC"), r("GET", "x")));
        cases.add(c("scripts inside multi", r("MULTI"), eval("return redis.call('INCR', KEYS[1])", "1", "cnt"), r("EVAL", "return 1", "x"),
                r("EXEC"), r("MULTI"), eval("return redis.call('INCR', KEYS[1])", "1", "cnt"), r("BZPOPMIN", "q", "0"), r("EXEC"), r("GET", "cnt")));
        return cases.stream().map(Arguments::of);
    }

    /** FUNCTION DUMP payloads cross both ways: Redis's (LZF-compressed) into Ordo, Ordo's into Redis. */
    @org.junit.jupiter.api.Test
    void functionDump_movesBetweenRedisAndOrdo() throws Exception {
        String code = "#!lua name=portable\nredis.register_function('hello', function(keys, args) return 'hello ' .. args[1] end)\n"
                + "-- padding so that Redis compresses the code with LZF: " + "x".repeat(200);
        try (EngineTarget ordo = new EngineTarget(); RespSocket real = new RespSocket(redis.port())) {
            ordo.call(bytes("FUNCTION", "FLUSH"));
            real.call(bytes("FUNCTION", "FLUSH"));
            real.call(bytes("FUNCTION", "LOAD", code));
            byte[] redisDump = real.call(bytes("FUNCTION", "DUMP")).text();
            org.assertj.core.api.Assertions.assertThat(ordo.call(new byte[][] {bytes("FUNCTION")[0], bytes("RESTORE")[0], redisDump}).textString())
                    .isEqualTo("OK");
            org.assertj.core.api.Assertions.assertThat(ordo.call(bytes("FCALL", "hello", "0", "from redis")).textString()).isEqualTo("hello from redis");
            byte[] ordoDump = ordo.call(bytes("FUNCTION", "DUMP")).text();
            org.assertj.core.api.Assertions.assertThat(real.call(new byte[][] {bytes("FUNCTION")[0], bytes("RESTORE")[0], ordoDump, bytes("REPLACE")[0]})
                    .textString()).isEqualTo("OK");
            org.assertj.core.api.Assertions.assertThat(real.call(bytes("FCALL", "hello", "0", "from ordo")).textString()).isEqualTo("hello from ordo");
            byte[] corrupt = ordoDump.clone();
            corrupt[3] ^= 1;
            org.assertj.core.api.Assertions.assertThat(ordo.call(new byte[][] {bytes("FUNCTION")[0], bytes("RESTORE")[0], corrupt}).textString())
                    .isEqualTo("ERR DUMP payload version or checksum are wrong");
            byte[][] again = {bytes("FUNCTION")[0], bytes("RESTORE")[0], ordoDump};
            org.assertj.core.api.Assertions.assertThat(ordo.call(again).textString()).as("RESTORE's text, without LOAD's quotes")
                    .isEqualTo(real.call(again).textString()).isEqualTo("ERR Library portable already exists");
            real.call(bytes("FUNCTION", "FLUSH"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void resp2_repliesMatchRedis(Case c) throws Exception {
        run(c, 2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void resp3_repliesMatchRedis(Case c) throws Exception {
        run(c, 3);
    }

    private static void run(Case c, int protocol) throws Exception {
        try (EngineTarget ordo = new EngineTarget(); RespSocket real = new RespSocket(redis.port())) {
            for (byte[][] setup : List.of(bytes("FLUSHALL"), bytes("SCRIPT", "FLUSH"), bytes("HELLO", String.valueOf(protocol)))) {
                ordo.call(setup);
                real.call(setup);
            }
            for (int i = 0; i < c.commands().size(); i++) {
                if (c.commands().get(i) == PAUSE) {
                    Thread.sleep(5);
                    continue;
                }
                byte[][] args = bytes(c.commands().get(i));
                Reply expected = real.call(args);
                Reply actual = ordo.call(args);
                boolean functionList = args.length > 1 && c.commands().get(i)[0].equalsIgnoreCase("FUNCTION")
                        && c.commands().get(i)[1].equalsIgnoreCase("LIST");
                String difference = ReplyComparison.difference(pairsSorted(actual, functionList), pairsSorted(expected, functionList), false);
                if (difference != null) {
                    fail("%s, RESP%d, command %d %s%n  Redis: %s%n  Ordo:  %s%n  difference: %s", c.name(), protocol, i,
                            String.join(" | ", c.commands().get(i)), expected, actual, difference);
                }
            }
        }
    }

    /**
     * The reply with every map's pairs in key order: Lua tables have no order, so neither do maps
     * made from them. With {@code sortFunctions}, the array after a "functions" key is sorted too
     * (Redis lists a library's functions in its hash table's order, which varies by process).
     */
    private static Reply pairsSorted(Reply r, boolean sortFunctions) {
        if (r.children() == null || r.children().isEmpty()) {
            return r;
        }
        List<Reply> children = new ArrayList<>();
        r.children().forEach(child -> children.add(pairsSorted(child, sortFunctions)));
        for (int i = 0; sortFunctions && i + 1 < children.size(); i++) {
            if ("functions".equals(children.get(i).textString()) && children.get(i + 1).children() != null) {
                List<Reply> fns = new ArrayList<>(children.get(i + 1).children());
                fns.sort(java.util.Comparator.comparing(Reply::toString));
                children.set(i + 1, Reply.aggregate(children.get(i + 1).kind(), fns));
            }
        }
        if (r.kind() == Reply.Kind.MAP) {
            List<List<Reply>> pairs = new ArrayList<>();
            for (int i = 0; i + 1 < children.size(); i += 2) {
                pairs.add(List.of(children.get(i), children.get(i + 1)));
            }
            pairs.sort(java.util.Comparator.comparing(p -> p.get(0).toString()));
            children.clear();
            pairs.forEach(children::addAll);
        }
        return Reply.aggregate(r.kind(), children);
    }

    private static byte[][] bytes(String... args) {
        byte[][] out = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            out[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }
}
