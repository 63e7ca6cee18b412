package dev.saccade.owner;

import dev.saccade.owner.action.InputExecutor;
import dev.saccade.owner.action.PlanWriter;

import dev.saccade.protocol.PhysicalStateFlyweight;
import dev.saccade.protocol.ResultCode;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * An input executor for unit tests of the planner's logic: it records each plan's commands as
 * text and completes plans with a chosen platform code. It proves what the planner asks for,
 * never that input happens (the helper's own tests do that on a real X server).
 */
public final class RecordingExecutor implements InputExecutor, PlanWriter {
    public final List<List<String>> plans = new ArrayList<>();
    public final BytesStore<?, byte[]> state = BytesStore.wrap(new byte[PhysicalStateFlyweight.LENGTH]);
    public final PhysicalStateFlyweight physical = new PhysicalStateFlyweight().wrap(state, 0);
    public boolean available = true;
    public int planResult = ResultCode.PLATFORM_OK;
    /** Plans stay pending until this is cleared. */
    public boolean holdPlans;
    public Runnable onSubmit = () -> { };
    public int releases;
    private List<String> current;
    private long nextId = 1;

    public RecordingExecutor() {
        physical.permissionEpoch(9).physicalSequence(1);
    }

    @Override
    public boolean available() {
        return available;
    }

    @Override
    public boolean physicalState(final BytesStore<?, ?> out, final long at) {
        if (!available) {
            return false;
        }
        out.write(at, state, 0, PhysicalStateFlyweight.LENGTH);
        return true;
    }

    @Override
    public PlanWriter beginPlan(final long deadlineNs, final long generation, final long permissionEpoch, final long leaseId) {
        current = new ArrayList<>();
        current.add("plan lease=" + leaseId);
        return this;
    }

    @Override
    public long submit() {
        plans.add(current);
        onSubmit.run();
        return nextId++;
    }

    @Override
    public int poll(final long planId) {
        return holdPlans ? PENDING : planResult;
    }

    @Override
    public int releaseAll() {
        releases++;
        physical.buttons(0).modifiers(0).activeLeaseId(0).physicalSequence(physical.physicalSequence() + 1);
        return ResultCode.PLATFORM_OK;
    }

    public List<String> lastPlan() {
        return plans.get(plans.size() - 1);
    }

    @Override
    public void move(final int xQ8, final int yQ8) {
        current.add("move " + xQ8 + "," + yQ8);
    }

    @Override
    public void buttonDown(final int button) {
        current.add("down " + button);
    }

    @Override
    public void buttonUp(final int button) {
        current.add("up " + button);
    }

    @Override
    public void modifiersDown(final int modifiers) {
        current.add("modifiers down " + modifiers);
    }

    @Override
    public void modifiersUp(final int modifiers) {
        current.add("modifiers up " + modifiers);
    }

    @Override
    public void keyDown(final int usage) {
        current.add("key down 0x" + Integer.toHexString(usage));
    }

    @Override
    public void keyUp(final int usage) {
        current.add("key up 0x" + Integer.toHexString(usage));
    }

    @Override
    public void scroll(final int dxQ8, final int dyQ8) {
        current.add("scroll " + dxQ8 + "," + dyQ8);
    }

    @Override
    public void text(final BytesStore<?, ?> store, final long at, final int length, final long windowId) {
        final byte[] b = new byte[length];
        store.read(at, b, 0, length);
        current.add("text " + new String(b, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public void windowActivate(final long windowId) {
        current.add("activate " + windowId);
    }

    @Override
    public void windowCycle(final boolean backward) {
        current.add("cycle " + (backward ? "backward" : "forward"));
    }

    @Override
    public void actionEnd(final int index) {
        current.add("end " + index);
    }
}
