package dev.saccade.helper.backend.xtest;

import com.sun.jna.Pointer;
import dev.saccade.helper.backend.MultiClickGuard;
import dev.saccade.x11.Xlib;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The double-click time and distance of the desktop's XSETTINGS manager (the XSETTINGS
 * specification, freedesktop.org: the owner of selection {@code _XSETTINGS_S<screen>} keeps the
 * settings in its {@code _XSETTINGS_SETTINGS} property), so {@link MultiClickGuard} separates
 * clicks by the time the toolkits actually use; GTK's defaults (400 ms, 5 px) without a manager.
 * Read again at most once per {@link #REFRESH_NS}. One thread, the backend's.
 */
final class XSettings {
    /** Settings change rarely (a user in a control panel): one read per second at most. */
    static final long REFRESH_NS = 1_000_000_000L;
    private static final String TIME = "Net/DoubleClickTime";
    private static final String DISTANCE = "Net/DoubleClickDistance";
    /** The property is small (a few KiB for a full GNOME set); 64 KiB is plenty. */
    private static final long MAX_LONGS = 16_384;

    private final long display;
    private final long selection;
    private final long property;
    private final long[] actualType = new long[1];
    private final int[] actualFormat = new int[1];
    private final long[] itemCount = new long[1];
    private final long[] bytesAfter = new long[1];
    private final long[] data = new long[1];
    private final int[] values = new int[2];
    private long readAtNs;
    private boolean read;

    XSettings(final long display, final int screen) {
        this.display = display;
        this.selection = Xlib.X11.XInternAtom(display, "_XSETTINGS_S" + screen, 0);
        this.property = Xlib.X11.XInternAtom(display, "_XSETTINGS_SETTINGS", 0);
    }

    int doubleClickTimeMs(final long nowNs) {
        refresh(nowNs);
        return values[0];
    }

    int doubleClickDistancePx(final long nowNs) {
        refresh(nowNs);
        return values[1];
    }

    private void refresh(final long nowNs) {
        if (read && nowNs - readAtNs < REFRESH_NS) {
            return;
        }
        read = true;
        readAtNs = nowNs;
        values[0] = MultiClickGuard.DEFAULT_TIME_MS;
        values[1] = MultiClickGuard.DEFAULT_DISTANCE_PX;
        final long owner = Xlib.X11.XGetSelectionOwner(display, selection);
        if (owner == 0) {
            return;
        }
        data[0] = 0;
        final int status = Xlib.X11.XGetWindowProperty(display, owner, property, 0, MAX_LONGS, 0, property,
            actualType, actualFormat, itemCount, bytesAfter, data);
        try {
            if (status == Xlib.SUCCESS && data[0] != 0 && actualFormat[0] == 8 && itemCount[0] > 0) {
                parse(new Pointer(data[0]).getByteArray(0, (int) Math.min(itemCount[0], MAX_LONGS * 4)), values);
            }
        } finally {
            if (data[0] != 0) {
                Xlib.X11.XFree(data[0]);
            }
        }
    }

    /**
     * Reads the two integers from a {@code _XSETTINGS_SETTINGS} value into {@code out} (time,
     * distance), leaving what is absent or malformed as it was: byte order, 3 unused, serial, the
     * number of settings, then each: type (0 integer, 1 string, 2 colour), 1 unused, name length,
     * the name padded to 4, last-change serial, the value.
     */
    static void parse(final byte[] bytes, final int[] out) {
        if (bytes.length < 12) {
            return;
        }
        final ByteBuffer b = ByteBuffer.wrap(bytes).order(bytes[0] == 'B' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        b.position(8);
        final long count = b.getInt() & 0xFFFF_FFFFL;
        for (long n = 0; n < count && b.remaining() >= 8; n++) {
            final int type = b.get() & 0xFF;
            b.get();
            final int nameLength = b.getShort() & 0xFFFF;
            final int padded = nameLength + 3 & ~3;
            if (b.remaining() < padded + 4) {
                return;
            }
            final String name = new String(bytes, b.position(), nameLength, StandardCharsets.US_ASCII);
            b.position(b.position() + padded);
            b.getInt(); // last-change serial
            if (type == 0) {
                if (b.remaining() < 4) {
                    return;
                }
                final int value = b.getInt();
                if (TIME.equals(name) && value > 0 && value <= 5_000) {
                    out[0] = value;
                } else if (DISTANCE.equals(name) && value >= 0 && value <= 100) {
                    out[1] = value;
                }
            } else if (type == 1) {
                if (b.remaining() < 4) {
                    return;
                }
                final int length = b.getInt();
                final int skip = length + 3 & ~3;
                if (length < 0 || b.remaining() < skip) {
                    return;
                }
                b.position(b.position() + skip);
            } else if (type == 2) {
                if (b.remaining() < 8) {
                    return;
                }
                b.position(b.position() + 8);
            } else {
                return;
            }
        }
    }
}
