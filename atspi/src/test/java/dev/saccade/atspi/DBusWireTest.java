package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The wire codec on its own. The real-application proof is
 * {@code AtspiSourceTest.peerToPeerRefreshReadsWhatTheBusReads}: gtk3-demo answers our encoding
 * and we decode its answers into the same nodes dbus-java does.
 */
class DBusWireTest {
    private static final String GET_MATCHES = AtspiBus.GET_MATCHES_SIGNATURE;

    /** Encodes a call, then reads it back as if it were a reply with that body. */
    private static DBusWire.Message roundTrip(final ByteBuffer out, final String signature, final Object... args) {
        final int start = out.position();
        final ByteBuffer written = DBusWire.appendCall(out, 7, ":1.5", "/org/a11y/atspi/accessible/root",
            "org.a11y.atspi.Collection", "GetMatches", signature, args);
        written.put(start + 1, DBusWire.METHOD_RETURN);
        final ByteBuffer in = written.duplicate().flip().position(start);
        final int length = DBusWire.messageLength(in);
        assertEquals(written.position() - start, length, "length from the header = bytes written");
        return DBusWire.decode(in, length);
    }

    @Test
    void getMatchesArgumentsComeBackAsWritten() {
        final Object[] rule = BulkListing.matchRule(AtspiMapping.stateBits(AtspiMapping.STATE_SHOWING,
            AtspiMapping.STATE_VISIBLE), AtspiMapping.roleCodeBits(2), new String[] {"action"});
        final DBusWire.Message m = roundTrip(ByteBuffer.allocate(16), GET_MATCHES, rule, 1L, 5001, Boolean.TRUE);
        assertEquals(7, m.serial);
        assertEquals(GET_MATCHES, m.signature);
        final Object[] struct = (Object[]) m.body[0];
        assertEquals(List.of((1 << AtspiMapping.STATE_SHOWING) | (1 << AtspiMapping.STATE_VISIBLE), 0), struct[0]);
        assertEquals(AtspiMapping.MATCH_ALL, struct[1]);
        assertEquals(Map.of(), struct[2]);
        final int[] roles = AtspiMapping.roleCodeBits(2);
        assertEquals(List.of(roles[0], roles[1], roles[2], roles[3], roles[4]), struct[4]);
        assertEquals(AtspiMapping.MATCH_ANY, struct[5]);
        assertEquals(List.of("action"), struct[6]);
        assertEquals(Boolean.FALSE, struct[8]);
        assertEquals(1L, m.body[1]);
        assertEquals(5001, m.body[2]);
        assertEquals(Boolean.TRUE, m.body[3]);
    }

    @Test
    void messagesFollowEachOtherWithoutPaddingAndDecodeInTurn() {
        ByteBuffer out = ByteBuffer.allocate(8);  // grows
        out = DBusWire.appendCall(out, 1, null, "/a", "org.freedesktop.DBus.Properties", "Get", "ss",
            new Object[] {"org.a11y.atspi.Accessible", "Name"});
        out = DBusWire.appendCall(out, 2, null, "/b", "org.a11y.atspi.Component", "GetExtents", "u", new Object[] {0});
        out = DBusWire.appendCall(out, 3, null, "/c", "org.a11y.atspi.Accessible", "GetRole", null, new Object[0]);
        final ByteBuffer in = out.flip();
        for (int serial = 1; serial <= 3; serial++) {
            final int length = DBusWire.messageLength(in);
            final int start = in.position();
            assertEquals(serial, DBusWire.decode(in, length).serial);
            in.position(start + length);
        }
        assertEquals(0, in.remaining());
    }

    @Test
    void structsDictsAndVariantsDecode() {
        final DBusWire.Message m = roundTrip(ByteBuffer.allocate(64), "a(so)(iiii)a{ss}",
            List.of((Object) new Object[] {":1.5", "/org/a11y/atspi/accessible/1"}), new Object[] {10, 20, 300, -2147483648},
            Map.of("toolkit", "gtk"));
        final List<?> refs = (List<?>) m.body[0];
        assertArrayEquals(new Object[] {":1.5", "/org/a11y/atspi/accessible/1"}, (Object[]) refs.get(0));
        assertEquals("/org/a11y/atspi/accessible/1", AtspiCall.referencePath(refs.get(0)));
        assertArrayEquals(new Object[] {10, 20, 300, Integer.MIN_VALUE}, (Object[]) m.body[1]);
        assertEquals(Map.of("toolkit", "gtk"), m.body[2]);
    }

    @Test
    void anArrayLongerThanItsMessageIsRejected() {
        final ByteBuffer out = DBusWire.appendCall(ByteBuffer.allocate(256), 9, null, "/x", "i.f", "M", "ai",
            new Object[] {new int[] {1, 2, 3}});
        out.put(1, DBusWire.METHOD_RETURN);
        final ByteBuffer in = out.duplicate().flip();
        final int length = DBusWire.messageLength(in);
        // The array length sits right after the 8-aligned header; claim 4 KiB.
        in.putInt(length - 16, 4096);
        assertThrows(DBusWire.WireException.class, () -> DBusWire.decode(in, length));
    }
}
