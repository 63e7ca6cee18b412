package dev.saccade.ipc.link;

/**
 * Told by a {@link LifelineWatcher}, once, that the peer at the other end of the lifeline is
 * gone. Runs on the watcher's thread: do the release (or hand it to the thread that does) and
 * return; it must not throw.
 */
@FunctionalInterface
public interface LifelineListener {
    /**
     * @param reason {@link LifelineWatcher#EOF}, {@link LifelineWatcher#UNEXPECTED_DATA} or
     *     {@link LifelineWatcher#ERROR}.
     * @param detectedAtNs CLOCK_MONOTONIC when the read returned.
     */
    void onLifelineLost(int reason, long detectedAtNs);
}
