package dev.saccade.owner;

import dev.saccade.protocol.AgentAbi;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The conformance cases against {@link AgentService} called directly, the test thread acting as
 * the owner thread: pins down the service's logic apart from any transport.
 */
class DirectConformanceTest extends ObserveQueryConformance {
    private AgentService service;

    @Override
    protected void startService() {
        service = new AgentService(store);
        store.adoptPending();
    }

    @Override
    protected Wire connect() {
        final AgentSession session = new AgentSession().reset(0, 1);
        final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);
        return new Wire() {
            private boolean open = true;

            @Override
            public byte[] exchange(final byte[] frame) {
                if (!open) {
                    return null;
                }
                final BytesStore<?, byte[]> req = BytesStore.wrap(frame.clone());
                store.adoptPending();
                int n = service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), System.nanoTime());
                while (n == AgentService.PARKED) {
                    Thread.onSpinWait();
                    store.adoptPending();
                    n = service.onParkedTick(session, req, 0, response, 0, response.capacity(), System.nanoTime());
                }
                if (n == AgentService.CLOSE) {
                    open = false;
                    service.onDisconnect(session);
                    return null;
                }
                return Arrays.copyOf(response.underlyingObject(), n);
            }

            @Override
            public void close() {
                service.onDisconnect(session);
            }
        };
    }

    @Override
    protected void stopService() {
    }
}
