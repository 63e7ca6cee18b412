package dev.saccade.demodesktop;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks up front that every program a desktop will run is installed, so a machine without them
 * fails with the list of Debian packages to install rather than with a timeout.
 */
final class RequiredPrograms {
    /** Program (on PATH, or an absolute path) to the Debian package that provides it. */
    static final Map<String, String> DESKTOP = programs(
        "Xvfb", "xvfb",
        "xdpyinfo", "x11-utils",
        "xprop", "x11-utils",
        "dbus-daemon", "dbus-daemon",
        "dbus-send", "dbus-bin",
        "openbox", "openbox");
    /** Started by D-Bus activation when the desktop starts the accessibility bus. */
    static final Map<String, String> ACCESSIBILITY = programs(
        "/usr/libexec/at-spi-bus-launcher", "at-spi2-core",
        "/usr/libexec/at-spi2-registryd", "at-spi2-core");

    private RequiredPrograms() {
    }

    static void check(final List<DemoApp> apps) {
        final Map<String, String> needed = new LinkedHashMap<>(DESKTOP);
        needed.putAll(ACCESSIBILITY);
        for (final DemoApp app : apps) {
            needed.put(app.command().get(0), app.debianPackage());
        }
        final List<String> missing = new ArrayList<>();
        for (final Map.Entry<String, String> program : needed.entrySet()) {
            if (!isInstalled(program.getKey())) {
                missing.add(program.getKey() + " (Debian package " + program.getValue() + ")");
            }
        }
        if (!missing.isEmpty()) {
            throw new TestDesktopException("the test desktop needs programs that are not installed: " + missing);
        }
    }

    static boolean isInstalled(final String program) {
        return locate(program) != null;
    }

    /** Where {@code program} is on PATH (or the path itself when it names one), null if nowhere. */
    static Path locate(final String program) {
        if (program.indexOf('/') >= 0) {
            return Files.isExecutable(Path.of(program)) ? Path.of(program) : null;
        }
        final String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (final String directory : path.split(File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
                return Path.of(directory, program);
            }
        }
        return null;
    }

    private static Map<String, String> programs(final String... pairs) {
        final Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
