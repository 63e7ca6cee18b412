package dev.saccade.gnome;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The extension's {@code ListWindows} answer as a {@link DesktopSnapshot}: windows bottom to top
 * (the shell's stacking), each with mutter's window id, pid, title and frame rectangle (the
 * visible window, without the client-side shadow); minimized windows hidden; the focused one
 * active. Native Wayland windows report accessible extents relative to their surface, which
 * starts at the buffer rectangle (GTK's client-side shadow lies around the frame), so they are
 * listed as client-relative with that surface origin. A native popup (a GTK 4 popover or menu:
 * dropdown menu, popup menu and combo types) is no window of its own but one of the snapshot's
 * {@link DesktopSnapshot#popups()}, at its whole surface (the buffer rectangle, the size GTK
 * reports for the popover's root object), so its objects are placed as on X11 (D64, D71).
 */
final class ShellWindows {
    private static final JsonFactory JSON = new JsonFactory();
    /** META_WINDOW_NORMAL, DIALOG, MODAL_DIALOG, UTILITY: the windows a user works in. */
    private static final Set<Integer> LISTED_TYPES = Set.of(0, 3, 4, 6);
    /** META_WINDOW_DROPDOWN_MENU, POPUP_MENU, COMBO: a native client's popup surfaces. */
    private static final Set<Integer> POPUP_TYPES = Set.of(9, 10, 13);

    private ShellWindows() {
    }

    static DesktopSnapshot parse(final String json, final long sequence, final long captureNs) throws IOException {
        final List<WindowInfo> windows = new ArrayList<>();
        final List<MonitorInfo> monitors = new ArrayList<>();
        final Set<Long> clientRelative = new HashSet<>();
        final Map<Long, Long> origins = new HashMap<>();
        final List<WindowInfo> popups = new ArrayList<>();
        long active = 0;
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                final String field = p.currentName();
                p.nextToken();
                if ("windows".equals(field)) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        final Window w = Window.read(p);
                        if (POPUP_TYPES.contains(w.type) && !w.x11 && !w.minimized && w.bufferWidth > 0) {
                            popups.add(new WindowInfo(w.id, w.pid, "", w.bufferX, w.bufferY, w.bufferWidth,
                                w.bufferHeight, false, true, WindowInfo.NO_DESKTOP));
                        }
                        if (!LISTED_TYPES.contains(w.type)) {
                            continue;
                        }
                        windows.add(new WindowInfo(w.id, w.pid, w.title, w.x, w.y, w.width, w.height, w.minimized,
                            !w.minimized, 0));
                        if (!w.x11) {
                            clientRelative.add(w.id);
                            origins.put(w.id, DesktopSnapshot.packOrigin(w.bufferX, w.bufferY));
                        }
                        if (w.focused) {
                            active = w.id;
                        }
                    }
                } else if ("monitors".equals(field)) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        monitors.add(monitor(p));
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        return DesktopSnapshot.of(sequence, captureNs, active, windows, monitors, clientRelative)
            .withSurfaceOrigins(origins).withSurfaces(popups, Map.of());
    }

    private static void expect(final JsonToken token, final JsonToken wanted) throws IOException {
        if (token != wanted) {
            throw new IOException("unexpected " + token + " in the extension's window list, wanted " + wanted);
        }
    }

    private static MonitorInfo monitor(final JsonParser p) throws IOException {
        int index = 0;
        int x = 0;
        int y = 0;
        int width = 0;
        int height = 0;
        boolean primary = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            final String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "index" -> index = p.getIntValue();
                case "x" -> x = p.getIntValue();
                case "y" -> y = p.getIntValue();
                case "width" -> width = p.getIntValue();
                case "height" -> height = p.getIntValue();
                case "primary" -> primary = p.getBooleanValue();
                default -> p.skipChildren();
            }
        }
        final String name = "monitor-" + index;
        return new MonitorInfo(MonitorInfo.stableId(name), name, x, y, width, height, primary);
    }

    /** One entry of the list, as the extension writes it. */
    private static final class Window {
        long id;
        long pid;
        String title = "";
        int x;
        int y;
        int width;
        int height;
        int bufferX;
        int bufferY;
        int bufferWidth;
        int bufferHeight;
        int type;
        boolean focused;
        boolean minimized;
        boolean x11;

        static Window read(final JsonParser p) throws IOException {
            final Window w = new Window();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                final String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "id" -> w.id = Long.parseUnsignedLong(p.getText());
                    case "pid" -> w.pid = Math.max(0, p.getLongValue());
                    case "title" -> w.title = p.getText();
                    case "x" -> w.x = p.getIntValue();
                    case "y" -> w.y = p.getIntValue();
                    case "width" -> w.width = p.getIntValue();
                    case "height" -> w.height = p.getIntValue();
                    case "bufferX" -> w.bufferX = p.getIntValue();
                    case "bufferY" -> w.bufferY = p.getIntValue();
                    case "bufferWidth" -> w.bufferWidth = p.getIntValue();
                    case "bufferHeight" -> w.bufferHeight = p.getIntValue();
                    case "type" -> w.type = p.getIntValue();
                    case "focused" -> w.focused = p.getBooleanValue();
                    case "minimized" -> w.minimized = p.getBooleanValue();
                    case "x11" -> w.x11 = p.getBooleanValue();
                    default -> p.skipChildren();
                }
            }
            return w;
        }
    }
}
