package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.client.HelloRequestBuilder;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.HelloCompletionFlyweight;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/**
 * Conformance case 56 (§1.4, §2 "Extended roles" and "Target states"): what a connection asked
 * for at Hello decides the roles and states it reads; the scene holds the extended values.
 */
class HelloFlagsTest {
    private static final int TAB_STATES = TargetState.SELECTED | TargetState.FOCUSED;

    private final SceneStore store = FixtureF.store();
    private final AgentService service = new AgentService(store);

    HelloFlagsTest() {
        // T12 is a tab of the current page, with the keyboard focus.
        FixtureF.publish(store, t -> t.role(Role.TAB).states(TAB_STATES), p -> { });
        store.adoptPending();
    }

    private byte[] exchange(final AgentSession session, final byte[] frame) {
        final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);
        final int n = service.onFrame(session, BytesStore.wrap(frame), 0, frame.length, response, 0,
            response.capacity(), System.nanoTime());
        return Arrays.copyOf(response.underlyingObject(), n);
    }

    private AgentSession hello(final int flags) {
        final AgentSession session = new AgentSession().reset(0, 1);
        final byte[] frame = new byte[HelloRequestBuilder.frame(1, Capability.OBSERVE).length];
        new HelloRequestBuilder().requestId(1).capabilities(Capability.OBSERVE).flags(flags).writeTo(BytesStore.wrap(frame), 0);
        final HelloCompletionFlyweight c = new HelloCompletionFlyweight().wrap(BytesStore.wrap(exchange(session, frame)), 0);
        assertEquals(ResultCode.OK, c.result());
        assertEquals(flags & HelloFlag.KNOWN, c.acceptedFlags(), "accepted: requested ∩ named bits");
        return session;
    }

    private TargetFlyweight observedTab(final AgentSession session) {
        final CompletionFlyweight c = ObserveQueryConformance.completion(exchange(session, Requests.observe(2, o -> { })));
        assertEquals(2, c.targetCount());
        return ObserveQueryConformance.target(c, 1);
    }

    private long roleQuery(final AgentSession session, final int role) {
        final CompletionFlyweight c = ObserveQueryConformance.completion(
            exchange(session, Requests.query(FilterFlag.ROLE, f -> f.role(role))));
        assertEquals(ResultCode.OK, c.result());
        // the one target's id, or minus the count
        return c.targetCount() == 1 ? ObserveQueryConformance.target(c, 0).targetId() : -c.targetCount();
    }

    @Test
    void aBaseClientReadsBaseRolesAndNoStates() {
        final AgentSession base = hello(0);
        final TargetFlyweight tab = observedTab(base);
        assertEquals(Role.BUTTON, tab.role(), "a tab is a button to a client of roles 0-10");
        assertEquals(0, tab.states(), "the reserved word stays 0");
        assertEquals(-2, roleQuery(base, Role.BUTTON), "ROLE BUTTON: the button and the tab");
        assertEquals(0, roleQuery(base, Role.TAB), "a role the client did not ask for matches nothing");
    }

    @Test
    void aClientThatAsksReadsExtendedRolesAndStates() {
        final AgentSession extended = hello(HelloFlag.EXTENDED_ROLES | HelloFlag.TARGET_STATES | 0xFC);
        final TargetFlyweight tab = observedTab(extended);
        assertEquals(Role.TAB, tab.role());
        assertEquals(TAB_STATES, tab.states());
        assertEquals(12, roleQuery(extended, Role.TAB));
        assertEquals(11, roleQuery(extended, Role.BUTTON), "only the real button");
    }

    @Test
    void eachFlagAloneGivesOnlyWhatItNames() {
        final TargetFlyweight rolesOnly = observedTab(hello(HelloFlag.EXTENDED_ROLES));
        assertEquals(Role.TAB, rolesOnly.role());
        assertEquals(0, rolesOnly.states());
        final TargetFlyweight statesOnly = observedTab(hello(HelloFlag.TARGET_STATES));
        assertEquals(Role.BUTTON, statesOnly.role());
        assertEquals(TAB_STATES, statesOnly.states());
    }
}
