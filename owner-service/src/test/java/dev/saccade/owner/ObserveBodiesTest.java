package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.saccade.client.HelloRequestBuilder;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetState;
import java.nio.ByteBuffer;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The whole-desktop observe's body shared between replies (D20, {@link ObserveBodies}): a
 * reply made of the header in the response buffer and the shared body is byte for byte the reply
 * the copying way gives, for every view of roles and states, every generation, and while another
 * reply still sends from the shared buffer.
 */
class ObserveBodiesTest {
    private final SceneStore store = FixtureF.store();
    private final AgentService gathering = new AgentService(store).gatherReplies();
    private final AgentService copying = new AgentService(store);
    private final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);

    ObserveBodiesTest() {
        FixtureF.publish(store, t -> t.role(Role.TAB).states(TargetState.SELECTED), p -> { });
        store.adoptPending();
    }

    @AfterEach
    void close() {
        gathering.close();
        store.close();
    }

    /** The reply as the client gets it: the response buffer, then the tail if there is one. */
    private byte[] gathered(final AgentSession session, final byte[] frame, final boolean expectTail) {
        final int n = gathering.onFrame(session, BytesStore.wrap(frame), 0, frame.length, response, 0,
            response.capacity(), System.nanoTime());
        final byte[] reply = Arrays.copyOf(response.underlyingObject(), n);
        final ByteBuffer tail = gathering.takeReplyTail();
        if (expectTail) {
            assertNotNull(tail, "the body comes from the shared buffer");
            for (int i = CompletionFlyweight.LENGTH; i < n; i++) {
                reply[i] = tail.get(i);
            }
        } else {
            assertNull(tail, "the whole reply is in the response buffer");
        }
        return reply;
    }

    private byte[] copied(final AgentSession session, final byte[] frame) {
        final BytesStore<?, byte[]> other = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);
        final int n = copying.onFrame(session, BytesStore.wrap(frame), 0, frame.length, other, 0, other.capacity(),
            System.nanoTime());
        return Arrays.copyOf(other.underlyingObject(), n);
    }

    private AgentSession hello(final AgentService service, final int flags) {
        final AgentSession session = new AgentSession().reset(0, 1);
        final byte[] frame = new byte[HelloRequestBuilder.frame(1, Capability.OBSERVE).length];
        new HelloRequestBuilder().requestId(1).capabilities(Capability.OBSERVE).flags(flags).writeTo(BytesStore.wrap(frame), 0);
        service.onFrame(session, BytesStore.wrap(frame), 0, frame.length, response, 0, response.capacity(), 0);
        return session;
    }

    @Test
    void everyViewReadsWhatTheCopyingWayGivesFromOneSharedBodyAtATime() {
        final int extended = HelloFlag.EXTENDED_ROLES | HelloFlag.TARGET_STATES;
        for (final int flags : new int[] {0, extended, HelloFlag.EXTENDED_ROLES, 0, extended}) {
            final AgentSession g = hello(gathering, flags);
            final AgentSession c = hello(copying, flags);
            final byte[] observe = Requests.observe(7, o -> { });
            assertArrayEquals(copied(c, observe), gathered(g, observe, true), "view 0x" + Integer.toHexString(flags));
            gathering.replySent(g);
        }
    }

    @Test
    void aNewGenerationGetsANewBody() {
        final AgentSession g = hello(gathering, 0);
        final AgentSession c = hello(copying, 0);
        final byte[] observe = Requests.observe(7, o -> { });
        gathered(g, observe, true);
        gathering.replySent(g);
        FixtureF.publish(store, t -> t.targetId(99), p -> { });
        store.adoptPending();
        final byte[] reply = gathered(g, observe, true);
        assertArrayEquals(copied(c, observe), reply);
        assertEquals(99, ObserveQueryConformance.target(ObserveQueryConformance.completion(reply), 1).targetId());
    }

    @Test
    void whileAReplySendsFromTheBodyAnotherKeyIsCopiedAndTheSameKeyShared() {
        final AgentSession sending = hello(gathering, 0);
        final AgentSession other = hello(gathering, HelloFlag.EXTENDED_ROLES);
        final AgentSession same = hello(gathering, 0);
        final AgentSession c = hello(copying, HelloFlag.EXTENDED_ROLES);
        final byte[] observe = Requests.observe(7, o -> { });
        gathered(sending, observe, true); // not sent yet: the buffer is lent
        assertArrayEquals(copied(c, observe), gathered(other, observe, false), "another view: copied");
        gathered(same, observe, true);
        gathering.replySent(same);
        gathering.onDisconnect(sending); // an abandoned reply gives the buffer back too
        assertArrayEquals(copied(c, observe), gathered(other, observe, true), "now rebuilt for the other view");
    }

    @Test
    void aReadTheBodyDoesNotAnswerWholeIsCopied() {
        final AgentSession g = hello(gathering, 0);
        final AgentSession c = hello(copying, 0);
        final byte[] oneTarget = Requests.observe(7, o -> o.maximumTargets(1));
        assertArrayEquals(copied(c, oneTarget), gathered(g, oneTarget, false), "cut to one target");
        final byte[] semantic = Requests.observe(8, o -> o.scope().sourceMode(SourceMode.SEMANTIC));
        assertArrayEquals(copied(c, semantic), gathered(g, semantic, true), "another mode: its own body");
    }
}
