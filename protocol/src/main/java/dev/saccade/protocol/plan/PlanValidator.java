package dev.saccade.protocol.plan;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Utf8;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Validates a received {@link ActionPlanFlyweight} or {@link PlanCompletionFlyweight} the way the
 * agent ABI's validators treat a wire frame: every size, count, op, argument and text slice is
 * checked before any accessor trusts it, and nothing outside {@code [at, at + length)} is ever
 * read (sizes are checked before the fields they guard; the fuzz tests read through an
 * exact-size view that throws on any access outside the record). No exception, no allocation.
 *
 * <p>Plan checks, in order (the first failure is the verdict): the header fits; {@code plan_id}
 * ≠ 0; {@code total_size} = the record length; {@code command_count} ≤
 * {@link ActionPlanFlyweight#MAX_COMMANDS}; {@code text_size} ≤ {@link ActionPlanFlyweight#MAX_TEXT};
 * 64 + 32 × command_count + text_size = total_size; only known flags, reserved 0;
 * {@code action_count} ≤ {@link AgentAbi#MAX_ACTIONS}; {@code KEEP_HELD} ⇒ lease_id ≠ 0; then
 * per command: a known op, flags and reserved 0, {@code action_index} < action_count, commands
 * in action order (indexes never decrease, nothing of an action after its ACTION_END), the op's
 * argument rules ({@link PlanOp}) with unused arguments 0, and for TEXT a slice inside the text
 * that is strict UTF-8.
 *
 * <p>Not checked here, because they need the helper's state: the deadline against the clock,
 * the permission epoch, held buttons, whether a key usage maps on this keyboard.
 *
 * <p>One instance per thread (it holds a reusable command view).
 */
public final class PlanValidator {
    public static final int VALID = 0;
    public static final int BAD_LENGTH = 1;
    public static final int BAD_PLAN_ID = 2;
    public static final int BAD_TOTAL_SIZE = 3;
    public static final int BAD_COMMAND_COUNT = 4;
    public static final int BAD_TEXT_SIZE = 5;
    public static final int BAD_FLAGS = 6;
    public static final int BAD_ACTION_COUNT = 7;
    public static final int BAD_LEASE = 8;
    public static final int BAD_OP = 9;
    public static final int BAD_COMMAND_FLAGS = 10;
    public static final int BAD_ACTION_INDEX = 11;
    public static final int BAD_ACTION_ORDER = 12;
    public static final int BAD_ARGUMENT = 13;
    public static final int BAD_TEXT_SLICE = 14;
    public static final int BAD_TEXT_ENCODING = 15;
    public static final int BAD_RESULT = 16;
    public static final int BAD_PROGRESS = 17;

    private static final String[] REASONS = {
        "valid", "record length does not fit the struct", "plan_id is 0", "total_size differs from the record length",
        "command_count above MAX_COMMANDS", "text_size above MAX_TEXT", "unknown flags or non-zero reserved field",
        "action_count above MAX_ACTIONS", "KEEP_HELD without a lease_id", "unknown op",
        "command flags or reserved field non-zero", "action_index not below action_count",
        "commands out of action order", "argument outside the op's rules", "TEXT slice outside the text",
        "TEXT slice is not strict UTF-8", "result or platform_error outside the ABI",
        "progress counts inconsistent"};

    private final PlanCommandFlyweight command = new PlanCommandFlyweight();

    /** A readable reason for a verdict. */
    public static String reason(final int verdict) {
        return verdict >= 0 && verdict < REASONS.length ? REASONS[verdict] : "unknown";
    }

    /**
     * What a helper answers for a plan that failed validation: INVALID_MESSAGE (the owner sent
     * something no valid batch produces).
     */
    public static int resultFor(final int verdict) {
        return verdict == VALID ? ResultCode.OK : ResultCode.INVALID_MESSAGE;
    }

    /**
     * Validates the plan record of {@code length} bytes at {@code at}.
     *
     * @return {@link #VALID} or the first failed check.
     */
    public int validatePlan(final BytesStore<?, ?> b, final long at, final long length) {
        if (length < ActionPlanFlyweight.LENGTH) {
            return BAD_LENGTH;
        }
        if (b.readLong(at + ActionPlanFlyweight.PLAN_ID_OFFSET) == 0) {
            return BAD_PLAN_ID;
        }
        final long total = b.readUnsignedInt(at + ActionPlanFlyweight.TOTAL_SIZE_OFFSET);
        if (total != length) {
            return BAD_TOTAL_SIZE;
        }
        final long commandCount = b.readUnsignedInt(at + ActionPlanFlyweight.COMMAND_COUNT_OFFSET);
        if (commandCount > ActionPlanFlyweight.MAX_COMMANDS) {
            return BAD_COMMAND_COUNT;
        }
        final long textSize = b.readUnsignedInt(at + ActionPlanFlyweight.TEXT_SIZE_OFFSET);
        if (textSize > ActionPlanFlyweight.MAX_TEXT) {
            return BAD_TEXT_SIZE;
        }
        // Both bounded above, so the sum cannot wrap.
        if (ActionPlanFlyweight.sizeOf(commandCount, textSize) != total) {
            return BAD_TOTAL_SIZE;
        }
        final int flags = b.readInt(at + ActionPlanFlyweight.FLAGS_OFFSET);
        if ((flags & ~ActionPlanFlyweight.KNOWN_FLAGS) != 0
            || b.readInt(at + ActionPlanFlyweight.RESERVED_OFFSET) != 0) {
            return BAD_FLAGS;
        }
        final long actionCount = b.readUnsignedInt(at + ActionPlanFlyweight.ACTION_COUNT_OFFSET);
        if (actionCount > AgentAbi.MAX_ACTIONS) {
            return BAD_ACTION_COUNT;
        }
        if ((flags & ActionPlanFlyweight.KEEP_HELD) != 0 && b.readLong(at + ActionPlanFlyweight.LEASE_ID_OFFSET) == 0) {
            return BAD_LEASE;
        }
        final long textStart = at + ActionPlanFlyweight.sizeOf(commandCount, 0);
        int lastIndex = 0;
        int lastEnded = -1;
        for (int i = 0; i < commandCount; i++) {
            command.wrap(b, at + ActionPlanFlyweight.COMMANDS_OFFSET + (long) i * PlanCommandFlyweight.LENGTH);
            final int op = command.op();
            if (!PlanOp.isKnown(op)) {
                return BAD_OP;
            }
            if (command.flags() != 0 || command.reserved() != 0) {
                return BAD_COMMAND_FLAGS;
            }
            final int actionIndex = command.actionIndex();
            if (actionIndex >= actionCount) {
                return BAD_ACTION_INDEX;
            }
            if (actionIndex < lastIndex || actionIndex <= lastEnded) {
                return BAD_ACTION_ORDER;
            }
            lastIndex = actionIndex;
            if (op == PlanOp.ACTION_END) {
                lastEnded = actionIndex;
            }
            final int verdict = checkArguments(b, op, textStart, textSize);
            if (verdict != VALID) {
                return verdict;
            }
        }
        return VALID;
    }

    /**
     * Validates a completion record of {@code length} bytes at {@code at}: the exact length, a
     * result of the ABI with a platform code in range, {@code completed_actions} ≤ MAX_ACTIONS,
     * {@code failed_action_index} below MAX_ACTIONS or none, {@code commands_executed} ≤
     * MAX_COMMANDS, reserved 0.
     */
    public int validateCompletion(final BytesStore<?, ?> b, final long at, final long length) {
        if (length != PlanCompletionFlyweight.LENGTH) {
            return BAD_LENGTH;
        }
        if (b.readLong(at + PlanCompletionFlyweight.PLAN_ID_OFFSET) == 0) {
            return BAD_PLAN_ID;
        }
        final int result = b.readInt(at + PlanCompletionFlyweight.RESULT_OFFSET);
        final int platformError = b.readInt(at + PlanCompletionFlyweight.PLATFORM_ERROR_OFFSET);
        if (result > ResultCode.OK || result < ResultCode.CAPACITY
            || platformError > ResultCode.PLATFORM_OK || platformError < ResultCode.PLATFORM_PERMISSION) {
            return BAD_RESULT;
        }
        final long completed = b.readUnsignedInt(at + PlanCompletionFlyweight.COMPLETED_ACTIONS_OFFSET);
        final long failed = b.readUnsignedInt(at + PlanCompletionFlyweight.FAILED_ACTION_INDEX_OFFSET);
        final long executed = b.readUnsignedInt(at + PlanCompletionFlyweight.COMMANDS_EXECUTED_OFFSET);
        if (completed > AgentAbi.MAX_ACTIONS || executed > ActionPlanFlyweight.MAX_COMMANDS
            || failed >= AgentAbi.MAX_ACTIONS && failed != AgentAbi.NO_FAILED_ACTION) {
            return BAD_PROGRESS;
        }
        if (b.readInt(at + PlanCompletionFlyweight.RESERVED_OFFSET) != 0) {
            return BAD_FLAGS;
        }
        return VALID;
    }

    /**
     * {@link Utf8#isStrict} with an ASCII fast path: wherever eight bytes in a row are ASCII
     * they are skipped at once; every other character is checked alone by {@link Utf8#isStrict}
     * (a character's validity depends only on its own bytes, and its length on its lead byte).
     * Typing text is mostly ASCII: a 1 KiB slice validates several times faster. Reads only
     * {@code [at, at + length)}.
     */
    static boolean isStrictUtf8(final BytesStore<?, ?> b, final long at, final long length) {
        long i = 0;
        while (i < length) {
            if (length - i >= Long.BYTES && (b.readLong(at + i) & 0x8080_8080_8080_8080L) == 0) {
                i += Long.BYTES;
                continue;
            }
            final int lead = b.readUnsignedByte(at + i);
            if (lead < 0x80) {
                i++;
                continue;
            }
            if (lead < 0xC0) {
                return false; // a continuation byte where a character should start
            }
            final int n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
            if (n > length - i || !Utf8.isStrict(b, at + i, n)) {
                return false;
            }
            i += n;
        }
        return true;
    }

    private int checkArguments(final BytesStore<?, ?> b, final int op, final long textStart, final long textSize) {
        final int a = command.a();
        final int bArg = command.b();
        final long c = command.c();
        final long d = command.d();
        // d: the duration of a timed MOVE, SCROLL or BUTTON_DOWN (PlanOp), 0 for every other op
        if (d != 0 && (op != PlanOp.MOVE && op != PlanOp.SCROLL && op != PlanOp.BUTTON_DOWN
            || d < 0 || d > AgentAbi.MAX_ACTION_DURATION_NS)) {
            return BAD_ARGUMENT;
        }
        switch (op) {
            case PlanOp.MOVE:
                return c == 0 ? VALID : BAD_ARGUMENT;
            case PlanOp.BUTTON_DOWN:
            case PlanOp.BUTTON_UP:
                return (a == Button.LEFT || a == Button.RIGHT || a == Button.MIDDLE) && bArg == 0 && c == 0
                    ? VALID : BAD_ARGUMENT;
            case PlanOp.KEY_DOWN:
            case PlanOp.KEY_UP:
                return a > 0 && a <= 0xFFFF && bArg == 0 && c == 0 ? VALID : BAD_ARGUMENT;
            case PlanOp.MODIFIERS_DOWN:
            case PlanOp.MODIFIERS_UP:
                return a != 0 && (a & ~Modifier.ALL) == 0 && bArg == 0 && c == 0 ? VALID : BAD_ARGUMENT;
            case PlanOp.SCROLL:
                return (a != 0 || bArg != 0) && c == 0 ? VALID : BAD_ARGUMENT;
            case PlanOp.TEXT: {
                // c: the window the text is for (0: whichever has focus); any value is valid
                final long sliceOffset = command.textOffset();
                final long sliceLength = command.textLength();
                if (sliceLength == 0 || sliceOffset > textSize || sliceLength > textSize - sliceOffset) {
                    return BAD_TEXT_SLICE;
                }
                return isStrictUtf8(b, textStart + sliceOffset, sliceLength) ? VALID : BAD_TEXT_ENCODING;
            }
            case PlanOp.WINDOW_ACTIVATE:
                return a == 0 && bArg == 0 ? VALID : BAD_ARGUMENT;
            case PlanOp.WINDOW_CYCLE:
                return (a == 0 || a == PlanOp.CYCLE_BACKWARD) && bArg == 0 && c == 0 ? VALID : BAD_ARGUMENT;
            case PlanOp.RELEASE_ALL:
            case PlanOp.ACTION_END:
                return a == 0 && bArg == 0 && c == 0 ? VALID : BAD_ARGUMENT;
            default:
                return BAD_OP;
        }
    }
}
