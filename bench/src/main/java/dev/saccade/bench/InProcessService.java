package dev.saccade.bench;

import dev.saccade.owner.AgentService;
import dev.saccade.owner.AgentSession;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.owner.source.SyntheticScene;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import java.nio.ByteBuffer;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The service's serve step with no socket and no owner loop: a private scene store and an
 * {@link AgentService} called on this thread, which is the owner thread of this store. What a
 * request costs the owner in compute (validation, scope scan, copying records and text into the
 * response buffer), to split a round trip into compute and transport.
 */
final class InProcessService implements AutoCloseable {
    private final SceneStore store;
    private final AgentService service;
    private final AgentSession session = new AgentSession();
    private final BytesStore<?, Void> request = BytesStore.nativeStoreWithFixedCapacity(AgentAbi.MAX_MESSAGE_BYTES);
    private final BytesStore<?, Void> response = BytesStore.nativeStoreWithFixedCapacity(AgentAbi.MAX_MESSAGE_BYTES);
    private long requestLength;
    /** The shared body the last reply's tail comes from, or null. */
    private ByteBuffer tail;

    /** A store holding one {@link SyntheticScene} of that shape, adopted, and an authenticated session. */
    InProcessService(final int targets, final int textBytes, final int activeTargets) {
        store = new SceneStore(3, targets, Math.max(1, targets * textBytes), SceneStore.seedGeneration(0));
        SyntheticScene.publish(store, targets, textBytes, activeTargets);
        store.adoptPending();
        service = new AgentService(store).gatherReplies(); // as the owner loop serves: bodies shared, not copied
        request(BenchRequests.hello(1, Capability.OBSERVE));
        if (serve() <= 0 || !session.authenticated()) {
            throw new IllegalStateException("in-process Hello failed");
        }
    }

    /** The frame {@link #serve()} answers from now on. */
    InProcessService request(final byte[] frame) {
        request.write(0, frame, 0, frame.length);
        requestLength = frame.length;
        return this;
    }

    /** Serves the frame once. @return the completion's length, or a negative {@link AgentService} code. */
    int serve() {
        final int n = service.onFrame(session, request, 0, requestLength, response, 0, AgentAbi.MAX_MESSAGE_BYTES,
            System.nanoTime());
        tail = service.takeReplyTail();
        service.replySent(session); // written at once, as far as this series goes
        return n;
    }

    /** Copies the last completion ({@code length} bytes) to the start of {@code to}. */
    void copyResponse(final BytesStore<?, ?> to, final int length) {
        if (tail == null) {
            to.write(0, response, 0, length);
            return;
        }
        to.write(0, response, 0, CompletionFlyweight.LENGTH);
        for (int i = CompletionFlyweight.LENGTH; i < length; i++) {
            to.writeByte(i, tail.get(i));
        }
    }

    @Override
    public void close() {
        request.releaseLast();
        response.releaseLast();
        service.close();
        store.close();
    }
}
