package dev.saccade.pixel;

import java.util.LinkedHashMap;
import java.util.Map;

/** A map that keeps only its {@code capacity} most recently used entries (the readers' memories of earlier readings). */
final class RecentMap<K, V> extends LinkedHashMap<K, V> {
    private static final long serialVersionUID = 1L;
    private final int capacity;

    RecentMap(final int capacity) {
        super(16, 0.75f, true);
        this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(final Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
