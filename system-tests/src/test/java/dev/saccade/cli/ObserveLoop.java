package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.client.ServiceUnavailableException;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A client that connects, says hello and observes, over and over, on its own thread, as an
 * agent polling the desktop would. Counts refused connects (nothing listened: the endpoint went
 * dark), failed attempts (a connection closed mid-request), requests never answered within 30 s
 * of retrying, and generations that went backwards; keeps the longest wait from first attempt
 * to answer.
 */
final class ObserveLoop implements AutoCloseable {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final Path endpoint;
    private final Thread thread;
    private volatile boolean running = true;
    final AtomicLong answered = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong failedAttempts = new AtomicLong();
    final AtomicLong unanswered = new AtomicLong();
    final AtomicLong backwards = new AtomicLong();
    final AtomicLong changes = new AtomicLong();
    private volatile long lastGeneration;
    private volatile long maxWaitNs;
    private volatile String lastFailure = "";

    ObserveLoop(final Path endpoint) {
        this.endpoint = endpoint;
        this.thread = new Thread(this::run, "observe-loop");
        thread.setDaemon(true);
    }

    ObserveLoop start() {
        thread.start();
        return this;
    }

    private void run() {
        while (running) {
            final long firstNs = System.nanoTime();
            boolean done = false;
            while (running && !done) {
                try {
                    final long generation = observeOnce();
                    final long previous = lastGeneration;
                    if (generation < previous) {
                        backwards.incrementAndGet();
                    } else if (generation > previous) {
                        changes.incrementAndGet();
                    }
                    lastGeneration = Math.max(previous, generation);
                    answered.incrementAndGet();
                    maxWaitNs = Math.max(maxWaitNs, System.nanoTime() - firstNs);
                    done = true;
                } catch (final ServiceUnavailableException e) {
                    refused.incrementAndGet();
                    lastFailure = e.toString();
                } catch (final IOException | RuntimeException e) {
                    failedAttempts.incrementAndGet();
                    lastFailure = e.toString();
                }
                if (!done && System.nanoTime() - firstNs > PATIENCE.toNanos()) {
                    unanswered.incrementAndGet();
                    done = true;
                }
            }
        }
    }

    private long observeOnce() throws IOException {
        try (AgentClient client = AgentClient.connect(endpoint, PATIENCE)) {
            client.readTimeout(PATIENCE);
            client.hello(1, Capability.OBSERVE);
            final BytesStore<?, ?> req = client.requestStore();
            final long at = client.requestOffset();
            req.zeroOut(at, at + ObserveRequestFlyweight.LENGTH);
            final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(req, at);
            o.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
            o.requestId(2).requestedCapabilityBits(Capability.OBSERVE).maximumTargets(16).targetStride(88)
                .totalCapacity(AgentAbi.MAX_MESSAGE_BYTES);
            o.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.GRID);
            o.freshness().policy(FreshnessPolicy.LATEST_VALID);
            client.send(ObserveRequestFlyweight.LENGTH);
            final AgentClient.Reply reply = client.receive(AgentAbi.OBSERVE_COMPLETION);
            return new CompletionFlyweight().wrap(reply.bytes(), reply.offset()).generation().generation();
        }
    }

    long lastGeneration() {
        return lastGeneration;
    }

    double maxWaitMs() {
        return maxWaitNs / 1e6;
    }

    void resetMaxWait() {
        maxWaitNs = 0;
    }

    /** Waits until {@code n} more requests were answered after this call. */
    void awaitAnswers(final long n, final Duration timeout) {
        final long target = answered.get() + n;
        Await.until(() -> answered.get() >= target, timeout, () -> n + " more answers; the observe loop stalled: " + this);
    }

    @Override
    public void close() {
        stop();
    }

    /** Stops the loop and waits for its thread, so the counts are final. */
    void stop() {
        running = false;
        try {
            thread.join(PATIENCE.toMillis() + 5_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
        }
    }

    @Override
    public String toString() {
        return "answered=" + answered + " refused=" + refused + " failedAttempts=" + failedAttempts + " unanswered="
            + unanswered + " backwards=" + backwards + " maxWaitMs=" + maxWaitMs() + " lastFailure=" + lastFailure;
    }
}
