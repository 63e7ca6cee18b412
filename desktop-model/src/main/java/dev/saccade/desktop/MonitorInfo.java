package dev.saccade.desktop;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One monitor (an XRandR 1.5 monitor: a region of the root window, usually one output).
 *
 * @param id stable display id (spec/agent-abi.md {@code display_id}): {@link #stableId(String)} of
 *     the name, so the same monitor keeps its id across snapshots, connections and restarts
 * @param name the monitor's name atom, e.g. "DP-1", or "screen" on Xvfb
 * @param x left edge in root pixels
 * @param y top edge in root pixels
 * @param width width in pixels
 * @param height height in pixels
 * @param primary the primary monitor
 */
public record MonitorInfo(long id, String name, int x, int y, int width, int height, boolean primary) {

    public MonitorInfo {
        Objects.requireNonNull(name, "name");
    }

    /**
     * A display id from a monitor name: 64-bit FNV-1a over its UTF-8 bytes, finished with the
     * MurmurHash3 mixer so that names differing in one character differ in many bits. Never 0
     * (0 means "current display" on the wire).
     *
     * <p>Derived from the name alone, not from the position: moving or resizing a monitor keeps
     * its id (the topology epoch records the change).
     */
    public static long stableId(final String name) {
        long hash = 0xcbf29ce484222325L;
        for (final byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        hash *= 0xc4ceb9fe1a85ec53L;
        hash ^= hash >>> 33;
        return hash == 0 ? 1 : hash;
    }
}
