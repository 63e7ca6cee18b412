package dev.saccade.client;

import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionRules;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.PreconditionsFlyweight;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Writes an ActionBatch of one to {@value AgentAbi#MAX_ACTIONS} actions (§3, §4.4) through the
 * protocol flyweights into a buffer, normally {@code AgentClient.requestStore()} at
 * {@code requestOffset()}:
 * <pre>
 *   0          136                     136 + 80 n           + texts
 *   | batch    | action 0 | … | n - 1  | payload (TEXTs)    |
 *              ^ actions_offset, stride 80
 *                                      ^ payload_offset; each action's payload_offset is relative to it
 * </pre>
 * The action setters shape the <em>current</em> action; {@link #nextAction()} starts another.
 * {@code total_size} is the frame length. Values are written as given: callers check them
 * against the kind first, so that a bad argument is their usage error and not a row the service
 * rejects, and never a batch it disconnects for (§4.4 #2, #3).
 */
public final class ActionBatchBuilder {
    public static final int ACTIONS_OFFSET = ActionBatchFlyweight.LENGTH;
    /** Where the payload of a one-action batch starts. */
    public static final int PAYLOAD_OFFSET = ACTIONS_OFFSET + ActionFlyweight.LENGTH;
    /** The largest one-action batch: one action and the longest text. */
    public static final int MAX_LENGTH = PAYLOAD_OFFSET + AgentAbi.MAX_TEXT_BYTES;

    private static final int MAX = AgentAbi.MAX_ACTIONS;

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

    /** The action the setters shape; the batch holds actions 0..current. */
    private int current;
    private final int[] kind = new int[MAX];
    private final int[] actionFlags = new int[MAX];
    private final long[] targetId = new long[MAX];
    private final long[] secondaryTargetId = new long[MAX];
    private final int[] pointXQ8 = new int[MAX];
    private final int[] pointYQ8 = new int[MAX];
    private final int[] secondaryPointXQ8 = new int[MAX];
    private final int[] secondaryPointYQ8 = new int[MAX];
    private final int[] buttonBits = new int[MAX];
    private final int[] modifiers = new int[MAX];
    private final long[] keyUsage = new long[MAX];
    private final long[] repeatCount = new long[MAX];
    private final int[] deltaXQ8 = new int[MAX];
    private final int[] deltaYQ8 = new int[MAX];
    private final long[] durationNs = new long[MAX];
    private final byte[][] text = new byte[MAX][];

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

    public long deadlineNs() {
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

    /**
     * Ends the current action and starts the next one, empty.
     *
     * @throws IllegalStateException past {@value AgentAbi#MAX_ACTIONS} actions (§4.4 #2).
     */
    public ActionBatchBuilder nextAction() {
        if (current + 1 >= MAX) {
            throw new IllegalStateException("a batch holds at most " + MAX + " actions");
        }
        clear(++current);
        return this;
    }

    /** Forgets every action: the batch holds one empty action again; batch fields stay. */
    public ActionBatchBuilder clearActions() {
        for (int i = 0; i <= current; i++) {
            clear(i);
        }
        current = 0;
        return this;
    }

    /** How many actions the batch holds. */
    public int actionCount() {
        return current + 1;
    }

    public ActionBatchBuilder kind(final int value) {
        kind[current] = value;
        return this;
    }

    /** The current action's kind. */
    public int kind() {
        return kind[current];
    }

    public ActionBatchBuilder target(final long value) {
        targetId[current] = value;
        return this;
    }

    public ActionBatchBuilder secondaryTarget(final long value) {
        secondaryTargetId[current] = value;
        return this;
    }

    /** EXPLICIT_POINTS with these points (Q8) instead of the targets' safe points. */
    public ActionBatchBuilder points(final Q8Point point, final Q8Point secondaryPoint) {
        actionFlags[current] |= ActionFlag.EXPLICIT_POINTS;
        pointXQ8[current] = point.xQ8();
        pointYQ8[current] = point.yQ8();
        if (secondaryPoint != null) {
            secondaryPointXQ8[current] = secondaryPoint.xQ8();
            secondaryPointYQ8[current] = secondaryPoint.yQ8();
        }
        return this;
    }

    /**
     * TEXT: FILL, the text replaces the target's whole text through the application's
     * accessibility interface and is read back (D48).
     */
    public ActionBatchBuilder fill(final boolean value) {
        actionFlags[current] = value ? actionFlags[current] | ActionFlag.FILL : actionFlags[current] & ~ActionFlag.FILL;
        return this;
    }

    /** WINDOW_CYCLE: CYCLE_BACKWARD. */
    public ActionBatchBuilder backward(final boolean value) {
        actionFlags[current] = value ? actionFlags[current] | ActionFlag.CYCLE_BACKWARD
            : actionFlags[current] & ~ActionFlag.CYCLE_BACKWARD;
        return this;
    }

    /**
     * API 0x00010002 (§5.14): EXPLICIT_WINDOW, resolve against the window the WINDOW
     * precondition names; the client must speak that version.
     */
    public ActionBatchBuilder explicitWindow(final boolean value) {
        actionFlags[current] = value ? actionFlags[current] | ActionFlag.EXPLICIT_WINDOW
            : actionFlags[current] & ~ActionFlag.EXPLICIT_WINDOW;
        return this;
    }

    /** API 0x00010002 (§5.14): ALLOW_ACTIVATION, a background window may be activated for input. */
    public ActionBatchBuilder allowActivation(final boolean value) {
        actionFlags[current] = value ? actionFlags[current] | ActionFlag.ALLOW_ACTIVATION
            : actionFlags[current] & ~ActionFlag.ALLOW_ACTIVATION;
        return this;
    }

    /** SET_VALUE: VALUE_NUMBER, the payload is a decimal number for the Value interface (§5.8). */
    public ActionBatchBuilder valueNumber(final boolean value) {
        actionFlags[current] = value ? actionFlags[current] | ActionFlag.VALUE_NUMBER
            : actionFlags[current] & ~ActionFlag.VALUE_NUMBER;
        return this;
    }

    public ActionBatchBuilder button(final int value) {
        buttonBits[current] = value;
        return this;
    }

    public ActionBatchBuilder modifiers(final int value) {
        modifiers[current] = value;
        return this;
    }

    public ActionBatchBuilder keyUsage(final long value) {
        keyUsage[current] = value;
        return this;
    }

    public ActionBatchBuilder repeat(final long value) {
        repeatCount[current] = value;
        return this;
    }

    public ActionBatchBuilder deltasQ8(final int dxQ8, final int dyQ8) {
        deltaXQ8[current] = dxQ8;
        deltaYQ8[current] = dyQ8;
        return this;
    }

    /**
     * The current action's duration (§5.15): move time of a move, drag or selection, lease time of
     * a hold or scroll; 0, the default, acts at once. Only a client that speaks 0x00010002
     * ({@link AgentClient#apiVersion(int)}, D39) may send one; the base version refuses it (D1).
     */
    public ActionBatchBuilder durationNs(final long value) {
        durationNs[current] = value;
        return this;
    }

    /** TEXT's payload: strict UTF-8, 1..16,384 bytes (§5.10); SET_VALUE's value, SELECT's index (§5.8). */
    public ActionBatchBuilder text(final byte[] utf8) {
        text[current] = utf8;
        return this;
    }

    /** What the batch asks for: exactly the capabilities of its actions (§5.1, §5.8 "Cap"). */
    public int requestedCapabilities() {
        int bits = 0;
        for (int i = 0; i <= current; i++) {
            bits |= ActionRules.capability(kind[i]);
        }
        return bits;
    }

    /** What Hello asks for: the batch's set, and OBSERVE when it verifies (§4.4 #4, §5.12). */
    public int helloCapabilities() {
        return requestedCapabilities()
            | ((headerFlags & AgentAbi.FLAG_VERIFY_NEXT_GENERATION) != 0 ? Capability.OBSERVE : 0);
    }

    /** Writes the batch at {@code at}; returns its frame length (= total_size). */
    public int writeTo(final BytesStore<?, ?> store, final long at) {
        final int count = current + 1;
        final int payloadOffset = ACTIONS_OFFSET + count * ActionFlyweight.LENGTH;
        int payloadSize = 0;
        for (int i = 0; i < count; i++) {
            payloadSize += text[i] == null ? 0 : text[i].length;
        }
        final int length = payloadOffset + payloadSize;
        final ActionBatchFlyweight b = batch.wrap(store, at).clear();
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, headerFlags);
        b.requestId(requestId)
            .requestedCapabilityBits(requestedCapabilities())
            .policy(policy)
            .deadlineNs(deadlineNs)
            .actionCount(count)
            .actionStride(ActionFlyweight.LENGTH)
            .actionsOffset(ACTIONS_OFFSET)
            .payloadOffset(payloadOffset)
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
        int payloadAt = 0;
        for (int i = 0; i < count; i++) {
            final int size = text[i] == null ? 0 : text[i].length;
            action.wrap(store, at + ACTIONS_OFFSET + (long) i * ActionFlyweight.LENGTH).clear()
                .kind(kind[i])
                .flags(actionFlags[i])
                .targetId(targetId[i])
                .secondaryTargetId(secondaryTargetId[i])
                .point(pointXQ8[i], pointYQ8[i])
                .secondaryPoint(secondaryPointXQ8[i], secondaryPointYQ8[i])
                .buttonBits(buttonBits[i])
                .modifiers(modifiers[i])
                .keyUsage(keyUsage[i])
                .repeatCount(repeatCount[i])
                .deltaXQ8(deltaXQ8[i])
                .deltaYQ8(deltaYQ8[i])
                .durationNs(durationNs[i]) // 0 unless set: a minor-2 connection's timed action (D43)
                .payloadOffset(size == 0 ? 0 : payloadAt)
                .payloadSize(size);
            if (size != 0) {
                store.write(at + payloadOffset + payloadAt, text[i], 0, size);
                payloadAt += size;
            }
        }
        return length;
    }

    private void clear(final int i) {
        kind[i] = 0;
        actionFlags[i] = 0;
        targetId[i] = 0;
        secondaryTargetId[i] = 0;
        pointXQ8[i] = 0;
        pointYQ8[i] = 0;
        secondaryPointXQ8[i] = 0;
        secondaryPointYQ8[i] = 0;
        buttonBits[i] = 0;
        modifiers[i] = 0;
        keyUsage[i] = 0;
        repeatCount[i] = 0;
        deltaXQ8[i] = 0;
        deltaYQ8[i] = 0;
        durationNs[i] = 0;
        text[i] = null;
    }

    @Override
    public String toString() {
        return "ActionBatchBuilder[request " + Long.toUnsignedString(requestId) + ", kinds "
            + Arrays.toString(Arrays.copyOf(kind, current + 1)) + "]";
    }
}
