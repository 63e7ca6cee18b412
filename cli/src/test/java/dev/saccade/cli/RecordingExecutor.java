package dev.saccade.cli;

import dev.saccade.owner.action.InputExecutor;
import dev.saccade.owner.action.PlanWriter;
import dev.saccade.protocol.PhysicalStateFlyweight;
import dev.saccade.protocol.ResultCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Stands in for the input helper behind the real service's {@code ActionPlanner}: it accepts
 * every plan, writes each input command down as a line ({@code move 84480,93440},
 * {@code down 1}, {@code text héllo}, ...) and completes it at once. The CLI tests use it to see
 * which input a command line produces through the real planner, without an X server; what
 * injecting that input does is the input helper's own tests' business.
 *
 * <p>Physical state: pointer at the last move, buttons held by unreleased downs, physical
 * sequence 1, permission epoch 1. Its plan state is written by the owner thread only;
 * {@link #commands()} and {@link #plans()} may be read from any thread.
 */
final class RecordingExecutor implements InputExecutor {
    private final List<String> commands = new ArrayList<>();
    private final PhysicalStateFlyweight state = new PhysicalStateFlyweight();
    private final List<String> plan = new ArrayList<>();
    private final Writer writer = new Writer();
    private int pointerXQ8;
    private int pointerYQ8;
    private int buttons;
    private long leaseId;
    private long planLeaseId;
    private long plans;

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public boolean physicalState(final BytesStore<?, ?> out, final long at) {
        state.wrap(out, at).clear()
            .pointer(pointerXQ8, pointerYQ8)
            .buttons(buttons)
            .modifiers(0)
            .activeLeaseId(buttons != 0 ? leaseId : 0)
            .permissionEpoch(1)
            .physicalSequence(1)
            .flags(0);
        return true;
    }

    @Override
    public PlanWriter beginPlan(final long deadlineNs, final long validatedGeneration, final long permissionEpoch,
        final long lease) {
        plan.clear();
        planLeaseId = lease;
        return writer;
    }

    @Override
    public long submit() {
        synchronized (commands) {
            commands.addAll(plan);
            plans++;
            leaseId = planLeaseId;
            return plans;
        }
    }

    @Override
    public int poll(final long planId) {
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int releaseAll() {
        buttons = 0;
        return ResultCode.PLATFORM_OK;
    }

    /** Every command of every submitted plan, in order (any thread). */
    List<String> commands() {
        synchronized (commands) {
            return new ArrayList<>(commands);
        }
    }

    /** Plans submitted so far (any thread). */
    long plans() {
        synchronized (commands) {
            return plans;
        }
    }

    /** Writes one line per command into the current plan (owner thread). */
    private final class Writer implements PlanWriter {
        @Override
        public void move(final int xQ8, final int yQ8) {
            pointerXQ8 = xQ8;
            pointerYQ8 = yQ8;
            plan.add("move " + xQ8 + "," + yQ8);
        }

        @Override
        public void buttonDown(final int button) {
            buttons |= button;
            plan.add("down " + button);
        }

        @Override
        public void buttonUp(final int button) {
            buttons &= ~button;
            plan.add("up " + button);
        }

        @Override
        public void modifiersDown(final int modifiers) {
            if (modifiers != 0) {
                plan.add("modifiers-down " + modifiers);
            }
        }

        @Override
        public void modifiersUp(final int modifiers) {
            if (modifiers != 0) {
                plan.add("modifiers-up " + modifiers);
            }
        }

        @Override
        public void keyDown(final int usage) {
            plan.add("key-down 0x" + Integer.toHexString(usage));
        }

        @Override
        public void keyUp(final int usage) {
            plan.add("key-up 0x" + Integer.toHexString(usage));
        }

        @Override
        public void scroll(final int dxQ8, final int dyQ8) {
            plan.add("scroll " + dxQ8 + "," + dyQ8);
        }

        @Override
        public void text(final BytesStore<?, ?> store, final long at, final int length, final long windowId) {
            final byte[] utf8 = new byte[length];
            store.read(at, utf8, 0, length);
            plan.add("text " + new String(utf8, StandardCharsets.UTF_8));
        }

        @Override
        public void windowActivate(final long windowId) {
            plan.add("window-activate " + windowId);
        }

        @Override
        public void windowCycle(final boolean backward) {
            plan.add("window-cycle " + (backward ? "backward" : "forward"));
        }

        @Override
        public void actionEnd(final int index) {
            plan.add("end " + index);
        }
    }
}
