package dev.saccade.x11;

import static dev.saccade.x11.X11Desktop.ANY_PROPERTY_TYPE;
import static dev.saccade.x11.X11Desktop.XA_ATOM;
import static dev.saccade.x11.X11Desktop.XA_STRING;
import static dev.saccade.x11.X11Desktop.XA_WM_NAME;

import com.sun.jna.Pointer;
import dev.saccade.x11.Xlib.X11;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Window properties and atom names read over one {@link X11Desktop} connection: the bounded
 * two-step read of a long value, the masking of format-32 items, the decoding of titles, and a
 * cache of atom names. Apart from the connection because every client window is read through
 * here, with out-parameters allocated once and reused.
 *
 * <p>Not thread-safe: the connection's thread only.
 */
final class X11Properties {
    /** First property read, in 32-bit units; a longer value is fetched again at its full length. */
    private static final long PROPERTY_FIRST_READ_UNITS = 4096;
    /** Ceiling for one property, in 32-bit units (4 MiB): a hostile client cannot make us read more. */
    private static final long PROPERTY_MAX_UNITS = 1L << 20;
    private static final long[] EMPTY = new long[0];

    private final long display;
    private final long utf8String;
    private final long compoundText;
    private final long netWmName;
    private final Map<Long, String> atomNames = new HashMap<>();

    // Reused out-parameters: one connection, one thread.
    private final long[] actualType = new long[1];
    private final int[] actualFormat = new int[1];
    private final long[] itemCount = new long[1];
    private final long[] bytesAfter = new long[1];
    private final long[] propertyData = new long[1];

    X11Properties(final long display, final long utf8String, final long compoundText, final long netWmName) {
        this.display = display;
        this.utf8String = utf8String;
        this.compoundText = compoundText;
        this.netWmName = netWmName;
    }

    /**
     * Fetches a property with its full length (bounded by {@link #PROPERTY_MAX_UNITS}).
     *
     * @return the data, to be freed with {@link #free(Pointer)}, with {@link #actualType},
     *     {@link #actualFormat} and {@link #itemCount} describing it; null if the window is gone,
     *     the property is absent or its type is not {@code requiredType}
     */
    private Pointer fetch(final long window, final long atom, final long requiredType) {
        long units = PROPERTY_FIRST_READ_UNITS;
        for (int attempt = 0; attempt < 2; attempt++) {
            final int status = X11.XGetWindowProperty(display, window, atom, 0, units, 0, requiredType,
                actualType, actualFormat, itemCount, bytesAfter, propertyData);
            if (status != 0) {
                return null; // BadWindow and friends: the window went away between two calls
            }
            final Pointer data = propertyData[0] == 0 ? null : new Pointer(propertyData[0]);
            final long type = actualType[0];
            if (type == 0 || (requiredType != ANY_PROPERTY_TYPE && type != requiredType)) {
                free(data); // absent, or a mismatched type: Xlib returns no data but may return a block
                return null;
            }
            final long remaining = bytesAfter[0];
            if (remaining == 0 || attempt == 1 || units >= PROPERTY_MAX_UNITS) {
                return data;
            }
            free(data);
            final long itemBytes = itemCount[0] * (actualFormat[0] / 8);
            units = Math.min(PROPERTY_MAX_UNITS, (itemBytes + remaining + 3) / 4);
        }
        return null;
    }

    private static void free(final Pointer data) {
        if (data != null) {
            X11.XFree(Pointer.nativeValue(data));
        }
    }

    /**
     * A format-32 list (WINDOW or ATOM), each item masked to 32 bits.
     *
     * @return the items; an empty array if absent, of another type or format
     */
    long[] longListProperty(final long window, final long atom, final long type) {
        final Pointer data = fetch(window, atom, type);
        if (data == null) {
            return EMPTY;
        }
        try {
            if (actualFormat[0] != 32) {
                return EMPTY;
            }
            final int count = (int) Math.min(itemCount[0], Integer.MAX_VALUE);
            final long[] items = data.getLongArray(0, count);
            for (int i = 0; i < count; i++) {
                items[i] &= 0xFFFF_FFFFL; // Xlib may sign-extend 32-bit items into its longs
            }
            return items;
        } finally {
            free(data);
        }
    }

    /** The first item of a format-32 property, masked to 32 bits; {@code absent} if there is none. */
    long longProperty(final long window, final long atom, final long type, final long absent) {
        final Pointer data = fetch(window, atom, type);
        if (data == null) {
            return absent;
        }
        try {
            if (actualFormat[0] != 32 || itemCount[0] < 1) {
                return absent;
            }
            return data.getLong(0) & 0xFFFF_FFFFL;
        } finally {
            free(data);
        }
    }

    /** True if the ATOM list {@code listAtom} of {@code window} contains {@code value}. */
    boolean atomListContains(final long window, final long listAtom, final long value) {
        final long[] atoms = longListProperty(window, listAtom, XA_ATOM);
        for (final long atom : atoms) {
            if (atom == value) {
                return true;
            }
        }
        return false;
    }

    /**
     * The window's title: {@code _NET_WM_NAME} (UTF-8) if set, else {@code WM_NAME} (Latin-1 for
     * STRING; UTF8_STRING as UTF-8; COMPOUND_TEXT read as Latin-1, right for its ASCII subset).
     *
     * @return the title, or "" if neither is set or the window is gone
     */
    String title(final long window) {
        final String netName = textProperty(window, netWmName, utf8String);
        if (netName != null) {
            return netName;
        }
        final String wmName = textProperty(window, XA_WM_NAME, ANY_PROPERTY_TYPE);
        return wmName != null ? wmName : "";
    }

    private String textProperty(final long window, final long atom, final long type) {
        final Pointer data = fetch(window, atom, type);
        if (data == null) {
            return null;
        }
        try {
            final long actual = actualType[0];
            if (actualFormat[0] != 8) {
                return null;
            }
            final byte[] bytes = data.getByteArray(0, (int) Math.min(itemCount[0], Integer.MAX_VALUE));
            if (actual == utf8String) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
            if (actual == XA_STRING || actual == compoundText) {
                return new String(bytes, StandardCharsets.ISO_8859_1);
            }
            return null;
        } finally {
            free(data);
        }
    }

    /** An atom's name; cached, since an atom's name never changes while the server runs. */
    String atomName(final long atom) {
        final String cached = atomNames.get(atom);
        if (cached != null) {
            return cached;
        }
        final long name = atom == 0 ? 0 : X11.XGetAtomName(display, atom);
        if (name == 0) {
            return "";
        }
        try {
            final String value = new Pointer(name).getString(0, StandardCharsets.ISO_8859_1.name());
            atomNames.put(atom, value);
            return value;
        } finally {
            X11.XFree(name);
        }
    }
}
