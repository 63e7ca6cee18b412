package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.management.ThreadMXBean;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.HelloCompletionFlyweight;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.RequestValidator;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steady state of the owner side of a connection: read a Hello in place, validate it, write the
 * completion in place, send it. Measured with the JVM's per-thread allocation counter.
 */
class FrameChannelAllocationTest {
    private static final int WARM_UP_CYCLES = 30_000;
    private static final int MEASURED_CYCLES = 10_000;
    private static final long CYCLE_DEADLINE_NS = TimeUnit.SECONDS.toNanos(20);

    @TempDir
    Path dir;

    private final RequestValidator validator = new RequestValidator();
    private final HelloRequestFlyweight request = new HelloRequestFlyweight();
    private final HelloCompletionFlyweight completion = new HelloCompletionFlyweight();

    @Test
    @Timeout(120)
    void requestResponseCyclesAllocateNothingOnTheOwnerThreadAfterWarmUp() throws Exception {
        final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Loopback loop = Loopback.open(dir); FrameChannel frames = new FrameChannel().attach(loop.server)) {
            final CompletableFuture<Void> client = CompletableFuture.runAsync(
                () -> runClient(loop, WARM_UP_CYCLES + MEASURED_CYCLES));

            for (int i = 0; i < WARM_UP_CYCLES; i++) {
                cycle(frames, i);
            }
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = WARM_UP_CYCLES; i < WARM_UP_CYCLES + MEASURED_CYCLES; i++) {
                cycle(frames, i);
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            client.get(30, TimeUnit.SECONDS);
            System.out.printf("owner thread allocated %d bytes in %d request/response cycles (%.3f bytes/cycle)%n",
                allocated, MEASURED_CYCLES, (double) allocated / MEASURED_CYCLES);
            assertEquals(0, allocated, "bytes allocated by " + MEASURED_CYCLES + " cycles");
        }
    }

    /** One Hello in, one HelloCompletion out; spins on the non-blocking steps (no allocation). */
    private void cycle(final FrameChannel frames, final int i) {
        final long deadlineNs = System.nanoTime() + CYCLE_DEADLINE_NS;
        int status;
        while ((status = frames.readStep()) == FrameChannel.NEED_MORE) {
            Await.check(deadlineNs, "a request");
        }
        if (status != FrameChannel.FRAME_READY) {
            throw new AssertionError("connection closed at cycle " + i + ", reason " + frames.closeReason());
        }
        final BytesStore<?, ?> in = frames.requestStore();
        final long at = frames.requestOffset();
        final int result = validator.validateHello(in, at, frames.frameLength());
        request.wrap(in, at);
        completion.wrap(frames.responseStore(), frames.responseOffset()).clear();
        completion.header().set(HelloCompletionFlyweight.LENGTH, AgentAbi.HELLO_COMPLETION, 0);
        completion.requestId(request.requestId()).result(result).platformError(ResultCode.platformErrorFor(result))
            .grantedCapabilityBits(result == ResultCode.OK ? request.requestedCapabilityBits() & Capability.POLICY : 0);
        frames.beginReply(HelloCompletionFlyweight.LENGTH);
        while ((status = frames.writeStep()) == FrameChannel.WRITING) {
            Await.check(deadlineNs, "the reply to go out");
        }
        if (status != FrameChannel.IDLE) {
            throw new AssertionError("connection closed while replying at cycle " + i);
        }
    }

    private static void runClient(final Loopback loop, final int cycles) {
        final ByteBuffer hello = ByteBuffer.allocate(4 + HelloRequestFlyweight.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        final HelloRequestFlyweight h = new HelloRequestFlyweight().wrap(BytesStore.wrap(hello.array()), 4);
        h.header().set(HelloRequestFlyweight.LENGTH, AgentAbi.HELLO_REQUEST, 0);
        h.requestedCapabilityBits(Capability.OBSERVE | Capability.CLIPBOARD);
        hello.putInt(0, HelloRequestFlyweight.LENGTH);
        try {
            for (int i = 0; i < cycles; i++) {
                h.requestId(i);
                hello.clear();
                loop.writeFully(hello);
                final ByteBuffer reply = loop.readExactly(4 + HelloCompletionFlyweight.LENGTH);
                final HelloCompletionFlyweight c = new HelloCompletionFlyweight().wrap(BytesStore.wrap(reply.array()), 4);
                if (reply.getInt(0) != HelloCompletionFlyweight.LENGTH || c.requestId() != i
                    || c.result() != ResultCode.OK || c.grantedCapabilityBits() != Capability.OBSERVE) {
                    throw new AssertionError("bad reply at cycle " + i);
                }
            }
        } catch (final Exception e) {
            throw new AssertionError(e);
        }
    }
}
