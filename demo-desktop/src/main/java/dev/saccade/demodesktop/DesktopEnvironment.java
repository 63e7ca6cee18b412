package dev.saccade.demodesktop;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment every process of the desktop runs with, and that tests hand to the processes
 * they spawn: the inherited environment, minus variables that would point a child at another
 * desktop, bus or session, plus ours.
 *
 * <p>Written only while the desktop starts (the starting thread); read-only afterwards.
 */
final class DesktopEnvironment {
    static final String DISPLAY = "DISPLAY";
    static final String DBUS_SESSION_BUS_ADDRESS = "DBUS_SESSION_BUS_ADDRESS";
    static final String XDG_RUNTIME_DIR = "XDG_RUNTIME_DIR";

    /**
     * Inherited variables that must not reach our children: they would connect to the developer's
     * Wayland session or accessibility bus, ask a session manager to restore them, or switch
     * accessibility off ({@code NO_AT_BRIDGE}, {@code GTK_A11Y=none}). {@code LANGUAGE} would
     * translate window titles that tests compare.
     */
    static final List<String> DROPPED_VARIABLES = List.of(
        "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "SWAYSOCK", "I3SOCK", "DISPLAY", "AT_SPI_BUS_ADDRESS", "XAUTHORITY", "SESSION_MANAGER",
        "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE", "DESKTOP_STARTUP_ID", "XDG_ACTIVATION_TOKEN",
        "NO_AT_BRIDGE", "GTK_A11Y", "LANGUAGE", "XDG_SESSION_ID", "XDG_SEAT", "XDG_VTNR");

    private final Map<String, String> variables = new LinkedHashMap<>();
    private final Map<String, String> view = Collections.unmodifiableMap(variables);

    DesktopEnvironment(final SessionDirectory directory) {
        variables.put(XDG_RUNTIME_DIR, directory.runtime().toString());
        variables.put("XDG_CACHE_HOME", directory.cache().toString());
        variables.put("XDG_CONFIG_HOME", directory.config().toString());
        variables.put("XDG_DATA_HOME", directory.data().toString());
        variables.put("XDG_STATE_HOME", directory.state().toString());
        variables.put("HOME", directory.home().toString());
        variables.put("XDG_SESSION_TYPE", "x11");
        // Untranslated titles and text, whatever the developer's locale; C.UTF-8 is built into glibc.
        variables.put("LC_ALL", "C.UTF-8");
        // Toolkits pick X11 even where a Wayland variable slipped through.
        variables.put("GDK_BACKEND", "x11");
        variables.put("QT_QPA_PLATFORM", "xcb");
        // GSettings in memory: no dconf-service is activated, so there is one process less to stop.
        variables.put("GSETTINGS_BACKEND", "memory");
    }

    void put(final String name, final String value) {
        variables.put(name, value);
    }

    /** Our variables only (what a child must see on top of its inherited environment). */
    Map<String, String> variables() {
        return view;
    }

    /** Drops {@link #DROPPED_VARIABLES} from the builder's environment and adds ours. */
    ProcessBuilder applyTo(final ProcessBuilder builder) {
        final Map<String, String> env = builder.environment();
        for (final String name : DROPPED_VARIABLES) {
            env.remove(name);
        }
        env.putAll(variables);
        return builder;
    }
}
