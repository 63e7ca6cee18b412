package dev.saccade.owner;

import dev.saccade.owner.action.InputExecutor;
import dev.saccade.owner.action.PlanWriter;
import dev.saccade.protocol.PhysicalStateFlyweight;
import dev.saccade.protocol.ResultCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * An input executor for tests of what the planner asks for: it records each plan as lines of
 * text (a header {@code plan lease=N}, then {@code move 84480,93440}, {@code down 1},
 * {@code modifiers down 3}, {@code key down 0x4}, {@code text héllo}, {@code activate 7},
 * {@code cycle backward}, {@code end 0}; zero modifiers are no command, as on the real link) and
 * completes plans with a chosen platform code. It proves what the planner asks for, never that
 * input happens (the input helper's own tests do that on a real X server).
 *
 * <p>Two physical states: {@link #RecordingExecutor()} reports the state a test sets through
 * {@link #physical} (permission epoch 9, physical sequence 1; {@code releaseAll} clears buttons,
 * modifiers and lease and counts a new sequence); {@link #followingItsInput()} reports the state
 * its own recorded input leaves (pointer at the last move, buttons held by downs without their
 * ups, leased to the last plan while one is held; permission epoch 1, physical sequence 1).
 *
 * <p>The owner thread writes plans; {@link #plans}, {@link #lastPlan()} and {@link #commands()}
 * may be read from any thread.
 */
public final class RecordingExecutor implements InputExecutor, PlanWriter {
    public final List<List<String>> plans = Collections.synchronizedList(new ArrayList<>());
    public final BytesStore<?, byte[]> state = BytesStore.wrap(new byte[PhysicalStateFlyweight.LENGTH]);
    public final PhysicalStateFlyweight physical = new PhysicalStateFlyweight().wrap(state, 0);
    public boolean available = true;
    /** Whether a helper is on its way while {@link #available} is false (InputExecutor.expected). */
    public boolean expected;
    public int planResult = ResultCode.PLATFORM_OK;
    /** Plans stay pending until this is cleared. */
    public boolean holdPlans;
    public Runnable onSubmit = () -> { };
    public int releases;
    private final boolean followsInput;
    private List<String> current;
    private long currentLeaseId;
    private long nextId = 1;

    /** The physical state is what the test sets through {@link #physical}. */
    public RecordingExecutor() {
        this(false, 9);
    }

    private RecordingExecutor(final boolean followsInput, final long permissionEpoch) {
        this.followsInput = followsInput;
        physical.permissionEpoch(permissionEpoch).physicalSequence(1);
    }

    /** An executor whose physical state follows the input it records (see the class comment). */
    public static RecordingExecutor followingItsInput() {
        return new RecordingExecutor(true, 1);
    }

    @Override
    public boolean available() {
        return available;
    }

    @Override
    public boolean expected() {
        return expected;
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
        currentLeaseId = leaseId;
        current.add("plan lease=" + leaseId);
        return this;
    }

    @Override
    public long submit() {
        if (followsInput) {
            physical.activeLeaseId(physical.buttons() != 0 ? currentLeaseId : 0);
        }
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
        physical.buttons(0).modifiers(0).activeLeaseId(0);
        if (!followsInput) {
            physical.physicalSequence(physical.physicalSequence() + 1);
        }
        return ResultCode.PLATFORM_OK;
    }

    public List<String> lastPlan() {
        return plans.get(plans.size() - 1);
    }

    /** Every command of every submitted plan, in order, without the plans' headers. */
    public List<String> commands() {
        final List<String> commands = new ArrayList<>();
        synchronized (plans) {
            plans.forEach(plan -> commands.addAll(plan.subList(1, plan.size())));
        }
        return commands;
    }

    @Override
    public void move(final int xQ8, final int yQ8) {
        if (followsInput) {
            physical.pointer(xQ8, yQ8);
        }
        current.add("move " + xQ8 + "," + yQ8);
    }

    @Override
    public void buttonDown(final int button) {
        if (followsInput) {
            physical.buttons(physical.buttons() | button);
        }
        current.add("down " + button);
    }

    @Override
    public void buttonUp(final int button) {
        if (followsInput) {
            physical.buttons(physical.buttons() & ~button);
        }
        current.add("up " + button);
    }

    @Override
    public void modifiersDown(final int modifiers) {
        if (modifiers != 0) {
            current.add("modifiers down " + modifiers);
        }
    }

    @Override
    public void modifiersUp(final int modifiers) {
        if (modifiers != 0) {
            current.add("modifiers up " + modifiers);
        }
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
        final byte[] utf8 = new byte[length];
        store.read(at, utf8, 0, length);
        current.add("text " + new String(utf8, StandardCharsets.UTF_8));
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
