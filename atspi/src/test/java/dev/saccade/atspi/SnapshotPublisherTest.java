package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.desktop.AccessibilitySnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pass that finds the tree unchanged publishes nothing but says when it read it. */
class SnapshotPublisherTest {
    @Test
    void anUnchangedPassReportsItsTimeInsteadOfPublishing() {
        final List<AccessibilitySnapshot> published = new ArrayList<>();
        final List<Long> unchanged = new ArrayList<>();
        final SnapshotPublisher publisher = new SnapshotPublisher(published::add);
        publisher.onUnchanged(unchanged::add);
        publisher.publish(100, false, List.of());
        publisher.publish(200, false, List.of());
        publisher.publish(300, false, List.of());
        assertEquals(1, published.size(), "the same content is published once");
        assertEquals(100, published.get(0).captureNs());
        assertEquals(List.of(200L, 300L), unchanged);
        publisher.onUnchanged(readNs -> {
            throw new IllegalStateException("a failing listener");
        });
        publisher.publish(400, false, List.of());
        assertEquals(1, publisher.listenerFailures(), "counted, not thrown into the source thread");
    }
}
