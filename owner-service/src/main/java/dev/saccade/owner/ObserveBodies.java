package dev.saccade.owner;

import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import java.nio.ByteBuffer;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The body of the whole-desktop observe (records and text lane after the completion header),
 * built once per scene generation and sent to every client that asks for it by a gathering write
 * from here: the 10,000-target observe then costs the owner a header, not a 1 MiB copy per
 * request (D20; bench/README.md, "Reading the output"). The buffer is laid out as the reply
 * is (the body at {@link CompletionFlyweight#LENGTH}), so it serves as the reply's tail at the
 * same offsets.
 *
 * <p>One body at a time, keyed by generation, source mode and the connection's view of roles and
 * states (§1.4). While a reply still sends from it ({@link #lent()}), it is not rebuilt: a request
 * for another key is then answered the copying way.
 *
 * <p>Owner thread only; allocates nothing after construction.
 */
final class ObserveBodies implements AutoCloseable {
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(AgentAbi.MAX_MESSAGE_BYTES);
    /** wrap, not follow: releasing frees the memory at close, not at GC. */
    private final BytesStore<?, ByteBuffer> store = BytesStore.wrap(buffer);

    private boolean valid;
    private long generation;
    private int mode;
    private int helloFlags;
    private long count;
    private long total;
    private boolean truncated;
    private int lent;

    /** Where a body is built: the reply's layout from offset 0. */
    BytesStore<?, ByteBuffer> store() {
        return store;
    }

    /** The buffer a reply's tail is written from. */
    ByteBuffer buffer() {
        return buffer;
    }

    /** The body built last is the one for this generation, mode and view. */
    boolean holds(final ScenePacket scene, final int sourceMode, final int viewFlags) {
        return valid && generation == scene.sceneEpoch() && mode == sourceMode && helloFlags == viewFlags;
    }

    /** No reply sends from the buffer: it may be rebuilt. */
    boolean free() {
        return lent == 0;
    }

    /** A body was just built in {@link #store()} for this key. */
    void built(final ScenePacket scene, final int sourceMode, final int viewFlags, final long records,
        final long length, final boolean cut) {
        valid = true;
        generation = scene.sceneEpoch();
        mode = sourceMode;
        helloFlags = viewFlags;
        count = records;
        total = length;
        truncated = cut;
    }

    long count() {
        return count;
    }

    /** The reply's total size, header included. */
    long total() {
        return total;
    }

    /** The build did not fit the buffer: such a body is never sent from here. */
    boolean truncated() {
        return truncated;
    }

    void lend() {
        lent++;
    }

    void giveBack() {
        lent--;
    }

    /** Replies sending from the buffer now. */
    int lent() {
        return lent;
    }

    @Override
    public void close() {
        valid = false;
        store.releaseLast();
    }
}
