package dev.saccade.desktop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/**
 * Every application's accessible nodes at one moment: immutable, handed from the source thread to
 * whoever listens. Applications not refreshed in the pass that built it keep their last nodes.
 */
public final class AccessibilitySnapshot {
    private final long sequence;
    private final long captureNs;
    private final boolean incomplete;
    private final List<AccessibleApplication> applications;
    private final List<AccessibilityNode> nodes;

    public AccessibilitySnapshot(
        final long sequence, final long captureNs, final boolean incomplete,
        final List<AccessibleApplication> applications) {
        this.sequence = sequence;
        this.captureNs = captureNs;
        this.incomplete = incomplete;
        this.applications = List.copyOf(applications);
        int count = 0;
        for (final AccessibleApplication app : this.applications) {
            count += app.nodes().size();
        }
        final List<AccessibilityNode> all = new ArrayList<>(count);
        for (final AccessibleApplication app : this.applications) {
            all.addAll(app.nodes());
        }
        this.nodes = Collections.unmodifiableList(all);
    }

    /** The same snapshot (sequence, capture time, completeness) with other applications' nodes. */
    public AccessibilitySnapshot withApplications(final List<AccessibleApplication> replaced) {
        return new AccessibilitySnapshot(sequence, captureNs, incomplete, replaced);
    }

    /** Numbers the snapshots one source delivered: 1, 2, 3 ... (0 for one never delivered). */
    public long sequence() {
        return sequence;
    }

    /** {@link System#nanoTime()} when the pass that built it ended. */
    public long captureNs() {
        return captureNs;
    }

    /**
     * Some application's tree is missing or partial: its refresh hit the node budget or the
     * deadline, or failed (see {@link AccessibleApplication#complete()}), or the accessibility
     * bus is not connected. The scene marks such targets SOURCE_INCOMPLETE.
     */
    public boolean incomplete() {
        return incomplete;
    }

    /** Applications in the registry's order. */
    public List<AccessibleApplication> applications() {
        return applications;
    }

    /** Every node, application by application, each in canonical order. */
    public List<AccessibilityNode> nodes() {
        return nodes;
    }

    /** The application with this unique bus name, or null. */
    public AccessibleApplication application(final String busName) {
        for (final AccessibleApplication app : applications) {
            if (app.busName().equals(busName)) {
                return app;
            }
        }
        return null;
    }

    /** Nodes that match, in order. */
    public List<AccessibilityNode> find(final Predicate<AccessibilityNode> condition) {
        final List<AccessibilityNode> found = new ArrayList<>();
        for (final AccessibilityNode node : nodes) {
            if (condition.test(node)) {
                found.add(node);
            }
        }
        return found;
    }

    /** Same applications and nodes, ignoring sequence and times: a pass that changed nothing. */
    public boolean sameContent(final AccessibilitySnapshot other) {
        if (other == null || incomplete != other.incomplete || applications.size() != other.applications.size()) {
            return false;
        }
        for (int i = 0; i < applications.size(); i++) {
            if (!applications.get(i).sameContent(other.applications.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("AccessibilitySnapshot[seq=").append(sequence)
            .append(", incomplete=").append(incomplete);
        for (final AccessibleApplication app : applications) {
            sb.append(", ").append(app.name()).append('(').append(app.busName()).append("): ")
                .append(app.nodes().size()).append(app.complete() ? "" : " incomplete");
        }
        return sb.append(']').toString();
    }
}
