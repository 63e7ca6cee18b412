package dev.saccade.protocol.plan;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Flyweight;
import dev.saccade.protocol.PhysicalStateFlyweight;

/**
 * The helper's answer to one plan, 80 bytes, sent back over the completion ring.
 * <pre>
 *   0                 8             12                16                  20                     24
 *   +-----------------+-------------+-----------------+-------------------+----------------------+
 *   | plan_id u64     | result i32  | platform_error  | completed_actions | failed_action_index  |
 *   |                 |             | i32             | u32               | u32 (0xFFFFFFFF=none)|
 *   +-----------------+-------------+-----------------+-------------------+----------------------+
 *   24                     28             32                                                     80
 *   +----------------------+--------------+------------------------------------------------------+
 *   | commands_executed u32| reserved u32 | physical_state: PhysicalState (48), spec §5.11       |
 *   +----------------------+--------------+------------------------------------------------------+
 * </pre>
 * <ul>
 *   <li>{@code result}, {@code platform_error}: a {@link dev.saccade.protocol.ResultCode} and
 *       its platform code (spec §2, §5.9): OK, TIMEOUT (deadline passed; held input released),
 *       BACKEND (injection failed; released), PERMISSION_DENIED, STALE_GENERATION (permission
 *       epoch or held buttons differ), CANCELLED (user override or ABORT), INVALID_MESSAGE
 *       (the plan failed {@link PlanValidator}).</li>
 *   <li>{@code completed_actions}: ACTION_END commands reached; {@code failed_action_index}:
 *       the action whose command failed, or {@link AgentAbi#NO_FAILED_ACTION};
 *       {@code commands_executed}: commands fully emitted, in order (progress for a partial
 *       failure).</li>
 *   <li>{@code physical_state}: the helper's physical state after the plan, in the ABI's layout,
 *       so the owner copies it into the ActionCompletion as it is.</li>
 * </ul>
 */
public final class PlanCompletionFlyweight extends Flyweight<PlanCompletionFlyweight> {
    public static final int PLAN_ID_OFFSET = 0;
    public static final int RESULT_OFFSET = PLAN_ID_OFFSET + Long.BYTES;
    public static final int PLATFORM_ERROR_OFFSET = RESULT_OFFSET + Integer.BYTES;
    public static final int COMPLETED_ACTIONS_OFFSET = PLATFORM_ERROR_OFFSET + Integer.BYTES;
    public static final int FAILED_ACTION_INDEX_OFFSET = COMPLETED_ACTIONS_OFFSET + Integer.BYTES;
    public static final int COMMANDS_EXECUTED_OFFSET = FAILED_ACTION_INDEX_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = COMMANDS_EXECUTED_OFFSET + Integer.BYTES;
    public static final int PHYSICAL_STATE_OFFSET = RESERVED_OFFSET + Integer.BYTES;
    public static final int LENGTH = PHYSICAL_STATE_OFFSET + PhysicalStateFlyweight.LENGTH;

    private final PhysicalStateFlyweight physicalState = new PhysicalStateFlyweight();

    @Override
    protected void onWrap() {
        physicalState.wrap(bytes, offset + PHYSICAL_STATE_OFFSET);
    }

    @Override
    public int length() {
        return LENGTH;
    }

    public long planId() {
        return u64(PLAN_ID_OFFSET);
    }

    public PlanCompletionFlyweight planId(final long value) {
        putU64(PLAN_ID_OFFSET, value);
        return this;
    }

    public int result() {
        return i32(RESULT_OFFSET);
    }

    public PlanCompletionFlyweight result(final int value) {
        putI32(RESULT_OFFSET, value);
        return this;
    }

    public int platformError() {
        return i32(PLATFORM_ERROR_OFFSET);
    }

    public PlanCompletionFlyweight platformError(final int value) {
        putI32(PLATFORM_ERROR_OFFSET, value);
        return this;
    }

    public long completedActions() {
        return u32(COMPLETED_ACTIONS_OFFSET);
    }

    public PlanCompletionFlyweight completedActions(final long value) {
        putU32(COMPLETED_ACTIONS_OFFSET, value);
        return this;
    }

    public long failedActionIndex() {
        return u32(FAILED_ACTION_INDEX_OFFSET);
    }

    public PlanCompletionFlyweight failedActionIndex(final long value) {
        putU32(FAILED_ACTION_INDEX_OFFSET, value);
        return this;
    }

    public long commandsExecuted() {
        return u32(COMMANDS_EXECUTED_OFFSET);
    }

    public PlanCompletionFlyweight commandsExecuted(final long value) {
        putU32(COMMANDS_EXECUTED_OFFSET, value);
        return this;
    }

    /** The embedded physical state, viewed in place. */
    public PhysicalStateFlyweight physicalState() {
        return physicalState;
    }
}
