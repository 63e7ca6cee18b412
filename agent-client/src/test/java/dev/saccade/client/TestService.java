package dev.saccade.client;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.FrameChannel;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.HelloCompletionFlyweight;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.RequestValidator;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.BytesStore;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * A minimal agent endpoint on its own thread, built from the real pieces (EndpointListener,
 * FrameChannel): one connection at a time, each frame answered by a {@link Handler}.
 */
final class TestService implements AutoCloseable {
    /** Handler result: close the connection without a reply (an untyped reject). */
    static final int DISCONNECT = -1;
    /** Handler result: keep the frame and never answer. */
    static final int NO_REPLY = 0;

    @FunctionalInterface
    interface Handler {
        /** @return the reply length written at {@code out}/{@code outAt}, {@link #DISCONNECT} or {@link #NO_REPLY}. */
        int handle(BytesStore<?, ?> in, long at, int length, BytesStore<?, ?> out, long outAt);
    }

    private final EndpointListener listener;
    private final FrameChannel frames = new FrameChannel();
    private final Handler handler;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    private TestService(final EndpointListener listener, final Handler handler) {
        this.listener = listener;
        this.handler = handler;
        this.thread = new Thread(this::run, "test-service");
        thread.setDaemon(true);
        thread.start();
    }

    static TestService start(final Path path, final Handler handler) throws IOException {
        return new TestService(EndpointListener.bind(path, Duration.ZERO), handler);
    }

    /** Answers Hello per spec §1.4. */
    static int hello(final BytesStore<?, ?> in, final long at, final int length, final BytesStore<?, ?> out,
        final long outAt) {
        final int result = new RequestValidator().validateHello(in, at, length);
        final HelloCompletionFlyweight c = new HelloCompletionFlyweight().wrap(out, outAt).clear();
        c.header().set(HelloCompletionFlyweight.LENGTH, AgentAbi.HELLO_COMPLETION, 0);
        c.requestId(length == HelloRequestFlyweight.LENGTH ? new HelloRequestFlyweight().wrap(in, at).requestId() : 0)
            .result(result).platformError(ResultCode.platformErrorFor(result))
            .grantedCapabilityBits(result == ResultCode.OK
                ? new HelloRequestFlyweight().wrap(in, at).requestedCapabilityBits() & Capability.POLICY : 0);
        if (result == ResultCode.OK) {
            c.serviceNonce(0, 0x5eed).serviceNonce(1, 0xcafe);
        }
        return HelloCompletionFlyweight.LENGTH;
    }

    Path path() {
        return listener.path();
    }

    private void run() {
        boolean held = false;
        try {
            while (running) {
                if (!frames.isAttached()) {
                    held = false;
                    final AFUNIXSocketChannel channel = listener.acceptNonBlocking();
                    if (channel == null) {
                        idle();
                    } else {
                        frames.attach(channel);
                    }
                } else if (frames.isWriting()) {
                    if (frames.writeStep() == FrameChannel.WRITING) {
                        idle();
                    }
                } else if (held) {
                    idle();
                } else if (frames.readStep() == FrameChannel.FRAME_READY) {
                    final int n = handler.handle(frames.requestStore(), frames.requestOffset(), frames.frameLength(),
                        frames.responseStore(), frames.responseOffset());
                    if (n == DISCONNECT) {
                        frames.disconnect();
                    } else if (n == NO_REPLY) {
                        held = true;
                    } else {
                        frames.beginReply(n);
                        frames.writeStep();
                    }
                } else {
                    idle();
                }
            }
        } catch (final Throwable t) {
            failure = t;
        }
    }

    /** An idle strategy for a test loop: back off briefly when there is nothing to do. */
    private static void idle() {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
    }

    @Override
    public void close() throws IOException {
        running = false;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
        }
        frames.close();
        listener.close();
        if (failure != null) {
            throw new AssertionError("test service failed", failure);
        }
    }
}
