package dev.saccade.demodesktop;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Questions to the X server of one desktop, answered by {@code xdpyinfo} and {@code xprop}
 * (see {@link ToolCommand} for why not Xlib in-process).
 *
 * <p>Properties read (EWMH): the root's {@code _NET_SUPPORTING_WM_CHECK} (a compliant window
 * manager runs) and {@code _NET_CLIENT_LIST} (its managed top-level windows); per window
 * {@code _NET_WM_PID}, {@code _NET_WM_NAME} and, as a fallback, {@code WM_NAME}. All three demo
 * apps set {@code _NET_WM_PID} to the pid we started (checked: gtk3-demo, zenity and the Qt
 * calculator), so windows are matched to apps by pid, not by title.
 */
final class X11Query {
    private static final Pattern WINDOW_ID = Pattern.compile("0x[0-9a-fA-F]+");
    private static final Pattern PID = Pattern.compile("^_NET_WM_PID = (\\d+)$", Pattern.MULTILINE);
    private static final Pattern NET_WM_NAME = Pattern.compile("^_NET_WM_NAME = \"(.*)\"$", Pattern.MULTILINE);
    private static final Pattern WM_NAME = Pattern.compile("^WM_NAME = \"(.*)\"$", Pattern.MULTILINE);
    private static final long[] NO_WINDOWS = new long[0];

    /** Pid and title of one window; {@link #GONE} when the window no longer exists. */
    record WindowProperties(long pid, String title) {
        static final WindowProperties GONE = new WindowProperties(-1, "");

        boolean isGone() {
            return this == GONE;
        }
    }

    private final DesktopEnvironment environment;
    private final String display;

    X11Query(final DesktopEnvironment environment, final String display) {
        this.environment = environment;
        this.display = display;
    }

    /** The display accepts a client and answers a round trip. */
    boolean answers() {
        return ToolCommand.succeeds(environment, List.of("xdpyinfo", "-display", display));
    }

    boolean hasWindowManager() {
        final ToolCommand.Result result = rootProperty("_NET_SUPPORTING_WM_CHECK");
        return result.succeeded() && result.stdout().contains("window id #");
    }

    /** {@code _NET_CLIENT_LIST} in the window manager's order (oldest first); empty without one. */
    long[] clientList() {
        final ToolCommand.Result result = rootProperty("_NET_CLIENT_LIST");
        final String out = result.stdout();
        final int hash = out.indexOf('#');
        if (!result.succeeded() || hash < 0) {
            return NO_WINDOWS;
        }
        final Matcher m = WINDOW_ID.matcher(out);
        m.region(hash, out.length());
        long[] ids = new long[8];
        int count = 0;
        while (m.find()) {
            if (count == ids.length) {
                ids = java.util.Arrays.copyOf(ids, count * 2);
            }
            ids[count++] = Long.parseUnsignedLong(m.group().substring(2), 16);
        }
        return java.util.Arrays.copyOf(ids, count);
    }

    WindowProperties window(final long windowId) {
        final ToolCommand.Result result = ToolCommand.run(environment, List.of(
            "xprop", "-display", display, "-id", hex(windowId), "-notype", "_NET_WM_PID", "_NET_WM_NAME", "WM_NAME"));
        if (!result.succeeded()) {
            return WindowProperties.GONE;  // BadWindow: destroyed between listing and asking
        }
        final String out = result.stdout();
        final Matcher pid = PID.matcher(out);
        final Matcher netName = NET_WM_NAME.matcher(out);
        final Matcher name = WM_NAME.matcher(out);
        final String title = netName.find() ? unescape(netName.group(1)) : name.find() ? unescape(name.group(1)) : "";
        return new WindowProperties(pid.find() ? Long.parseLong(pid.group(1)) : -1, title);
    }

    static String hex(final long windowId) {
        return "0x" + Long.toHexString(windowId);
    }

    private ToolCommand.Result rootProperty(final String property) {
        return ToolCommand.run(environment, List.of("xprop", "-display", display, "-root", "-notype", property));
    }

    /** xprop escapes '"' and '\' inside a quoted string value. */
    private static String unescape(final String quoted) {
        if (quoted.indexOf('\\') < 0) {
            return quoted;
        }
        final StringBuilder out = new StringBuilder(quoted.length());
        for (int i = 0; i < quoted.length(); i++) {
            final char c = quoted.charAt(i);
            if (c == '\\' && i + 1 < quoted.length()) {
                out.append(quoted.charAt(++i));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
