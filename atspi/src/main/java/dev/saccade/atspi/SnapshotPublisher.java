package dev.saccade.atspi;

import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The publication of the source's applications into the scene: builds the
 * {@link AccessibilitySnapshot} after a pass and hands it to the listener only if its content
 * changed, numbered in sequence. A listener that throws is counted, never allowed to end the
 * source thread. Written on the source thread; {@link #latest()} is read by any.
 */
final class SnapshotPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(AtspiSource.class);

    private final Consumer<AccessibilitySnapshot> listener;
    private final AtomicLong listenerFailures = new AtomicLong();
    private volatile AccessibilitySnapshot latest;
    private volatile LongConsumer unchanged = nowNs -> { };
    private long sequence;

    SnapshotPublisher(final Consumer<AccessibilitySnapshot> listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Told the time of each pass that found the content unchanged (nothing is published then). */
    void onUnchanged(final LongConsumer readNs) {
        unchanged = Objects.requireNonNull(readNs, "readNs");
    }

    /** The last snapshot delivered, or null before the first. */
    AccessibilitySnapshot latest() {
        return latest;
    }

    long listenerFailures() {
        return listenerFailures.get();
    }

    /**
     * Publishes the applications as they are now.
     *
     * @param noBus there is no bus connection: the snapshot is incomplete
     */
    void publish(final long nowNs, final boolean noBus, final List<KnownApp> apps) {
        final List<AccessibleApplication> views = new ArrayList<>(apps.size());
        boolean incomplete = noBus;
        for (final KnownApp app : apps) {
            views.add(app.view());
            incomplete |= !app.complete;
        }
        final AccessibilitySnapshot candidate = new AccessibilitySnapshot(sequence + 1, nowNs, incomplete, views);
        if (latest != null && candidate.sameContent(latest)) {
            try {
                unchanged.accept(nowNs);
            } catch (final RuntimeException e) {
                listenerFailures.incrementAndGet();
            }
            return;
        }
        sequence++;
        latest = candidate;
        try {
            listener.accept(candidate);
        } catch (final RuntimeException e) {
            if (listenerFailures.getAndIncrement() == 0) {
                LOG.warn("event=atspi-listener-failed sequence={}", candidate.sequence(), e);
            }
        }
    }
}
