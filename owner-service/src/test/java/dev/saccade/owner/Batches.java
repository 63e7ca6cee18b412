package dev.saccade.owner;


import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.AgentAbi;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;

/** Batch frames for tests: fixture B's defaults (spec §6), actions and payload after them. */
final class Batches {
    private final List<Consumer<ActionFlyweight>> actions = new ArrayList<>();
    private Consumer<ActionBatchFlyweight> batch = b -> { };
    private byte[] payload = new byte[0];

    static Batches of() {
        return new Batches();
    }

    Batches batch(final Consumer<ActionBatchFlyweight> change) {
        batch = batch.andThen(change);
        return this;
    }

    Batches action(final Consumer<ActionFlyweight> action) {
        actions.add(action);
        return this;
    }

    Batches payload(final byte[] bytes) {
        payload = bytes;
        return this;
    }

    /** DRY_RUN unless changed, id 3, POINTER, STOP, deadline far ahead, no preconditions. */
    byte[] build() {
        final int actionsAt = ActionBatchFlyweight.LENGTH;
        final int payloadAt = actionsAt + actions.size() * ActionFlyweight.LENGTH;
        final int total = payloadAt + payload.length;
        final byte[] f = new byte[total];
        final BytesStore<?, byte[]> s = BytesStore.wrap(f);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(s, 0);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, AgentAbi.FLAG_DRY_RUN);
        b.requestId(3).requestedCapabilityBits(0x17).policy(AgentAbi.POLICY_STOP_ON_FAILURE)
            .deadlineNs(Long.MAX_VALUE).actionCount(actions.size()).actionStride(ActionFlyweight.LENGTH)
            .actionsOffset(actionsAt).payloadOffset(payloadAt).payloadSize(payload.length).totalSize(total);
        for (int i = 0; i < actions.size(); i++) {
            actions.get(i).accept(new ActionFlyweight().wrap(s, actionsAt + (long) i * ActionFlyweight.LENGTH));
        }
        System.arraycopy(payload, 0, f, payloadAt, payload.length);
        batch.accept(b);
        return f;
    }
}
