package dev.saccade.cli;

import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.PreconditionsFlyweight;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Writes an ActionBatch with one action (spec §3, §4.4) through the protocol flyweights into a
 * buffer, normally {@code AgentClient.requestStore()} at {@code requestOffset()}:
 * <pre>
 *   0          136        216                 216 + text
 *   | batch    | action   | payload (TEXT)    |
 *              ^ actions_offset, stride 80
 *                         ^ payload_offset; the action's payload_offset is 0 (relative)
 * </pre>
 * {@code total_size} is the frame length. Values are written as given: {@code ActCommand}
 * checks them against the kind first, so that a bad command line is a usage error and not a row
 * the service rejects, and never a batch it disconnects for (§4.4 #2, #3).
 */
public final class ActionBatchBuilder {
    static final int ACTIONS_OFFSET = ActionBatchFlyweight.LENGTH;
    static final int PAYLOAD_OFFSET = ACTIONS_OFFSET + ActionFlyweight.LENGTH;
    /** The largest batch this builder writes: one action and the longest text. */
    static final int MAX_LENGTH = PAYLOAD_OFFSET + AgentAbi.MAX_TEXT_BYTES;

    private final ActionBatchFlyweight batch = new ActionBatchFlyweight();
    private final ActionFlyweight action = new ActionFlyweight();

    private long requestId;
    private int headerFlags;
    private int policy = AgentAbi.POLICY_STOP_ON_FAILURE;
    private long deadlineNs;

    private int preconditionFlags;
    private int expectedButtons;
    private int expectedModifiers;
    private long generation;
    private long processId;
    private long windowId;
    private long displayId;
    private long transformEpoch;
    private long permissionEpoch;
    private long physicalSequence;

    private int kind;
    private int actionFlags;
    private long targetId;
    private long secondaryTargetId;
    private int pointXQ8;
    private int pointYQ8;
    private int secondaryPointXQ8;
    private int secondaryPointYQ8;
    private int buttonBits;
    private int modifiers;
    private long keyUsage;
    private long repeatCount;
    private int deltaXQ8;
    private int deltaYQ8;
    private byte[] text;

    public ActionBatchBuilder requestId(final long value) {
        requestId = value;
        return this;
    }

    /** DRY_RUN: every check runs, no input is emitted (§5.12). */
    public ActionBatchBuilder dryRun(final boolean value) {
        headerFlags = value ? headerFlags | AgentAbi.FLAG_DRY_RUN : headerFlags & ~AgentAbi.FLAG_DRY_RUN;
        return this;
    }

    /** VERIFY_NEXT_GENERATION (§5.12); the connection then needs OBSERVE ({@link #helloCapabilities()}). */
    public ActionBatchBuilder verify(final boolean value) {
        headerFlags = value ? headerFlags | AgentAbi.FLAG_VERIFY_NEXT_GENERATION
            : headerFlags & ~AgentAbi.FLAG_VERIFY_NEXT_GENERATION;
        return this;
    }

    public ActionBatchBuilder policy(final int value) {
        policy = value;
        return this;
    }

    /** Monotonic clock (System.nanoTime(), CLOCK_MONOTONIC on Linux, the service's clock). */
    public ActionBatchBuilder deadlineNs(final long value) {
        deadlineNs = value;
        return this;
    }

    long deadlineNs() {
        return deadlineNs;
    }

    public ActionBatchBuilder expectGeneration(final long value) {
        preconditionFlags |= PreconditionFlag.GENERATION;
        generation = value;
        return this;
    }

    public ActionBatchBuilder expectProcess(final long value) {
        preconditionFlags |= PreconditionFlag.PROCESS;
        processId = value;
        return this;
    }

    public ActionBatchBuilder expectWindow(final long value) {
        preconditionFlags |= PreconditionFlag.WINDOW;
        windowId = value;
        return this;
    }

    public ActionBatchBuilder expectDisplay(final long value) {
        preconditionFlags |= PreconditionFlag.DISPLAY;
        displayId = value;
        return this;
    }

    public ActionBatchBuilder expectTransform(final long value) {
        preconditionFlags |= PreconditionFlag.TRANSFORM;
        transformEpoch = value;
        return this;
    }

    public ActionBatchBuilder expectPermission(final long value) {
        preconditionFlags |= PreconditionFlag.PERMISSION;
        permissionEpoch = value;
        return this;
    }

    /** PHYSICAL_STATE: all three must equal the service's physical state (§5.7). */
    public ActionBatchBuilder expectPhysicalState(final int buttons, final int heldModifiers, final long sequence) {
        preconditionFlags |= PreconditionFlag.PHYSICAL_STATE;
        expectedButtons = buttons;
        expectedModifiers = heldModifiers;
        physicalSequence = sequence;
        return this;
    }

    public ActionBatchBuilder kind(final int value) {
        kind = value;
        return this;
    }

    int kind() {
        return kind;
    }

    public ActionBatchBuilder target(final long value) {
        targetId = value;
        return this;
    }

    public ActionBatchBuilder secondaryTarget(final long value) {
        secondaryTargetId = value;
        return this;
    }

    /** EXPLICIT_POINTS with these points (Q8) instead of the targets' safe points. */
    public ActionBatchBuilder points(final PointArgument point, final PointArgument secondaryPoint) {
        actionFlags |= ActionFlag.EXPLICIT_POINTS;
        pointXQ8 = point.xQ8();
        pointYQ8 = point.yQ8();
        if (secondaryPoint != null) {
            secondaryPointXQ8 = secondaryPoint.xQ8();
            secondaryPointYQ8 = secondaryPoint.yQ8();
        }
        return this;
    }

    /** WINDOW_CYCLE: CYCLE_BACKWARD. */
    public ActionBatchBuilder backward(final boolean value) {
        actionFlags = value ? actionFlags | ActionFlag.CYCLE_BACKWARD : actionFlags & ~ActionFlag.CYCLE_BACKWARD;
        return this;
    }

    public ActionBatchBuilder button(final int value) {
        buttonBits = value;
        return this;
    }

    public ActionBatchBuilder modifiers(final int value) {
        modifiers = value;
        return this;
    }

    public ActionBatchBuilder keyUsage(final long value) {
        keyUsage = value;
        return this;
    }

    public ActionBatchBuilder repeat(final long value) {
        repeatCount = value;
        return this;
    }

    public ActionBatchBuilder deltasQ8(final int dxQ8, final int dyQ8) {
        deltaXQ8 = dxQ8;
        deltaYQ8 = dyQ8;
        return this;
    }

    /** TEXT's payload: strict UTF-8, 1..16,384 bytes (§5.10). */
    public ActionBatchBuilder text(final byte[] utf8) {
        text = utf8;
        return this;
    }

    /** What the batch asks for: exactly the capability of its action (§5.1, §5.8 "Cap"). */
    int requestedCapabilities() {
        return ActionRules.capability(kind);
    }

    /** What Hello asks for: the batch's set, and OBSERVE when it verifies (§4.4 #4, §5.12). */
    int helloCapabilities() {
        return requestedCapabilities()
            | ((headerFlags & AgentAbi.FLAG_VERIFY_NEXT_GENERATION) != 0 ? Capability.OBSERVE : 0);
    }

    /** Writes the batch at {@code at}; returns its frame length (= total_size). */
    public int writeTo(final BytesStore<?, ?> store, final long at) {
        final int payloadSize = text == null ? 0 : text.length;
        final int length = PAYLOAD_OFFSET + payloadSize;
        final ActionBatchFlyweight b = batch.wrap(store, at).clear();
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, headerFlags);
        b.requestId(requestId)
            .requestedCapabilityBits(requestedCapabilities())
            .policy(policy)
            .deadlineNs(deadlineNs)
            .actionCount(1)
            .actionStride(ActionFlyweight.LENGTH)
            .actionsOffset(ACTIONS_OFFSET)
            .payloadOffset(PAYLOAD_OFFSET)
            .payloadSize(payloadSize)
            .totalSize(length);
        final PreconditionsFlyweight p = b.preconditions();
        p.flags(preconditionFlags)
            .expectedButtons(expectedButtons)
            .expectedModifiers(expectedModifiers)
            .generation(generation)
            .processId(processId)
            .windowId(windowId)
            .displayId(displayId)
            .transformEpoch(transformEpoch)
            .permissionEpoch(permissionEpoch)
            .physicalSequence(physicalSequence);
        action.wrap(store, at + ACTIONS_OFFSET).clear()
            .kind(kind)
            .flags(actionFlags)
            .targetId(targetId)
            .secondaryTargetId(secondaryTargetId)
            .point(pointXQ8, pointYQ8)
            .secondaryPoint(secondaryPointXQ8, secondaryPointYQ8)
            .buttonBits(buttonBits)
            .modifiers(modifiers)
            .keyUsage(keyUsage)
            .repeatCount(repeatCount)
            .deltaXQ8(deltaXQ8)
            .deltaYQ8(deltaYQ8)
            .durationNs(0) // D1: timed actions are not in this version
            .payloadOffset(0)
            .payloadSize(payloadSize);
        if (payloadSize != 0) {
            store.write(at + PAYLOAD_OFFSET, text, 0, payloadSize);
        }
        return length;
    }
}
