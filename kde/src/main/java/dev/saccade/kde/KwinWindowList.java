package dev.saccade.kde;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The window list the KWin script reports (see {@link KwinWindowReader#script}): a JSON array of
 * objects with {@code id} (KWin's internal UUID), {@code pid}, {@code caption},
 * {@code resourceClass}, {@code x}, {@code y}, {@code width}, {@code height} (the frame
 * geometry in global compositor coordinates), {@code stacking} (0 at the bottom),
 * {@code active}, {@code minimized}, {@code screen} and {@code x11} (an XWayland window);
 * {@code popup} marks a popup surface (a GTK 4 popover or menu, an {@code xdg_popup}), reported
 * with its whole surface, {@code bufferX}, {@code bufferY}, {@code bufferWidth} and
 * {@code bufferHeight} (the buffer geometry, shadow and arrow included: the size GTK reports for
 * the popover's root object, D72). Unknown fields are skipped; a malformed list is an
 * IOException, never a partial one.
 */
final class KwinWindowList {
    /** A list longer than this is refused (a report is about 300 bytes a window). */
    static final int MAX_CHARS = 1 << 20;
    static final int MAX_WINDOWS = 4096;
    private static final JsonFactory JSON = new JsonFactory();

    /** One window as KWin reported it. */
    record Window(String id, long pid, String caption, String resourceClass, int x, int y, int width, int height,
        int stacking, boolean active, boolean minimized, int screen, boolean x11, boolean popup, int bufferX,
        int bufferY, int bufferWidth, int bufferHeight) {
    }

    private KwinWindowList() {
    }

    static List<Window> parse(final String json) throws IOException {
        if (json == null || json.length() > MAX_CHARS) {
            throw new IOException("window list missing or over " + MAX_CHARS + " characters");
        }
        final List<Window> windows = new ArrayList<>();
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new IOException("the window list is not an array");
            }
            while (p.nextToken() == JsonToken.START_OBJECT) {
                if (windows.size() == MAX_WINDOWS) {
                    throw new IOException("more than " + MAX_WINDOWS + " windows");
                }
                windows.add(window(p));
            }
            if (p.currentToken() != JsonToken.END_ARRAY || p.nextToken() != null) {
                throw new IOException("the window list does not end where it should");
            }
        }
        return windows;
    }

    private static Window window(final JsonParser p) throws IOException {
        String id = null;
        String caption = "";
        String resourceClass = "";
        long pid = 0;
        int x = 0;
        int y = 0;
        int width = 0;
        int height = 0;
        int stacking = 0;
        int screen = 0;
        boolean active = false;
        boolean minimized = false;
        boolean x11 = false;
        boolean popup = false;
        int bufferX = 0;
        int bufferY = 0;
        int bufferWidth = 0;
        int bufferHeight = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            final JsonToken value = p.nextToken();
            switch (name) {
                case "id" -> id = p.getValueAsString();
                case "caption" -> caption = text(p);
                case "resourceClass" -> resourceClass = text(p);
                case "pid" -> pid = p.getValueAsLong();
                case "x" -> x = (int) Math.round(p.getValueAsDouble());
                case "y" -> y = (int) Math.round(p.getValueAsDouble());
                case "width" -> width = (int) Math.round(p.getValueAsDouble());
                case "height" -> height = (int) Math.round(p.getValueAsDouble());
                case "stacking" -> stacking = p.getValueAsInt();
                case "screen" -> screen = p.getValueAsInt();
                case "active" -> active = p.getValueAsBoolean();
                case "minimized" -> minimized = p.getValueAsBoolean();
                case "x11" -> x11 = p.getValueAsBoolean();
                case "popup" -> popup = p.getValueAsBoolean();
                case "bufferX" -> bufferX = (int) Math.round(p.getValueAsDouble());
                case "bufferY" -> bufferY = (int) Math.round(p.getValueAsDouble());
                case "bufferWidth" -> bufferWidth = (int) Math.round(p.getValueAsDouble());
                case "bufferHeight" -> bufferHeight = (int) Math.round(p.getValueAsDouble());
                default -> {
                    if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                        p.skipChildren();
                    }
                }
            }
        }
        if (p.currentToken() != JsonToken.END_OBJECT || id == null || id.isEmpty() || width < 0 || height < 0 || bufferWidth < 0
            || bufferHeight < 0) {
            throw new IOException("a window without an id or with a negative size");
        }
        return new Window(id, pid, caption, resourceClass, x, y, width, height, stacking, active, minimized, screen, x11,
            popup, bufferX, bufferY, bufferWidth, bufferHeight);
    }

    private static String text(final JsonParser p) throws IOException {
        final String s = p.getValueAsString();
        return s == null ? "" : s;
    }
}
