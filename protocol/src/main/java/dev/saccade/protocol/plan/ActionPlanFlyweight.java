package dev.saccade.protocol.plan;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Flyweight;

/**
 * An ActionPlan: what the owner's ActionPlanner makes of one validated batch and the input helper
 * executes. A 64-byte header, then {@code command_count} commands of
 * {@value PlanCommandFlyweight#LENGTH} bytes, then {@code text_size} bytes of UTF-8 text;
 * {@code total_size} is the length of the whole record, exactly.
 * <pre>
 *   0                8                16                      24                   32           40
 *   +----------------+----------------+-----------------------+--------------------+------------+
 *   | plan_id u64    | deadline_ns u64| validated_generation  | permission_epoch   | lease_id   |
 *   |                |                | u64                   | u64                | u64        |
 *   +----------------+----------------+-----------------------+--------------------+------------+
 *   40               44               48               52                56            60          64
 *   +----------------+----------------+----------------+-----------------+-------------+-----------+
 *   | command_count  | flags u32      | text_size u32  | total_size u32  | action_count| reserved  |
 *   | u32            |                |                |                 | u32         | u32 (0)   |
 *   +----------------+----------------+----------------+-----------------+-------------+-----------+
 *   64: command[0] .. command[command_count - 1]   (32 bytes each)
 *   64 + 32 × command_count: text[text_size]        (UTF-8; TEXT commands name slices of it)
 * </pre>
 * <ul>
 *   <li>{@code plan_id}: non-zero, unique per owner; the completion echoes it.</li>
 *   <li>{@code deadline_ns}: CLOCK_MONOTONIC ({@code System.nanoTime()} on Linux, the same clock
 *       in every process of the machine); the helper re-checks it before and while executing.</li>
 *   <li>{@code validated_generation}, {@code permission_epoch}: what the owner validated against;
 *       the helper refuses a plan whose permission epoch is not its own.</li>
 *   <li>{@code lease_id}: the connection that owns input left held (0 = none); non-zero when
 *       {@link #KEEP_HELD} is set.</li>
 *   <li>{@code flags}: {@link #KEEP_HELD} only.</li>
 *   <li>{@code action_count}: the number of batch actions the plan covers (≤
 *       {@link AgentAbi#MAX_ACTIONS}); every command's {@code action_index} is below it. This
 *       field is an addition to the first draft of the layout (which had 8 reserved bytes at
 *       56): without it the helper could not bound {@code action_index}, nor report
 *       {@code completed_actions} against the batch.</li>
 * </ul>
 * Accessors trust {@link PlanValidator}: a received plan is validated before anything past the
 * header is read.
 */
public final class ActionPlanFlyweight extends Flyweight<ActionPlanFlyweight> {
    public static final int PLAN_ID_OFFSET = 0;
    public static final int DEADLINE_NS_OFFSET = PLAN_ID_OFFSET + Long.BYTES;
    public static final int VALIDATED_GENERATION_OFFSET = DEADLINE_NS_OFFSET + Long.BYTES;
    public static final int PERMISSION_EPOCH_OFFSET = VALIDATED_GENERATION_OFFSET + Long.BYTES;
    public static final int LEASE_ID_OFFSET = PERMISSION_EPOCH_OFFSET + Long.BYTES;
    public static final int COMMAND_COUNT_OFFSET = LEASE_ID_OFFSET + Long.BYTES;
    public static final int FLAGS_OFFSET = COMMAND_COUNT_OFFSET + Integer.BYTES;
    public static final int TEXT_SIZE_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int TOTAL_SIZE_OFFSET = TEXT_SIZE_OFFSET + Integer.BYTES;
    public static final int ACTION_COUNT_OFFSET = TOTAL_SIZE_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = ACTION_COUNT_OFFSET + Integer.BYTES;
    /** Length of the header; the commands start here. */
    public static final int LENGTH = RESERVED_OFFSET + Integer.BYTES;
    public static final int COMMANDS_OFFSET = LENGTH;

    /** The plan ends with input intentionally held (HOLD): the helper keeps it under the lease. */
    public static final int KEEP_HELD = 0x1;
    /** Every flag this version defines. */
    public static final int KNOWN_FLAGS = KEEP_HELD;

    /**
     * The most commands a plan may carry. The largest batch action is a CLICK or INVOKE with
     * repeat 16 and modifiers: MOVE, MODIFIERS_DOWN, 16 × (BUTTON_DOWN, BUTTON_UP),
     * MODIFIERS_UP, ACTION_END = 36 commands; 64 such actions need 2,304, which the 2,048 of the
     * first draft could not hold. Rounded up to a power of two, leaving room for a leading
     * RELEASE_ALL and for planner changes: 4,096 (128 KiB of commands).
     */
    public static final int MAX_COMMANDS = 4_096;
    /** The most text bytes: a batch's whole payload area (spec §2 MAX_PAYLOAD_BYTES). */
    public static final int MAX_TEXT = AgentAbi.MAX_PAYLOAD_BYTES;
    /** The largest plan: 64 + 4,096 × 32 + 65,536 = 196,672 bytes. */
    public static final int MAX_PLAN_BYTES = LENGTH + MAX_COMMANDS * PlanCommandFlyweight.LENGTH + MAX_TEXT;

    private final PlanCommandFlyweight command = new PlanCommandFlyweight();

    @Override
    public int length() {
        return LENGTH;
    }

    public long planId() {
        return u64(PLAN_ID_OFFSET);
    }

    public ActionPlanFlyweight planId(final long value) {
        putU64(PLAN_ID_OFFSET, value);
        return this;
    }

    public long deadlineNs() {
        return u64(DEADLINE_NS_OFFSET);
    }

    public ActionPlanFlyweight deadlineNs(final long value) {
        putU64(DEADLINE_NS_OFFSET, value);
        return this;
    }

    public long validatedGeneration() {
        return u64(VALIDATED_GENERATION_OFFSET);
    }

    public ActionPlanFlyweight validatedGeneration(final long value) {
        putU64(VALIDATED_GENERATION_OFFSET, value);
        return this;
    }

    public long permissionEpoch() {
        return u64(PERMISSION_EPOCH_OFFSET);
    }

    public ActionPlanFlyweight permissionEpoch(final long value) {
        putU64(PERMISSION_EPOCH_OFFSET, value);
        return this;
    }

    public long leaseId() {
        return u64(LEASE_ID_OFFSET);
    }

    public ActionPlanFlyweight leaseId(final long value) {
        putU64(LEASE_ID_OFFSET, value);
        return this;
    }

    public long commandCount() {
        return u32(COMMAND_COUNT_OFFSET);
    }

    public ActionPlanFlyweight commandCount(final long value) {
        putU32(COMMAND_COUNT_OFFSET, value);
        return this;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public ActionPlanFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    public boolean keepHeld() {
        return (flags() & KEEP_HELD) != 0;
    }

    public long textSize() {
        return u32(TEXT_SIZE_OFFSET);
    }

    public ActionPlanFlyweight textSize(final long value) {
        putU32(TEXT_SIZE_OFFSET, value);
        return this;
    }

    public long totalSize() {
        return u32(TOTAL_SIZE_OFFSET);
    }

    public ActionPlanFlyweight totalSize(final long value) {
        putU32(TOTAL_SIZE_OFFSET, value);
        return this;
    }

    public long actionCount() {
        return u32(ACTION_COUNT_OFFSET);
    }

    public ActionPlanFlyweight actionCount(final long value) {
        putU32(ACTION_COUNT_OFFSET, value);
        return this;
    }

    /** Absolute offset (in {@link #bytes()}) of command {@code index}. */
    public long commandOffset(final int index) {
        return offset + COMMANDS_OFFSET + (long) index * PlanCommandFlyweight.LENGTH;
    }

    /**
     * Command {@code index}, viewed in place by one reusable flyweight: the view is re-pointed by
     * the next call, so copy what must outlive it. Trusts {@code index < command_count}.
     */
    public PlanCommandFlyweight command(final int index) {
        return command.wrap(bytes, commandOffset(index));
    }

    /** Absolute offset (in {@link #bytes()}) of the text; TEXT commands' offsets count from here. */
    public long textStart() {
        return offset + COMMANDS_OFFSET + commandCount() * PlanCommandFlyweight.LENGTH;
    }

    /** Size of a plan with this many commands and text bytes. */
    public static long sizeOf(final long commandCount, final long textSize) {
        return LENGTH + commandCount * PlanCommandFlyweight.LENGTH + textSize;
    }
}
