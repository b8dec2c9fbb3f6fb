package dev.ordo.server.net;

import dev.ordo.engine.config.Config;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.util.concurrent.ThreadAwareExecutor;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * How the event loops do their socket I/O, chosen by {@code io-transport}: {@code io_uring}
 * (Linux's submission and completion rings), {@code nio} (Java's selector), or {@code auto}, the
 * default, which takes io_uring where Netty's native library and the kernel offer it (Linux
 * 5.9 and later on x86-64, io_uring not disabled, not refused by a container's seccomp profile or
 * memory-lock limit) and NIO elsewhere.
 *
 * <p>Why io_uring: with NIO each reply costs the server a {@code read} and a {@code write}
 * system call besides the selector's; on io_uring the loop submits the turn's writes and reaps
 * its reads in one {@code io_uring_enter}. Measured with {@code redis-benchmark -P 1} (50
 * clients, 1M-member set, six alternating rounds), ZSCORE p99: NIO 0.843 ms, io_uring 0.583 ms,
 * {@code redis-server} 0.759 ms; the native epoll transport, tried beside it, gave 0.735.
 *
 * <p>Busy scripts. On NIO, {@link BusyTakeover} serves the loop's other clients by reading their
 * sockets itself. On io_uring a socket's data may already sit in a completed read of the ring,
 * so instead the loop's own I/O is run from inside the script ({@link #runIoNow}, as Redis
 * processes events while a script is busy): {@link BusyPump}. That is only safe outside the
 * loop's handling of completions (which must not be re-entered), so on io_uring a command that
 * may run a script is run as a task of the loop, after the turn's I/O ({@link #runsScriptsAsTasks}).
 */
public final class Transport {
    private final boolean auto;
    /** Final once {@link #newGroup} has returned. */
    private boolean ioUring;
    /** Why {@code auto} fell back to NIO although the kernel offers io_uring; null when it did not. */
    private String refusal;
    private final Map<ThreadAwareExecutor, IoHandler> handlers = new ConcurrentHashMap<>();

    private Transport(boolean auto, boolean ioUring) {
        this.auto = auto;
        this.ioUring = ioUring;
    }

    /** The transport {@code io-transport} asks for; throws when it asks for io_uring and the kernel refuses it. */
    public static Transport of(Config config) {
        return switch (config.get("io-transport")) {
            case "nio" -> new Transport(false, false);
            case "io_uring" -> {
                if (!IoUring.isAvailable()) {
                    throw new IllegalStateException("io-transport io_uring is not available here: " + IoUring.unavailabilityCause());
                }
                yield new Transport(false, true);
            }
            default -> new Transport(true, IoUring.isAvailable());
        };
    }

    /** Why {@link #newGroup} fell back to NIO under {@code auto}, or null. */
    public String refusal() {
        return refusal;
    }

    /** {@code io_uring} or {@code nio}. */
    public String name() {
        return ioUring ? "io_uring" : "nio";
    }

    /**
     * The event loops, {@code threads} of them. Under {@code auto}, a kernel that offers io_uring
     * but refuses the rings the loops need (a memory-lock limit, say) gets NIO instead.
     */
    public EventLoopGroup newGroup(int threads, ThreadFactory threadFactory) {
        try {
            return new MultiThreadIoEventLoopGroup(threads, threadFactory, ioHandlerFactory());
        } catch (RuntimeException e) {
            if (!ioUring) {
                throw e;
            }
            if (!auto) {
                throw new IllegalStateException("io-transport io_uring could not start its event loops: " + e, e);
            }
            ioUring = false;
            refusal = e.toString();
            handlers.clear();
            return new MultiThreadIoEventLoopGroup(threads, threadFactory, ioHandlerFactory());
        }
    }

    /** The event loops' I/O handlers; each one made is remembered for {@link #runIoNow}. */
    private IoHandlerFactory ioHandlerFactory() {
        IoHandlerFactory factory = ioUring ? IoUringIoHandler.newFactory() : NioIoHandler.newFactory();
        return executor -> {
            IoHandler handler = factory.newHandler(executor);
            handlers.put(executor, handler);
            return handler;
        };
    }

    Class<? extends ServerChannel> serverChannel() {
        return ioUring ? IoUringServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** Whether commands that may run a script wait for a task of the loop (see the class comment). */
    boolean runsScriptsAsTasks() {
        return ioUring;
    }

    /**
     * Runs one round of the calling event loop's I/O without waiting: submits the writes queued so
     * far and hands what has arrived to the channels' pipelines. From a task of the loop only,
     * never from inside the handling of a completion. Does nothing on other threads.
     */
    void runIoNow() {
        handlers.forEach((executor, handler) -> {
            if (executor.isExecutorThread(Thread.currentThread())) {
                handler.run(NOW);
            }
        });
    }

    private static final IoHandlerContext NOW = new IoHandlerContext() {
        @Override
        public boolean canBlock() {
            return false;
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return 0;
        }

        @Override
        public long deadlineNanos() {
            return -1;
        }
    };
}
