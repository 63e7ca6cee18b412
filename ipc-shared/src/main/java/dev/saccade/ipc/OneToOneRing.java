package dev.saccade.ipc;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded queue of references from exactly one producer thread to exactly one consumer thread.
 * No locks and no allocation after construction: the element is stored before the tail moves
 * (an ordered write), so the consumer never sees a slot before its element. A full ring refuses
 * the offer rather than blocking.
 *
 * @param <T> element type.
 */
public final class OneToOneRing<T> {
    private final AtomicReferenceArray<T> slots;
    private final int mask;
    private final AtomicLong head = new AtomicLong(); // next to poll; written by the consumer
    private final AtomicLong tail = new AtomicLong(); // next to fill; written by the producer

    /** @param capacity at least this many elements fit (rounded up to a power of two). */
    public OneToOneRing(final int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        final int size = Integer.highestOneBit(capacity * 2 - 1);
        slots = new AtomicReferenceArray<>(size);
        mask = size - 1;
    }

    /** Producer thread. @return false when full. */
    public boolean offer(final T element) {
        final long t = tail.get();
        if (t - head.get() > mask) {
            return false;
        }
        slots.lazySet((int) t & mask, element);
        tail.lazySet(t + 1);
        return true;
    }

    /** Consumer thread. @return the oldest element, or null when empty. */
    public T poll() {
        final long h = head.get();
        if (h == tail.get()) {
            return null;
        }
        final T element = slots.get((int) h & mask);
        slots.lazySet((int) h & mask, null);
        head.lazySet(h + 1);
        return element;
    }

    /** Approximate, from any thread. */
    public int size() {
        return (int) (tail.get() - head.get());
    }
}
