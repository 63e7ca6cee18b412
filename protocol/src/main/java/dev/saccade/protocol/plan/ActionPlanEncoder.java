package dev.saccade.protocol.plan;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * Writes one {@link ActionPlanFlyweight} into a caller's buffer, command by command, without
 * allocating: the ActionPlanner's only way to produce input. Commands go straight to their place
 * after the header; text is staged in a preallocated buffer of {@link ActionPlanFlyweight#MAX_TEXT}
 * bytes and copied behind the commands by {@link #finish()}, since the text's position depends on
 * the final command count.
 *
 * <pre>{@code
 * encoder.wrap(buffer, 0, buffer.capacity())
 *     .header(planId, deadlineNs, generation, permissionEpoch, 0, 1, 0)
 *     .move(0, xQ8, yQ8).buttonDown(0, Button.LEFT).buttonUp(0, Button.LEFT).actionEnd(0);
 * final int size = encoder.finish(); // -1: a limit or the buffer was exceeded
 * }</pre>
 *
 * Overflow (more than {@link ActionPlanFlyweight#MAX_COMMANDS} commands, more than
 * {@link ActionPlanFlyweight#MAX_TEXT} text bytes, or more than the buffer holds) is sticky:
 * later commands are ignored and {@link #finish()} returns -1. The encoder does not validate
 * arguments; {@link PlanValidator} does, on the helper side and in tests.
 *
 * <p>One instance per thread.
 */
public final class ActionPlanEncoder {
    private final BytesStore<?, byte[]> text = BytesStore.wrap(new byte[ActionPlanFlyweight.MAX_TEXT]);
    private final ActionPlanFlyweight plan = new ActionPlanFlyweight();
    private final PlanCommandFlyweight command = new PlanCommandFlyweight();
    private BytesStore<?, ?> buffer;
    private long start;
    private long capacity;
    private int commandCount;
    private int textSize;
    private boolean overflowed;

    /** Starts a plan at {@code offset} of {@code buffer}, which has {@code capacity} bytes for it. */
    public ActionPlanEncoder wrap(final BytesStore<?, ?> buffer, final long offset, final long capacity) {
        this.buffer = buffer;
        this.start = offset;
        this.capacity = capacity;
        commandCount = 0;
        textSize = 0;
        overflowed = capacity < ActionPlanFlyweight.LENGTH;
        if (!overflowed) {
            plan.wrap(buffer, offset).clear();
        }
        return this;
    }

    /** The header fields the planner chooses; counts and sizes are written by {@link #finish()}. */
    public ActionPlanEncoder header(
        final long planId, final long deadlineNs, final long validatedGeneration, final long permissionEpoch,
        final long leaseId, final int actionCount, final int flags) {
        if (!overflowed) {
            plan.planId(planId).deadlineNs(deadlineNs).validatedGeneration(validatedGeneration)
                .permissionEpoch(permissionEpoch).leaseId(leaseId).actionCount(actionCount).flags(flags);
        }
        return this;
    }

    /** Appends one command (see {@link PlanOp} for the arguments of each op). */
    public ActionPlanEncoder command(
        final int op, final int actionIndex, final int a, final int b, final long c, final long d) {
        if (overflowed || commandCount == ActionPlanFlyweight.MAX_COMMANDS
            || ActionPlanFlyweight.sizeOf(commandCount + 1L, textSize) > capacity) {
            overflowed = true;
            return this;
        }
        command.wrap(buffer, plan.commandOffset(commandCount)).set(op, actionIndex, a, b, c, d);
        commandCount++;
        return this;
    }

    public ActionPlanEncoder move(final int actionIndex, final int xQ8, final int yQ8) {
        return command(PlanOp.MOVE, actionIndex, xQ8, yQ8, 0, 0);
    }

    /** A MOVE that glides there over {@code durationNs} (PlanOp: d). */
    public ActionPlanEncoder move(final int actionIndex, final int xQ8, final int yQ8, final long durationNs) {
        return command(PlanOp.MOVE, actionIndex, xQ8, yQ8, 0, durationNs);
    }

    /** A BUTTON_DOWN whose hold ends by itself after {@code leaseNs} (PlanOp: d). */
    public ActionPlanEncoder buttonDown(final int actionIndex, final int button, final long leaseNs) {
        return command(PlanOp.BUTTON_DOWN, actionIndex, button, 0, 0, leaseNs);
    }

    /** A SCROLL spread over {@code durationNs} (PlanOp: d). */
    public ActionPlanEncoder scroll(final int actionIndex, final int dxQ8, final int dyQ8, final long durationNs) {
        return command(PlanOp.SCROLL, actionIndex, dxQ8, dyQ8, 0, durationNs);
    }

    public ActionPlanEncoder buttonDown(final int actionIndex, final int button) {
        return command(PlanOp.BUTTON_DOWN, actionIndex, button, 0, 0, 0);
    }

    public ActionPlanEncoder buttonUp(final int actionIndex, final int button) {
        return command(PlanOp.BUTTON_UP, actionIndex, button, 0, 0, 0);
    }

    public ActionPlanEncoder keyDown(final int actionIndex, final int hidUsage) {
        return command(PlanOp.KEY_DOWN, actionIndex, hidUsage, 0, 0, 0);
    }

    public ActionPlanEncoder keyUp(final int actionIndex, final int hidUsage) {
        return command(PlanOp.KEY_UP, actionIndex, hidUsage, 0, 0, 0);
    }

    public ActionPlanEncoder modifiersDown(final int actionIndex, final int modifiers) {
        return command(PlanOp.MODIFIERS_DOWN, actionIndex, modifiers, 0, 0, 0);
    }

    public ActionPlanEncoder modifiersUp(final int actionIndex, final int modifiers) {
        return command(PlanOp.MODIFIERS_UP, actionIndex, modifiers, 0, 0, 0);
    }

    public ActionPlanEncoder scroll(final int actionIndex, final int dxQ8, final int dyQ8) {
        return command(PlanOp.SCROLL, actionIndex, dxQ8, dyQ8, 0, 0);
    }

    public ActionPlanEncoder windowActivate(final int actionIndex, final long windowId) {
        return command(PlanOp.WINDOW_ACTIVATE, actionIndex, 0, 0, windowId, 0);
    }

    public ActionPlanEncoder windowCycle(final int actionIndex, final boolean backward) {
        return command(PlanOp.WINDOW_CYCLE, actionIndex, backward ? PlanOp.CYCLE_BACKWARD : 0, 0, 0, 0);
    }

    public ActionPlanEncoder releaseAll(final int actionIndex) {
        return command(PlanOp.RELEASE_ALL, actionIndex, 0, 0, 0, 0);
    }

    public ActionPlanEncoder actionEnd(final int actionIndex) {
        return command(PlanOp.ACTION_END, actionIndex, 0, 0, 0, 0);
    }

    /**
     * Appends {@code length} bytes of UTF-8 from {@code source} to the plan's text and a TEXT
     * command naming them.
     */
    public ActionPlanEncoder text(
        final int actionIndex, final BytesStore<?, ?> source, final long sourceOffset, final int length) {
        return text(actionIndex, source, sourceOffset, length, 0);
    }

    /**
     * As above, naming the window the text is for ({@code c}): the helper waits, briefly, until
     * that window is active before typing, so no key reaches the window focused before the click.
     */
    public ActionPlanEncoder text(final int actionIndex, final BytesStore<?, ?> source, final long sourceOffset,
        final int length, final long windowId) {
        if (overflowed || length > ActionPlanFlyweight.MAX_TEXT - textSize
            || ActionPlanFlyweight.sizeOf(commandCount + 1L, (long) textSize + length) > capacity) {
            overflowed = true;
            return this;
        }
        text.write(textSize, source, sourceOffset, length);
        final int sliceOffset = textSize;
        textSize += length;
        return command(PlanOp.TEXT, actionIndex, sliceOffset, length, windowId, 0);
    }

    /**
     * Writes the counts, copies the text behind the commands and sets {@code total_size}.
     *
     * @return the plan's size in bytes, or -1 if anything overflowed (the buffer then holds no
     *     valid plan).
     */
    public int finish() {
        if (overflowed) {
            return -1;
        }
        plan.commandCount(commandCount).textSize(textSize);
        final long size = ActionPlanFlyweight.sizeOf(commandCount, textSize);
        plan.totalSize(size);
        if (textSize > 0) {
            buffer.write(plan.textStart(), text, 0, textSize);
        }
        return (int) size;
    }

    public int commandCount() {
        return commandCount;
    }

    public int textSize() {
        return textSize;
    }

    public boolean overflowed() {
        return overflowed;
    }

    /** The plan being written, viewed in place. */
    public ActionPlanFlyweight plan() {
        return plan;
    }

    /** Offset of the plan in its buffer. */
    public long start() {
        return start;
    }
}
