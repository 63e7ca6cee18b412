package dev.saccade.atspi;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibleApplication;
import java.util.List;

/**
 * What the source knows about one registered application between refreshes. Every field is
 * written and read by the source thread only.
 */
final class KnownApp {
    static final int COLLECTION_UNKNOWN = 0;
    static final int COLLECTION_YES = 1;
    static final int COLLECTION_NO = 2;

    final String busName;
    /** The application object, as the registry lists it. */
    final String rootPath;
    /** pid, name and interfaces have been read. */
    boolean probed;
    long pid;
    String name = "";
    /** {@link AtspiTargetIds#appSeed}, set once the pid is known. */
    long idSeed;
    int collection = COLLECTION_UNKNOWN;
    /**
     * The application is GTK 4 (its toolkit says so at the probe). GTK 4.8 keeps SHOWING and
     * ENABLED off most widgets (VISIBLE and SENSITIVE are set) and answers {@code GetExtents}
     * relative to its window whatever the coordinate type: its states are read with
     * {@link #leniency()} and its nodes are published window-relative
     * (D46).
     */
    boolean gtk4;
    /**
     * The application's tree holds objects that manage their descendants (LibreOffice: a sheet
     * of 2^30 cells, a long document), which it builds on demand for whoever lists them: a
     * {@code Collection} match walks them all (the application froze and grew by gigabytes), so
     * does {@code GetChildren} of such an object. It is walked, never matched, and an object's
     * children are asked only once its state and child count say listing them is bounded (D47).
     */
    boolean guarded;
    /**
     * A guarded walk lists the children of objects that manage their descendants too, where their
     * count is small ({@link TreeWalk#MAX_MANAGED_CHILDREN}): Java's lists, tables and trees,
     * whose accessible children are its rows and cells (D49).
     */
    boolean listsManaged;
    /**
     * The socket of the application's own D-Bus server ({@code Application.GetApplicationBusAddress}),
     * or null. Only at-spi2-atk applications get one: Qt answers the call but we keep Qt on the
     * bus, where it is proven.
     */
    String peerAddress;
    /** The peer-to-peer connection to {@link #peerAddress}, or null; used once ready. */
    PeerLink.Connection peer;
    /** Peer connections that failed or timed out; after {@link #MAX_PEER_FAILURES} the bus it is. */
    int peerFailures;
    static final int MAX_PEER_FAILURES = 3;
    /** Every object the last refresh read: the next refresh asks these for details early. */
    List<AccessibilityNode> nodes = List.of();
    /** Per node of {@link #nodes}: {@link DraftTree#builtView()}, what the next listing asks early by. */
    byte[] nodesView;
    /** What the scene shows of them (see {@link DraftTree}): what the snapshot publishes. */
    List<AccessibilityNode> shownNodes = List.of();
    boolean complete;
    /** Incomplete passes in a row: the delay of the next retry doubles with them (RefreshSchedule). */
    int incompleteRetries;
    String error;
    long refreshedNs;
    /** When the last whole re-read that listed the tree ended (a CHECK does not count). */
    long fullReadNs;
    long lastRefreshDurationNs;
    /**
     * The objects of the last whole read in time, with their facts, kept for TOUCH refreshes
     * (which update them in place); null after a refresh that missed its deadline or failed.
     */
    DraftTree lastTree;
    /** Refreshes that read the whole tree in time, and those that checked the windows only. */
    long fullReads;
    long checks;
    /** Refreshes that re-read only the objects events named. */
    long touches;
    /** Refreshes that re-read only the subtrees children events named, merged into the last tree (D61). */
    long subtrees;
    /** Refreshes cut by their deadline. */
    long timeouts;
    /** Changed since the last snapshot; cleared when the snapshot is built. */
    AccessibleApplication view;

    /** When this source first listed it (source thread): a tree that is only frames soon after is still coming. */
    final long registeredNs = System.nanoTime();

    KnownApp(final String busName, final String rootPath) {
        this.busName = busName;
        this.rootPath = rootPath;
    }

    /** How its states are read ({@link AtspiMapping#states(long, long, int)}): GTK 4's and LibreOffice's gaps. */
    int leniency() {
        return (gtk4 ? AtspiMapping.VISIBLE_IS_SHOWN | AtspiMapping.EITHER_IS_USABLE : 0)
            | (guarded ? AtspiMapping.EITHER_IS_USABLE : 0);
    }

    AccessibleApplication view() {
        if (view == null) {
            view = new AccessibleApplication(
                busName, pid, name, shownNodes, complete, collection == COLLECTION_YES, error, refreshedNs, gtk4);
        }
        return view;
    }

    AtspiDiagnostics.App diagnostics() {
        return new AtspiDiagnostics.App(busName, pid, name, nodes.size(), collection == COLLECTION_YES,
            peer != null && peer.isReady(), complete, error, lastRefreshDurationNs, fullReads, checks,
            touches, subtrees, incompleteRetries, timeouts);
    }
}
