package dev.saccade.demodesktop;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an app's AT-SPI tree with {@code dbus-send}, an oracle independent of the owner's AT-SPI
 * code: a breadth-first walk from the app's root giving each object's role, name, extents
 * ({@code Component.GetExtents} in "screen" coordinates, which a Wayland-native GTK app reports
 * relative to its window) and, for ENTRY (79) and TEXT (61) objects, the text.
 */
final class AccessibleObjects {
    static final int ROLE_PUSH_BUTTON = 43;
    static final int ROLE_TEXT = 61;
    static final int ROLE_ENTRY = 79;
    private static final int MAX_OBJECTS = 400;
    private static final Pattern CHILD = Pattern.compile("string \"(:[0-9.]+)\"\\s+object path \"([^\"]+)\"");
    private static final Pattern UINT32 = Pattern.compile("uint32 (\\d+)");
    private static final Pattern STRING = Pattern.compile("string \"(.*)\"", Pattern.DOTALL);
    private static final Pattern EXTENTS = Pattern.compile(
        "int32 (-?\\d+)\\s+int32 (-?\\d+)\\s+int32 (-?\\d+)\\s+int32 (-?\\d+)");

    private AccessibleObjects() {
    }

    /** The objects of the app with {@code pid}, in tree order; empty while it is not registered. */
    static List<SwayDesktop.Accessible> walk(final DesktopEnvironment environment, final long pid) {
        final AccessibilityRegistry registry = new AccessibilityRegistry(environment);
        String busName = null;
        for (final Map.Entry<String, Long> app : registry.applications().entrySet()) {
            if (app.getValue() == pid) {
                busName = app.getKey();
            }
        }
        final List<SwayDesktop.Accessible> objects = new ArrayList<>();
        if (busName == null) {
            return objects;
        }
        final Deque<String> paths = new ArrayDeque<>(List.of("/org/a11y/atspi/accessible/root"));
        int visited = 0;
        while (!paths.isEmpty() && visited++ < MAX_OBJECTS) {
            final String path = paths.removeFirst();
            final Matcher role = UINT32.matcher(call(environment, registry, busName, path,
                "org.a11y.atspi.Accessible.GetRole").stdout());
            final int r = role.find() ? Integer.parseInt(role.group(1)) : -1;
            final Matcher name = STRING.matcher(call(environment, registry, busName, path,
                "org.freedesktop.DBus.Properties.Get", "string:org.a11y.atspi.Accessible", "string:Name").stdout());
            final Matcher extents = EXTENTS.matcher(call(environment, registry, busName, path,
                "org.a11y.atspi.Component.GetExtents", "uint32:0").stdout());
            String text = null;
            if (r == ROLE_ENTRY || r == ROLE_TEXT) {
                final Matcher t = STRING.matcher(call(environment, registry, busName, path,
                    "org.a11y.atspi.Text.GetText", "int32:0", "int32:-1").stdout());
                text = t.find() ? t.group(1) : null;
            }
            final boolean hasExtents = extents.find();
            objects.add(new SwayDesktop.Accessible(r, name.find() ? name.group(1) : "", text,
                hasExtents ? Integer.parseInt(extents.group(1)) : 0, hasExtents ? Integer.parseInt(extents.group(2)) : 0,
                hasExtents ? Integer.parseInt(extents.group(3)) : 0, hasExtents ? Integer.parseInt(extents.group(4)) : 0));
            final Matcher child = CHILD.matcher(call(environment, registry, busName, path,
                "org.a11y.atspi.Accessible.GetChildren").stdout());
            while (child.find()) {
                paths.addLast(child.group(2));
            }
        }
        return objects;
    }

    private static ToolCommand.Result call(final DesktopEnvironment environment, final AccessibilityRegistry registry,
        final String busName, final String path, final String method, final String... arguments) {
        final List<String> command = new ArrayList<>(List.of("dbus-send", "--bus=" + registry.busAddress(),
            "--print-reply", "--reply-timeout=" + ToolCommand.TIMEOUT_MS, "--dest=" + busName, path, method));
        command.addAll(List.of(arguments));
        return ToolCommand.run(environment, command);
    }
}
