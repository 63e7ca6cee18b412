package dev.saccade.ipc.link;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * Receives the records {@link OneToOneByteRing#read(RecordHandler, int)} hands out, in place:
 * {@code length} payload bytes at {@code offset} of {@code store}, valid only during the call
 * (the ring zeroes them afterwards). Copy what must outlive it.
 */
@FunctionalInterface
public interface RecordHandler {
    void onRecord(int type, BytesStore<?, ?> store, long offset, int length);
}
