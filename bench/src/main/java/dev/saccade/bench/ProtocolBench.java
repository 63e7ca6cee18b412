package dev.saccade.bench;

import dev.saccade.client.AgentClient;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.RequestValidator;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TextMatch;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH over the protocol's hot paths and the service's serve step, no sockets: request
 * validation (what the owner runs on every frame), completion validation of a 1 MiB observe
 * (what {@code AgentClient} runs on every reply), and {@code AgentService.onFrame} for the two
 * observes of {@link RoundTripBench}. The fork inherits this JVM's flags, so start it with
 * {@code saccade.jvm.flags} (bench/run does).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProtocolBench {
    private final RequestValidator requestValidator = new RequestValidator();
    private final CompletionValidator completionValidator = new CompletionValidator();
    private BytesStore<?, Void> observeRequest;
    private int observeLength;
    private BytesStore<?, Void> queryRequest;
    private int queryLength;
    private BytesStore<?, Void> largeCompletion;
    private int largeCompletionLength;
    private BytesStore<?, Void> copyTarget;
    private InProcessService large;
    private InProcessService activeWindow;
    private InProcessService textQuery;

    @Setup
    public void setUp() {
        final byte[] observe = BenchRequests.observe(2, ScopeKind.DESKTOP, SourceMode.FUSED, AgentAbi.MAX_TARGETS);
        observeRequest = store(observe);
        observeLength = observe.length;
        final byte[] query = BenchRequests.query(3, 100, "target 99",
            f -> f.flags(FilterFlag.TEXT).textMatch(TextMatch.SUBSTRING));
        queryRequest = store(query);
        queryLength = query.length;

        large = new InProcessService(AgentAbi.MAX_TARGETS, RoundTripBench.LARGE_TEXT_BYTES, RoundTripBench.ACTIVE_TARGETS)
            .request(observe);
        largeCompletionLength = large.serve();
        largeCompletion = BytesStore.nativeStoreWithFixedCapacity(AgentAbi.MAX_MESSAGE_BYTES);
        large.copyResponse(largeCompletion, largeCompletionLength);
        copyTarget = BytesStore.nativeStoreWithFixedCapacity(AgentAbi.MAX_MESSAGE_BYTES);
        activeWindow = new InProcessService(RoundTripBench.SMALL_TARGETS, RoundTripBench.SMALL_TEXT_BYTES,
            RoundTripBench.ACTIVE_TARGETS).request(
                BenchRequests.observe(4, ScopeKind.ACTIVE_WINDOW, SourceMode.PIXEL, AgentAbi.MAX_TARGETS));
        textQuery = new InProcessService(RoundTripBench.SMALL_TARGETS, RoundTripBench.SMALL_TEXT_BYTES,
            RoundTripBench.ACTIVE_TARGETS).request(query);
        if (largeCompletionLength <= 0 || activeWindow.serve() <= 0 || textQuery.serve() <= 0
            || validateLargeCompletion() != CompletionValidator.VALID) {
            throw new IllegalStateException("benchmark fixtures are not answered OK");
        }
    }

    @TearDown
    public void tearDown() {
        large.close();
        activeWindow.close();
        textQuery.close();
        observeRequest.releaseLast();
        queryRequest.releaseLast();
        largeCompletion.releaseLast();
        copyTarget.releaseLast();
    }

    /** The owner's frame check of a 96-byte observe. */
    @Benchmark
    public int validateObserveRequest() {
        return requestValidator.validate(observeRequest, 0, observeLength, Capability.OBSERVE,
            AgentAbi.MAX_MESSAGE_BYTES, 0);
    }

    /** The owner's frame check of a query with one TEXT filter (includes the UTF-8 check). */
    @Benchmark
    public int validateQueryRequest() {
        return requestValidator.validate(queryRequest, 0, queryLength, Capability.OBSERVE,
            AgentAbi.MAX_MESSAGE_BYTES, 0);
    }

    /** A client's check of a 10,000-target, 1,040,168-byte observe completion. */
    @Benchmark
    public int validateLargeCompletion() {
        return completionValidator.validate(largeCompletion, 0, largeCompletionLength, AgentAbi.OBSERVE_COMPLETION);
    }

    /** The owner's serve step for the 10,000-target observe: scan, copy 1 MiB of records and text. */
    @Benchmark
    public int serveObserve10k() {
        return large.serve();
    }

    /**
     * The floor under any serve step that copies a 10,000-target completion: one bulk copy of
     * its 1,040,168 bytes between off-heap buffers.
     */
    @Benchmark
    public long copyCompletionBulk() {
        copyTarget.write(0, largeCompletion, 0, largeCompletionLength);
        return copyTarget.readLong(largeCompletionLength - Long.BYTES);
    }

    /**
     * The same bytes copied as the serve step moves them, 10,000 88-byte records then 10,000
     * 16-byte texts, one call each, with no matching: what per-record copying costs over bulk.
     */
    @Benchmark
    public long copyCompletionPerRecord() {
        final int records = AgentAbi.MAX_TARGETS;
        final long laneAt = 168L + records * 88L;
        for (int i = 0; i < records; i++) {
            final long at = 168L + i * 88L;
            copyTarget.write(at, largeCompletion, at, 88);
        }
        for (int i = 0; i < records; i++) {
            final long at = laneAt + i * 16L;
            copyTarget.write(at, largeCompletion, at, 16);
        }
        return copyTarget.readLong(largeCompletionLength - Long.BYTES);
    }

    /** The owner's serve step for the ACTIVE_WINDOW observe: scan 1,000, copy 30. */
    @Benchmark
    public int serveObserveActiveWindow() {
        return activeWindow.serve();
    }

    /** The owner's serve step for a SUBSTRING query over 1,000 targets. */
    @Benchmark
    public int serveQuerySubstring() {
        return textQuery.serve();
    }

    private static BytesStore<?, Void> store(final byte[] frame) {
        final BytesStore<?, Void> s = BytesStore.nativeStoreWithFixedCapacity(frame.length);
        s.write(0, frame, 0, frame.length);
        return s;
    }
}
