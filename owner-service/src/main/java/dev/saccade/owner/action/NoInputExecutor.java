package dev.saccade.owner.action;

import dev.saccade.protocol.ResultCode;
import net.openhft.chronicle.bytes.BytesStore;

/** No input helper linked: batches answer EXECUTOR_LOST (D5); nothing can be held. */
public final class NoInputExecutor implements InputExecutor {
    public static final NoInputExecutor INSTANCE = new NoInputExecutor();

    private NoInputExecutor() {
    }

    @Override
    public boolean available() {
        return false;
    }

    @Override
    public boolean physicalState(final BytesStore<?, ?> out, final long at) {
        return false;
    }

    @Override
    public PlanWriter beginPlan(final long deadlineNs, final long validatedGeneration, final long permissionEpoch,
        final long leaseId) {
        return null;
    }

    @Override
    public long submit() {
        return 0;
    }

    @Override
    public int poll(final long planId) {
        return ResultCode.PLATFORM_BACKEND;
    }

    @Override
    public int releaseAll() {
        return ResultCode.PLATFORM_OK;
    }
}
