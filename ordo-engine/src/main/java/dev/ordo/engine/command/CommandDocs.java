package dev.ordo.engine.command;

import java.util.HashMap;
import java.util.Map;

/**
 * The documentation COMMAND DOCS reports: a one-line summary and the Redis version that
 * introduced each command, by full name ({@code config|get}). Summaries are Ordo's own words.
 * A command missing from the table is documented with an empty summary and version, which
 * clients such as redis-cli accept.
 */
final class CommandDocs {
    /** One line per command: full name, version introduced, summary. */
    private static final String TABLE = """
            acl 6.0.0 Commands about users and their permissions
            acl|cat 6.0.0 List the ACL categories, or the commands in one
            acl|deluser 6.0.0 Remove users
            acl|dryrun 7.0.0 Tell whether a user may run a command, without running it
            acl|genpass 6.0.0 Make a random password
            acl|getuser 6.0.0 Describe a user's rules
            acl|help 6.0.0 List the ACL subcommands
            acl|list 6.0.0 List every user as a rule line
            acl|load 6.0.0 Replace the users with those of the ACL file
            acl|log 6.0.0 List recent refusals, or clear them
            acl|save 6.0.0 Write the users to the ACL file
            acl|setuser 6.0.0 Create or change a user
            acl|users 6.0.0 List the users' names
            acl|whoami 6.0.0 Name the user this connection runs as
            auth 1.0.0 Authenticate this connection
            client 2.4.0 Commands about client connections
            client|getname 2.6.9 Get this connection's name
            client|help 5.0.0 List the CLIENT subcommands
            client|id 5.0.0 Get this connection's id
            client|info 6.2.0 Describe this connection
            client|kill 2.4.0 Close client connections
            client|list 2.4.0 Describe the client connections
            client|no-evict 7.0.0 Keep this connection from being evicted
            client|no-touch 7.2.0 Leave the access time of keys this connection reads
            client|reply 3.2.0 Turn replies to this connection on or off
            client|setinfo 7.2.0 Name the client library and its version
            client|setname 2.6.9 Name this connection
            client|unblock 5.0.0 Answer a client waiting in a blocking command
            client|tracking 6.0.0 Turn client-side caching invalidations on or off
            client|caching 6.0.0 Track or not the keys the next command reads
            client|trackinginfo 6.2.0 Describe this connection's client-side caching
            client|getredir 6.0.0 Get the client invalidations are redirected to
            echo 1.0.0 Reply with the given message
            hello 6.0.0 Choose the protocol, optionally authenticate and name the connection
            ping 1.0.0 Check that the server answers
            quit 1.0.0 Close the connection
            reset 6.2.0 Restore the connection's initial state
            select 1.0.0 Switch to another numbered database
            copy 6.2.0 Copy a key's value to another key
            del 1.0.0 Delete keys
            dump 2.6.0 Serialize a key's value
            exists 1.0.0 Count how many of the given keys exist
            expire 1.0.0 Set a key's time to live in seconds
            expireat 1.2.0 Set a key's expiry as a unix time in seconds
            expiretime 7.0.0 Get a key's expiry as a unix time in seconds
            keys 1.0.0 List the keys matching a pattern
            move 1.0.0 Move a key to another database
            object 2.2.3 Commands that inspect a key's stored value
            object|encoding 2.2.3 Get the internal encoding of a key's value
            object|freq 4.0.0 Get a key's access frequency counter
            object|help 6.2.0 List the OBJECT subcommands
            object|idletime 2.2.3 Get the seconds since a key was last accessed
            object|refcount 2.2.3 Get the reference count of a key's value
            persist 2.2.0 Remove a key's expiry
            pexpire 2.6.0 Set a key's time to live in milliseconds
            pexpireat 2.6.0 Set a key's expiry as a unix time in milliseconds
            pexpiretime 7.0.0 Get a key's expiry as a unix time in milliseconds
            pttl 2.6.0 Get a key's time to live in milliseconds
            randomkey 1.0.0 Get a random key
            rename 1.0.0 Give a key another name
            renamenx 1.0.0 Give a key another name unless that name is taken
            restore 2.6.0 Create a key from a serialized value
            scan 2.8.0 Iterate over the keys
            sort 1.0.0 Sort the elements of a list, set or sorted set
            sort_ro 7.0.0 Sort the elements of a list, set or sorted set without storing
            touch 3.2.1 Update the access time of keys
            ttl 1.0.0 Get a key's time to live in seconds
            type 1.0.0 Get the type of a key's value
            unlink 4.0.0 Delete keys, freeing memory in the background
            wait 3.0.0 Wait for replicas to acknowledge writes
            append 2.0.0 Append to a string
            decr 1.0.0 Subtract one from an integer string
            decrby 1.0.0 Subtract a number from an integer string
            get 1.0.0 Get a string
            getdel 6.2.0 Get a string and delete its key
            getex 6.2.0 Get a string and change its key's expiry
            getrange 2.4.0 Get part of a string
            getset 1.0.0 Replace a string, returning the old one
            incr 1.0.0 Add one to an integer string
            incrby 1.0.0 Add a number to an integer string
            incrbyfloat 2.6.0 Add a floating-point number to a numeric string
            lcs 7.0.0 Find the longest common subsequence of two strings
            mget 1.0.0 Get several strings
            mset 1.0.1 Set several strings
            msetnx 1.0.1 Set several strings unless any of their keys exists
            psetex 2.6.0 Set a string with a time to live in milliseconds
            set 1.0.0 Set a string, with options for expiry and conditions
            setex 2.0.0 Set a string with a time to live in seconds
            setnx 1.0.0 Set a string unless its key exists
            setrange 2.2.0 Overwrite part of a string
            strlen 2.2.0 Get the length of a string
            substr 1.0.0 Get part of a string (old name of GETRANGE)
            hdel 2.0.0 Delete hash fields
            hexists 2.0.0 Check whether a hash field exists
            hget 2.0.0 Get a hash field's value
            hgetall 2.0.0 Get every field and value of a hash
            hincrby 2.0.0 Add a number to an integer hash field
            hincrbyfloat 2.6.0 Add a floating-point number to a numeric hash field
            hkeys 2.0.0 Get every field name of a hash
            hlen 2.0.0 Count the fields of a hash
            hmget 2.0.0 Get several hash fields
            hmset 2.0.0 Set several hash fields
            hrandfield 6.2.0 Get random fields of a hash
            hscan 2.8.0 Iterate over the fields of a hash
            hset 2.0.0 Set hash fields
            hsetnx 2.0.0 Set a hash field unless it exists
            hstrlen 3.2.0 Get the length of a hash field's value
            hvals 2.0.0 Get every value of a hash
            sadd 1.0.0 Add members to a set
            scard 1.0.0 Count the members of a set
            sdiff 1.0.0 Subtract sets
            sdiffstore 1.0.0 Subtract sets and store the result
            sinter 1.0.0 Intersect sets
            sintercard 7.0.0 Count the members of an intersection of sets
            sinterstore 1.0.0 Intersect sets and store the result
            sismember 1.0.0 Check whether a value is a member of a set
            smembers 1.0.0 Get every member of a set
            smismember 6.2.0 Check which values are members of a set
            smove 1.0.0 Move a member from one set to another
            spop 1.0.0 Remove and return random members of a set
            srandmember 1.0.0 Get random members of a set
            srem 1.0.0 Remove members from a set
            sscan 2.8.0 Iterate over the members of a set
            sunion 1.0.0 Unite sets
            sunionstore 1.0.0 Unite sets and store the result
            bzmpop 7.0.0 Pop members with the lowest or highest scores from the first non-empty sorted set, waiting for one
            bzpopmax 5.0.0 Pop the member with the highest score from the first non-empty sorted set, waiting for one
            lpush 1.0.0 Add elements at the head of a list, creating it if needed
            rpush 1.0.0 Add elements at the tail of a list, creating it if needed
            lpushx 2.2.0 Add elements at the head of a list that exists
            rpushx 2.2.0 Add elements at the tail of a list that exists
            linsert 2.2.0 Insert an element before or after the first occurrence of another
            llen 1.0.0 Count a list's elements
            lindex 1.0.0 Get the element at a position of a list
            lset 1.0.0 Replace the element at a position of a list
            lrange 1.0.0 Get the elements between two positions of a list
            ltrim 1.0.0 Keep only the elements between two positions of a list
            lrem 1.0.0 Remove occurrences of an element from a list
            lpos 6.0.6 Find the positions of an element in a list
            lpop 1.0.0 Remove and return elements from the head of a list
            rpop 1.0.0 Remove and return elements from the tail of a list
            lmpop 7.0.0 Pop elements from the first non-empty of several lists
            rpoplpush 1.2.0 Move the tail element of a list to the head of another
            lmove 6.2.0 Move an element from one end of a list to an end of another
            blpop 2.0.0 Pop the head element of the first non-empty list, waiting for one
            brpop 2.0.0 Pop the tail element of the first non-empty list, waiting for one
            brpoplpush 2.2.0 Move the tail element of a list to the head of another, waiting for one
            blmove 6.2.0 Move an element between lists, waiting for the source to have one
            blmpop 7.0.0 Pop elements from the first non-empty of several lists, waiting for one
            bzpopmin 5.0.0 Pop the member with the lowest score from the first non-empty sorted set, waiting for one
            zadd 1.2.0 Add members to a sorted set or change their scores
            zcard 1.2.0 Count the members of a sorted set
            zcount 2.0.0 Count the members whose score is in a range
            zdiff 6.2.0 Subtract sorted sets
            zdiffstore 6.2.0 Subtract sorted sets and store the result
            zincrby 1.2.0 Add a number to a member's score
            zinter 6.2.0 Intersect sorted sets
            zintercard 7.0.0 Count the members of an intersection of sorted sets
            zinterstore 2.0.0 Intersect sorted sets and store the result
            zlexcount 2.8.9 Count the members in a lexicographical range
            zmpop 7.0.0 Pop members with the lowest or highest scores from the first non-empty sorted set
            zmscore 6.2.0 Get the scores of several members
            zpopmax 5.0.0 Remove and return the members with the highest scores
            zpopmin 5.0.0 Remove and return the members with the lowest scores
            zrandmember 6.2.0 Get random members of a sorted set
            zrange 1.2.0 Get members by rank, score or lexicographical range
            zrangebylex 2.8.9 Get members in a lexicographical range
            zrangebyscore 1.0.5 Get members whose score is in a range
            zrangestore 6.2.0 Store a range of a sorted set in another key
            zrank 2.0.0 Get a member's rank, lowest score first
            zrem 1.2.0 Remove members from a sorted set
            zremrangebylex 2.8.9 Remove the members in a lexicographical range
            zremrangebyrank 2.0.0 Remove the members in a range of ranks
            zremrangebyscore 1.2.0 Remove the members whose score is in a range
            zrevrange 1.2.0 Get members by rank, highest score first
            zrevrangebylex 2.8.9 Get members in a lexicographical range, in reverse order
            zrevrangebyscore 2.2.0 Get members whose score is in a range, highest first
            zrevrank 2.0.0 Get a member's rank, highest score first
            zscan 2.8.0 Iterate over the members and scores of a sorted set
            zscore 1.2.0 Get a member's score
            zunion 6.2.0 Unite sorted sets
            zunionstore 2.0.0 Unite sorted sets and store the result
            bgrewriteaof 1.0.0 Rewrite the append-only file in the background
            bgsave 1.0.0 Save the dataset to disk in the background
            command 2.8.13 Describe the server's commands
            command|count 2.8.13 Count the server's commands
            command|docs 7.0.0 Get the documentation of commands
            command|getkeys 2.8.13 Extract the key arguments of a command line
            command|help 5.0.0 List the COMMAND subcommands
            command|info 2.8.13 Describe commands
            command|list 7.0.0 List command names, optionally filtered
            config 2.0.0 Commands about the server's configuration
            config|get 2.0.0 Get the values of configuration parameters
            config|help 5.0.0 List the CONFIG subcommands
            config|resetstat 2.0.0 Reset the statistics INFO reports
            config|set 2.0.0 Change configuration parameters
            dbsize 1.0.0 Count the keys of the selected database
            debug 1.0.0 Commands for debugging the server
            flushall 1.0.0 Delete every key of every database
            flushdb 1.0.0 Delete every key of the selected database
            info 1.0.0 Report information and statistics about the server
            lastsave 1.0.0 Get the unix time of the last successful save
            monitor 1.0.0 Stream every command the server runs
            save 1.0.0 Save the dataset to disk
            shutdown 1.0.0 Stop the server
            latency 2.8.13 Commands about the latency monitor
            latency|doctor 2.8.13 Report on the latency figures, with advice
            latency|graph 2.8.13 Chart an event's latency samples
            latency|help 2.8.13 List the LATENCY subcommands
            latency|histogram 7.0.0 Get commands' cumulative latency distributions
            latency|history 2.8.13 Get an event's latency samples
            latency|latest 2.8.13 Get every event's newest latency sample
            latency|reset 2.8.13 Forget events' latency samples
            slowlog 2.2.12 Commands about the slow log
            slowlog|get 2.2.12 Get the newest slow log entries
            slowlog|help 6.2.0 List the SLOWLOG subcommands
            slowlog|len 2.2.12 Count the slow log entries
            slowlog|reset 2.2.12 Empty the slow log
            swapdb 4.0.0 Exchange the contents of two databases
            time 2.6.0 Get the server's time
            discard 2.0.0 Abandon a transaction
            exec 1.2.0 Run the commands queued in a transaction
            multi 1.2.0 Start a transaction
            unwatch 2.2.0 Forget every watched key
            watch 2.2.0 Make the next transaction depend on keys staying unchanged
            psubscribe 2.0.0 Listen to channels matching patterns
            publish 2.0.0 Send a message to a channel
            pubsub 2.8.0 Commands that inspect publish/subscribe state
            pubsub|channels 2.8.0 List the channels with subscribers
            pubsub|help 6.2.0 List the PUBSUB subcommands
            pubsub|numpat 2.8.0 Count the patterns with subscribers
            pubsub|numsub 2.8.0 Count each channel's subscribers
            pubsub|shardchannels 7.0.0 List the shard channels with subscribers
            pubsub|shardnumsub 7.0.0 Count each shard channel's subscribers
            punsubscribe 2.0.0 Stop listening to channel patterns
            spublish 7.0.0 Send a message to a shard channel
            ssubscribe 7.0.0 Listen to shard channels
            subscribe 2.0.0 Listen to channels
            sunsubscribe 7.0.0 Stop listening to shard channels
            unsubscribe 2.0.0 Stop listening to channels
            eval 2.6.0 Run a Lua script
            eval_ro 7.0.0 Run a read-only Lua script
            evalsha 2.6.0 Run a cached Lua script by its SHA1 digest
            evalsha_ro 7.0.0 Run a cached read-only Lua script by its SHA1 digest
            script 2.6.0 Commands about the Lua script cache
            script|exists 2.6.0 Check which scripts are cached
            script|flush 2.6.0 Empty the script cache
            script|help 5.0.0 List the SCRIPT subcommands
            script|kill 2.6.0 Stop the running script
            script|load 2.6.0 Cache a script without running it
            """;

    private static final Map<String, String[]> DOCS = parse();

    private CommandDocs() {
    }

    /** The summary of {@code fullName}, or "" when undocumented. */
    static String summary(String fullName) {
        String[] doc = DOCS.get(fullName);
        return doc == null ? "" : doc[1];
    }

    /** The version that introduced {@code fullName}, or "" when undocumented. */
    static String since(String fullName) {
        String[] doc = DOCS.get(fullName);
        return doc == null ? "" : doc[0];
    }

    private static Map<String, String[]> parse() {
        Map<String, String[]> docs = new HashMap<>();
        for (String line : TABLE.split("\n")) {
            String[] parts = line.split(" ", 3);
            docs.put(parts[0], new String[] {parts[1], parts[2]});
        }
        return docs;
    }
}
