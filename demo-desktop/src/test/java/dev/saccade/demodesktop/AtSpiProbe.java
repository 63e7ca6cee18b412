package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tests' own questions to the AT-SPI2 registry of a desktop, through {@code dbus-send}:
 * which applications are registered, with the pid behind each connection and the accessible
 * {@code Name} of its root (the harness itself never reads names).
 */
final class AtSpiProbe {
    record Application(String busName, long pid, String name) {
    }

    private static final Pattern BUS_NAME = Pattern.compile("string \"(:[0-9.]+)\"");
    private static final Pattern STRING = Pattern.compile("string \"(.*)\"");
    private static final Pattern UINT32 = Pattern.compile("uint32 (\\d+)");

    private AtSpiProbe() {
    }

    static List<Application> applications(final TestDesktop desktop) throws IOException, InterruptedException {
        final String bus = "--bus=" + desktop.accessibilityBusAddress();
        final List<Application> applications = new ArrayList<>();
        final Matcher children = BUS_NAME.matcher(send(desktop, bus, "--dest=org.a11y.atspi.Registry",
            "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible.GetChildren"));
        while (children.find()) {
            final String busName = children.group(1);
            final Matcher pid = UINT32.matcher(send(desktop, bus, "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:" + busName));
            final Matcher name = STRING.matcher(send(desktop, bus, "--dest=" + busName, "/org/a11y/atspi/accessible/root",
                "org.freedesktop.DBus.Properties.Get", "string:org.a11y.atspi.Accessible", "string:Name"));
            applications.add(new Application(busName, pid.find() ? Long.parseLong(pid.group(1)) : -1,
                name.find() ? name.group(1) : ""));
        }
        return applications;
    }

    private static String send(final TestDesktop desktop, final String... arguments)
        throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of("dbus-send", "--print-reply"));
        command.addAll(List.of(arguments));
        final Process process = desktop.configure(new ProcessBuilder(command)).redirectErrorStream(true).start();
        final byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
