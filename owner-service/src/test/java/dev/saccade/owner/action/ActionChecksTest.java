package dev.saccade.owner.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/**
 * §5.8's per-action rules as pure logic: each check on one action record and its payload, with
 * the answer the row gets. Rule order and the scene-dependent parts are ActionPlannerTest's.
 */
class ActionChecksTest {
    private static final int PAYLOAD_AT = ActionFlyweight.LENGTH;
    private final BytesStore<?, byte[]> bytes = BytesStore.wrap(new byte[ActionFlyweight.LENGTH + 64]);
    private final ActionFlyweight a = new ActionFlyweight().wrap(bytes, 0);

    /** An action with {@code payload} at offset 0 of the payload area. */
    private ActionFlyweight action(final Consumer<ActionFlyweight> shape, final String payload) {
        final byte[] p = payload.getBytes(StandardCharsets.UTF_8);
        bytes.zeroOut(0, bytes.capacity());
        bytes.write(PAYLOAD_AT, p, 0, p.length);
        a.clear().payloadSize(p.length);
        shape.accept(a);
        return a;
    }

    private int plan(final ActionFlyweight x) {
        return ActionChecks.plan(x, bytes, PAYLOAD_AT, 64, 0, 0, 77);
    }

    @Test
    void aDurationIsAcceptedOnlyFromAMinorTwoConnectionOnTheKindsThatTakeOne() {
        final boolean timed = true; // a connection of 0x00010002
        final long max = AgentAbi.MAX_ACTION_DURATION_NS;
        // D1 for the base version, whatever the kind
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.shape(action(x -> x.kind(ActionKind.DRAG_DROP)
            .durationNs(1), ""), 0, false));
        for (final int kind : new int[] {ActionKind.POINTER_MOVE, ActionKind.POINTER_HOVER, ActionKind.DRAG_DROP,
            ActionKind.TEXT_SELECT, ActionKind.HOLD, ActionKind.SCROLL}) {
            assertEquals(ResultCode.OK, ActionChecks.shape(action(x -> x.kind(kind).durationNs(max), ""), 0, timed));
            assertEquals(ResultCode.ACTION_UNSUPPORTED,
                ActionChecks.shape(action(x -> x.kind(kind).durationNs(max + 1), ""), 0, timed), "over 60 s");
            assertEquals(ResultCode.ACTION_UNSUPPORTED,
                ActionChecks.shape(action(x -> x.kind(kind).durationNs(-1L), ""), 0, timed), "u64 above 60 s");
        }
        for (final int kind : new int[] {ActionKind.CLICK, ActionKind.INVOKE, ActionKind.KEY, ActionKind.RELEASE,
            ActionKind.ABORT, ActionKind.QUERY_PHYSICAL_STATE, ActionKind.WINDOW_ACTIVATE}) {
            assertEquals(ResultCode.ACTION_UNSUPPORTED,
                ActionChecks.shape(action(x -> x.kind(kind).durationNs(1), ""), 0, timed), "kind " + kind);
        }
        assertEquals(ResultCode.OK, ActionChecks.shape(action(x -> x.kind(ActionKind.CLICK).targetId(1), ""), 0, timed));
    }

    @Test
    void ruleARefusesWhatHasNoShape() {
        assertEquals(ResultCode.OK, ActionChecks.shape(action(x -> x.kind(ActionKind.CLICK).targetId(1), ""), 0));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.shape(action(x -> x.kind(99), ""), 0));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.shape(action(x -> x.kind(ActionKind.CLICK).durationNs(1), ""), 0));
        assertEquals(ResultCode.ACTION_UNSUPPORTED,
            ActionChecks.shape(action(x -> x.kind(ActionKind.KEY).flags(ActionFlag.EXPLICIT_POINTS), ""), 0));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.shape(action(x -> x.kind(ActionKind.TEXT), ""), 0));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.shape(action(x -> x.kind(ActionKind.CLICK), "x"), 0));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.shape(action(x -> x.kind(ActionKind.ABORT).targetId(1), ""), 0));
        // the semantic kinds exist only for a connection that asked for them (D25)
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.shape(action(x -> x.kind(ActionKind.SET_VALUE), "v"), 0));
        assertEquals(ResultCode.OK, ActionChecks.shape(action(x -> x.kind(ActionKind.SET_VALUE), "v"), HelloFlag.SEMANTIC_ACTIONS));
        assertEquals(ResultCode.OK, ActionChecks.shape(action(x -> x.kind(ActionKind.SELECT), ""), HelloFlag.SEMANTIC_ACTIONS));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.shape(action(x -> x.kind(ActionKind.SELECT)
            .flags(ActionFlag.VALUE_NUMBER), ""), HelloFlag.SEMANTIC_ACTIONS));
    }

    @Test
    void ruleBNeedsTheKindsCapabilityInBothSets() {
        assertEquals(ResultCode.OK, ActionChecks.capability(ActionKind.CLICK, Capability.POINTER, Capability.POINTER));
        assertEquals(ResultCode.CAPABILITY_DENIED, ActionChecks.capability(ActionKind.CLICK, Capability.POINTER, 0));
        assertEquals(ResultCode.CAPABILITY_DENIED,
            ActionChecks.capability(ActionKind.TEXT, Capability.POINTER | Capability.KEYBOARD, Capability.POINTER));
        assertEquals(ResultCode.OK, ActionChecks.capability(ActionKind.QUERY_PHYSICAL_STATE, Capability.OBSERVE, -1));
    }

    @Test
    void ruleDRefusesWhatCannotBePlanned() {
        assertEquals(ResultCode.OK, plan(action(x -> x.kind(ActionKind.CLICK).targetId(1).buttonBits(Button.LEFT), "")));
        assertEquals(ResultCode.INVALID_MESSAGE,
            plan(action(x -> x.kind(ActionKind.CLICK).targetId(1).buttonBits(Button.LEFT).repeatCount(17), "")));
        assertEquals(ResultCode.INVALID_MESSAGE,
            plan(action(x -> x.kind(ActionKind.KEY).keyUsage(4).modifiers(Modifier.ALL + 1), "")));
        assertEquals(ResultCode.INVALID_MESSAGE, plan(action(x -> x.kind(ActionKind.CLICK).buttonBits(Button.LEFT), "")));
        assertEquals(ResultCode.INVALID_MESSAGE, plan(action(x -> x.kind(ActionKind.KEY).keyUsage(4).targetId(1), "")));
        assertEquals(ResultCode.INVALID_MESSAGE,
            plan(action(x -> x.kind(ActionKind.CLICK).targetId(1).buttonBits(Button.LEFT | Button.RIGHT), "")));
        assertEquals(ResultCode.INVALID_MESSAGE, plan(action(x -> x.kind(ActionKind.KEY), "")));
        assertEquals(ResultCode.INVALID_MESSAGE, plan(action(x -> x.kind(ActionKind.SCROLL).targetId(1), "")));
        assertEquals(ResultCode.INVALID_MESSAGE,
            plan(action(x -> x.kind(ActionKind.TEXT).targetId(1).buttonBits(Button.LEFT).payloadOffset(60), "hello")));
        // D13: a press of a button this connection holds; a release of one not held
        final ActionFlyweight click = action(x -> x.kind(ActionKind.CLICK).targetId(1).buttonBits(Button.LEFT), "");
        assertEquals(ResultCode.INVALID_MESSAGE, ActionChecks.plan(click, bytes, PAYLOAD_AT, 64, Button.LEFT, 77, 77));
        assertEquals(ResultCode.OK, ActionChecks.plan(click, bytes, PAYLOAD_AT, 64, Button.LEFT, 78, 77),
            "another connection's hold is the lease rule's");
        assertEquals(ResultCode.INVALID_MESSAGE, plan(action(x -> x.kind(ActionKind.RELEASE).buttonBits(Button.LEFT), "")));
    }

    @Test
    void ruleDReadsTheSemanticPayloadsStrictly() {
        for (final String good : new String[] {"0", "42", "-4.5", "1e3", "2.5E-2"}) {
            assertEquals(ResultCode.OK, plan(action(x -> x.kind(ActionKind.SET_VALUE).targetId(1)
                .flags(ActionFlag.VALUE_NUMBER), good)), good);
        }
        for (final String bad : new String[] {"", "01", "1.", ".5", "NaN", "Infinity", "0x10", "1e999", "1,5", " 1"}) {
            assertEquals(ResultCode.INVALID_MESSAGE, plan(action(x -> x.kind(ActionKind.SET_VALUE).targetId(1)
                .flags(ActionFlag.VALUE_NUMBER), bad)), bad);
        }
        assertEquals(ResultCode.OK, plan(action(x -> x.kind(ActionKind.SELECT).targetId(1), "2147483647")));
        assertEquals(ResultCode.INVALID_MESSAGE, plan(action(x -> x.kind(ActionKind.SELECT).targetId(1), "2147483648")));
        assertEquals(ResultCode.INVALID_MESSAGE, plan(action(x -> x.kind(ActionKind.SELECT).targetId(1), "-1")));
        assertEquals(ResultCode.OK, plan(action(x -> x.kind(ActionKind.SET_VALUE).targetId(1), "any text")));
    }

    @Test
    void ruleFOnATargetsRecord() {
        assertEquals(ResultCode.OK, ActionChecks.target(TargetFlag.ACTIONABLE, TargetCapability.CLICK, TargetCapability.CLICK));
        assertEquals(ResultCode.SECURE_SURFACE, ActionChecks.target(TargetFlag.ACTIONABLE | TargetFlag.SECURE, -1, 0));
        assertEquals(ResultCode.TARGET_NOT_FOUND, ActionChecks.target(0, -1, 0));
        assertEquals(ResultCode.TARGET_NOT_FOUND, ActionChecks.target(TargetFlag.ACTIONABLE | TargetFlag.OCCLUDED, -1, 0));
        assertEquals(ResultCode.TARGET_NOT_FOUND, ActionChecks.target(TargetFlag.ACTIONABLE | TargetFlag.DISABLED, -1, 0));
        assertEquals(ResultCode.TARGET_NOT_FOUND,
            ActionChecks.target(TargetFlag.ACTIONABLE, TargetCapability.CLICK, TargetCapability.TEXT));
        assertEquals(0, ActionChecks.firstTargetCapability(action(x -> x.kind(ActionKind.SET_VALUE)
            .flags(ActionFlag.VALUE_NUMBER), "1")), "a number to set asks for no capability");
        assertEquals(TargetCapability.TEXT, ActionChecks.firstTargetCapability(action(x -> x.kind(ActionKind.SET_VALUE), "t")));
    }

    @Test
    void beforeDispatchRefusesUnmappableKeysAndBrokenText() {
        assertEquals(ResultCode.ACTION_UNSUPPORTED,
            ActionChecks.beforeDispatch(action(x -> x.kind(ActionKind.KEY).keyUsage(0x32), ""), bytes, PAYLOAD_AT));
        assertEquals(ResultCode.OK, ActionChecks.beforeDispatch(action(x -> x.kind(ActionKind.KEY).keyUsage(0x04), ""), bytes,
            PAYLOAD_AT));
        final ActionFlyweight broken = action(x -> x.kind(ActionKind.SET_VALUE), "ab");
        bytes.writeUnsignedByte(PAYLOAD_AT + 1, 0xC0); // an overlong form's lead byte
        assertEquals(ResultCode.ACTION_UNSUPPORTED, ActionChecks.beforeDispatch(broken, bytes, PAYLOAD_AT));
        assertTrue(ActionChecks.beforeDispatch(action(x -> x.kind(ActionKind.TEXT), "é"), bytes, PAYLOAD_AT) == ResultCode.OK);
    }
}
