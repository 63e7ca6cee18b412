package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The XSETTINGS value parser: the two double-click integers among other settings, in both byte orders. */
class XSettingsTest {
    @Test
    void readsTheDoubleClickTimeAndDistanceAmongOtherSettings() {
        for (final ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            final byte[] value = settings(order);
            final int[] out = {400, 5};
            XSettings.parse(value, out);
            assertArrayEquals(new int[] {250, 9}, out, order.toString());
        }
    }

    @Test
    void aTruncatedValueKeepsWhatWasReadAndTheRestAsItWas() {
        final byte[] full = settings(ByteOrder.LITTLE_ENDIAN);
        for (int length = 0; length < full.length; length++) {
            final int[] out = {400, 5};
            XSettings.parse(java.util.Arrays.copyOf(full, length), out);
            // the distance comes last: any truncation loses it, and nothing is ever out of range
            assertArrayEquals(new int[] {out[0] == 250 ? 250 : 400, 5}, out, "length " + length);
        }
    }

    /** Net/ThemeName (string), a colour, Net/DoubleClickTime 250, Net/DoubleClickDistance 9. */
    private static byte[] settings(final ByteOrder order) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteBuffer head = ByteBuffer.allocate(12).order(order);
        head.put((byte) (order == ByteOrder.BIG_ENDIAN ? 'B' : 'l')).put(new byte[3]).putInt(7).putInt(4);
        out.writeBytes(head.array());
        out.writeBytes(setting(order, 1, "Net/ThemeName", string(order, "Adwaita")));
        out.writeBytes(setting(order, 2, "Gtk/Colour", new byte[8]));
        out.writeBytes(setting(order, 0, "Net/DoubleClickTime", ByteBuffer.allocate(4).order(order).putInt(250).array()));
        out.writeBytes(setting(order, 0, "Net/DoubleClickDistance", ByteBuffer.allocate(4).order(order).putInt(9).array()));
        return out.toByteArray();
    }

    private static byte[] setting(final ByteOrder order, final int type, final String name, final byte[] value) {
        final byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        final int padded = n.length + 3 & ~3;
        final ByteBuffer b = ByteBuffer.allocate(4 + padded + 4 + value.length).order(order);
        b.put((byte) type).put((byte) 0).putShort((short) n.length).put(n).position(4 + padded);
        b.putInt(1).put(value);
        return b.array();
    }

    private static byte[] string(final ByteOrder order, final String s) {
        final byte[] v = s.getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer b = ByteBuffer.allocate(4 + (v.length + 3 & ~3)).order(order);
        b.putInt(v.length).put(v);
        return b.array();
    }
}
