package dev.saccade.atspi;

import java.util.List;

/**
 * What {@code saccade doctor} reports about the accessibility source.
 *
 * @param connected the accessibility bus connection is up
 * @param busAddress the accessibility bus address, or null before the first connect
 * @param connectionError why connecting last failed (with the fix where we know it), or null
 * @param applications each registered application as last refreshed
 * @param refreshes refresh passes run
 * @param events AT-SPI events received (each marks its application for refresh)
 * @param lastRefreshNs how long the last pass took
 */
public record AtspiDiagnostics(
    boolean connected,
    String busAddress,
    String connectionError,
    List<App> applications,
    long refreshes,
    long events,
    long lastRefreshNs) {

    /**
     * @param nodeCount nodes in its last snapshot
     * @param collection answers {@code Collection.GetMatches} (bulk refresh), else walked
     * @param peerToPeer refreshed over its own D-Bus server, not through the bus daemon
     * @param complete the last refresh read the whole tree
     * @param lastError why the last refresh was incomplete, or null
     * @param lastRefreshNs how long its last refresh took
     * @param fullReads refreshes that read its whole tree in time
     * @param checks refreshes that found its windows where they were and read nothing else
     * @param touches refreshes that re-read only the objects events named
     * @param subtrees refreshes that re-read only the subtrees whose children changed (D61)
     * @param retries re-reads scheduled in a row because its reads came back cut short (timed out,
     *                failed, over the node budget); 0 after one read whole or as designed (D47)
     * @param timeouts refreshes cut by their deadline since it was first listed (a slow, loaded or hung
     *                 application; a guarded one's first read is not cut at the plain deadline, D73)
     */
    public record App(
        String busName, long pid, String name, int nodeCount, boolean collection, boolean peerToPeer, boolean complete,
        String lastError, long lastRefreshNs, long fullReads, long checks, long touches,
        long subtrees, int retries, long timeouts) {
    }
}
