package dev.saccade.owner.action;

import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionRules;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.PhysicalStateFlyweight;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.PreconditionsFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.Utf8;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The per-action rules of §5.8 that depend on nothing but their arguments: the preconditions of
 * §5.7.1, rule A (shape), B (capability), D (plan), the record part of F and what §5.9 refuses
 * before any event. {@link ActionPlanner} applies them in the spec's order between reading the
 * scene and dispatching; each answers {@link ResultCode#OK} or the row's result. Stateless, no
 * allocation.
 */
final class ActionChecks {
    private ActionChecks() {
    }

    /** §5.7.1: only the flagged preconditions. */
    static boolean preconditionsHold(final PreconditionsFlyweight p, final ScenePacket scene,
        final PhysicalStateFlyweight state) {
        return preconditionsHold(p, scene, state, scene.processId(), scene.windowId());
    }

    /**
     * §5.7.1 with PROCESS and WINDOW compared against {@code processId} and {@code windowId}: the
     * foreground's, or the named window's for an EXPLICIT_WINDOW batch (§5.14).
     */
    static boolean preconditionsHold(final PreconditionsFlyweight p, final ScenePacket scene,
        final PhysicalStateFlyweight state, final long processId, final long windowId) {
        final int f = p.flags();
        return ((f & PreconditionFlag.GENERATION) == 0 || p.generation() == scene.sceneEpoch())
            && ((f & PreconditionFlag.PROCESS) == 0 || p.processId() == processId)
            && ((f & PreconditionFlag.WINDOW) == 0 || p.windowId() == windowId)
            && ((f & PreconditionFlag.DISPLAY) == 0 || p.displayId() == scene.displayId())
            && ((f & PreconditionFlag.TRANSFORM) == 0 || p.transformEpoch() == scene.transformEpoch())
            && ((f & PreconditionFlag.PERMISSION) == 0 || p.permissionEpoch() == scene.permissionEpoch())
            && ((f & PreconditionFlag.PHYSICAL_STATE) == 0
                || (p.expectedButtons() == state.buttons() && p.expectedModifiers() == state.modifiers()
                    && p.physicalSequence() == state.physicalSequence()));
    }

    /** Rule A for a message of the base version, where every duration is refused (D1). */
    static int shape(final ActionFlyweight a, final int helloFlags) {
        return shape(a, helloFlags, false);
    }

    /** Rule A for a connection of API 0x00010002 ({@code minor2}): a kind with a target may also carry its window flags (§5.14). */
    static int shape(final ActionFlyweight a, final int helloFlags, final boolean minor2) {
        final int kind = a.kind();
        final int allowedFlags = ActionRules.allowedFlags(kind);
        final int windowFlags = minor2 && ActionRules.targets(kind) >= 1 ? ActionFlag.WINDOW_FLAGS : 0;
        if (allowedFlags < 0 || !durationAllowed(kind, a.durationNs(), minor2) || (a.flags() & ~(allowedFlags | windowFlags)) != 0
            || (ActionKind.semantic(kind) && (helloFlags & HelloFlag.SEMANTIC_ACTIONS) == 0)
            || (kind == ActionKind.TEXT ? a.payloadSize() == 0 : !ActionKind.semantic(kind) && a.payloadSize() != 0)
            || ((kind == ActionKind.ABORT || kind == ActionKind.QUERY_PHYSICAL_STATE)
                && (a.targetId() != 0 || a.secondaryTargetId() != 0))) {
            return ResultCode.ACTION_UNSUPPORTED;
        }
        return ResultCode.OK;
    }

    /**
     * §5.15: a duration (u64) is 0, or at most {@link AgentAbi#MAX_ACTION_DURATION_NS} on a kind
     * that moves, drags, selects, holds or scrolls, from a connection that speaks 0x00010002 (D39).
     */
    static boolean durationAllowed(final int kind, final long durationNs, final boolean minor2) {
        if (durationNs == 0) {
            return true;
        }
        return minor2
            && Long.compareUnsigned(durationNs, AgentAbi.MAX_ACTION_DURATION_NS) <= 0
            && (kind == ActionKind.POINTER_MOVE || kind == ActionKind.POINTER_HOVER || kind == ActionKind.DRAG_DROP
                || kind == ActionKind.TEXT_SELECT || kind == ActionKind.HOLD || kind == ActionKind.SCROLL);
    }

    /** Rule B: the batch's requested set is available ∩ batch.requested_capability_bits (§5.1). */
    static int capability(final int kind, final int available, final int batchRequested) {
        final int needed = ActionRules.capability(kind);
        return (needed & available & batchRequested) != needed ? ResultCode.CAPABILITY_DENIED : ResultCode.OK;
    }

    /**
     * Rule D, plan: INVALID_MESSAGE, or OK. {@code payloadBase} is the absolute offset of the
     * batch's payload area in {@code bytes}, {@code payloadSize} its size; {@code heldButtons} and
     * {@code heldLease} what the batch's earlier actions left (D13).
     */
    static int plan(final ActionFlyweight a, final BytesStore<?, ?> bytes, final long payloadBase, final long payloadSize,
        final int heldButtons, final long heldLease, final long leaseId) {
        final int kind = a.kind();
        final long repeat = a.repeatCount() == 0 ? 1 : a.repeatCount();
        if (repeat > AgentAbi.MAX_REPEAT_COUNT || (a.modifiers() & ~Modifier.ALL) != 0) {
            return ResultCode.INVALID_MESSAGE;
        }
        final int targets = ActionRules.targets(kind);
        if ((targets >= 1) != (a.targetId() != 0) || (targets == 2) != (a.secondaryTargetId() != 0)
            || (targets == 0 && (a.targetId() != 0 || a.secondaryTargetId() != 0))) {
            return ResultCode.INVALID_MESSAGE;
        }
        final int button = a.buttonBits();
        if (ActionRules.needsOneButton(kind) && button != Button.LEFT && button != Button.RIGHT && button != Button.MIDDLE) {
            return ResultCode.INVALID_MESSAGE;
        }
        if (kind == ActionKind.RELEASE ? (heldButtons & button) == 0
            : ActionRules.needsOneButton(kind) && (heldButtons & button) != 0
                && (heldLease == 0 || heldLease == leaseId)) {
            // RELEASE of a button not held; HOLD, CLICK, DRAG… of one this connection holds would press
            // it a second time (D13). Another connection's hold is the lease rule's STALE_GENERATION (§5.11).
            return ResultCode.INVALID_MESSAGE;
        }
        if ((kind == ActionKind.KEY || kind == ActionKind.KEY_CHORD) && a.keyUsage() == 0) {
            return ResultCode.INVALID_MESSAGE;
        }
        if (kind == ActionKind.SCROLL && a.deltaXQ8() == 0 && a.deltaYQ8() == 0) {
            return ResultCode.INVALID_MESSAGE;
        }
        if (a.payloadSize() != 0) { // TEXT, SET_VALUE, SELECT with an index (rule A)
            final long off = a.payloadOffset();
            final long size = a.payloadSize();
            if (off > payloadSize || size > payloadSize - off || size > AgentAbi.MAX_TEXT_BYTES) {
                return ResultCode.INVALID_MESSAGE;
            }
        }
        final long at = payloadBase + a.payloadOffset();
        if (valueNumber(a) && Double.isNaN(SemanticPayload.number(bytes, at, a.payloadSize()))
            || kind == ActionKind.SELECT && a.payloadSize() != 0 && SemanticPayload.index(bytes, at, a.payloadSize()) < 0) {
            return ResultCode.INVALID_MESSAGE;
        }
        return ResultCode.OK;
    }

    /** TEXT with FILL: the text goes through the application's EditableText and is read back (D48). */
    static boolean fill(final ActionFlyweight a) {
        return a.kind() == ActionKind.TEXT && (a.flags() & ActionFlag.FILL) != 0;
    }

    /** SET_VALUE with VALUE_NUMBER: a number for the Value interface. */
    static boolean valueNumber(final ActionFlyweight a) {
        return a.kind() == ActionKind.SET_VALUE && (a.flags() & ActionFlag.VALUE_NUMBER) != 0;
    }

    /** The capability rule F asks of the first target: the kind's, none for a number to set. */
    static int firstTargetCapability(final ActionFlyweight a) {
        return valueNumber(a) ? 0 : ActionRules.firstTargetCapability(a.kind());
    }

    /**
     * Rule F on a target's record: SECURE → SECURE_SURFACE (D7); not ACTIONABLE, DISABLED,
     * OCCLUDED or lacking {@code capability} → TARGET_NOT_FOUND; else OK.
     */
    static int target(final int flags, final int capabilityBits, final int capability) {
        if ((flags & TargetFlag.SECURE) != 0) {
            return ResultCode.SECURE_SURFACE; // D7
        }
        if ((flags & TargetFlag.ACTIONABLE) == 0 || (flags & (TargetFlag.DISABLED | TargetFlag.OCCLUDED)) != 0
            || (capabilityBits & capability) != capability) {
            return ResultCode.TARGET_NOT_FOUND;
        }
        return ResultCode.OK;
    }

    /**
     * What §5.9 refuses before any event (rule H): a key usage the backend cannot map, a text that
     * is not strict UTF-8 (TEXT, SET_VALUE's text) → ACTION_UNSUPPORTED; else OK.
     */
    static int beforeDispatch(final ActionFlyweight a, final BytesStore<?, ?> bytes, final long payloadAt) {
        final int kind = a.kind();
        if ((kind == ActionKind.KEY || kind == ActionKind.KEY_CHORD) && !ActionRules.acceptedUsage((int) a.keyUsage())) {
            return ResultCode.ACTION_UNSUPPORTED;
        }
        if ((kind == ActionKind.TEXT || kind == ActionKind.SET_VALUE && !valueNumber(a))
            && !Utf8.isStrict(bytes, payloadAt, a.payloadSize())) {
            return ResultCode.ACTION_UNSUPPORTED;
        }
        return ResultCode.OK;
    }
}
