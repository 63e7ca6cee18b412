package dev.saccade.cli;

import dev.saccade.gnome.ShellExtension;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code saccade install --gnome-extension}: writes Saccade's GNOME Shell extension under the
 * user's data directory and adds its uuid to {@code org.gnome.shell enabled-extensions} with
 * {@code gsettings}; GNOME Shell on Wayland loads a new extension at the next login.
 */
final class GnomeExtensionInstall {
    private static final long GSETTINGS_TIMEOUT_MS = 10_000;

    private GnomeExtensionInstall() {
    }

    static int run(final PrintWriter out, final PrintWriter err) {
        final String dataHome = System.getenv("XDG_DATA_HOME");
        final Path data = dataHome != null && !dataHome.isEmpty() ? Path.of(dataHome)
            : Path.of(System.getProperty("user.home"), ".local", "share");
        try {
            final Path directory = ShellExtension.install(data);
            out.println("installed GNOME Shell extension " + ShellExtension.UUID + " in " + directory);
            final String enabled = gsettings("get", "org.gnome.shell", "enabled-extensions");
            if (enabled == null) {
                err.println("saccade: gsettings is unavailable; enable it after the next login: gnome-extensions enable "
                    + ShellExtension.UUID);
                return ExitCodes.SUCCESS;
            }
            if (!enabled.contains("'" + ShellExtension.UUID + "'")) {
                final String list = enabled.strip().replace("@as ", "");
                final String next = "[]".equals(list) ? "['" + ShellExtension.UUID + "']"
                    : list.substring(0, list.length() - 1) + ", '" + ShellExtension.UUID + "']";
                if (gsettings("set", "org.gnome.shell", "enabled-extensions", next) == null) {
                    err.println("saccade: cannot add it to enabled-extensions; after the next login run: "
                        + "gnome-extensions enable " + ShellExtension.UUID);
                    return ExitCodes.SUCCESS;
                }
            }
            out.println("enabled; log out and in again for GNOME Shell to load it (check: saccade doctor)");
            out.flush();
            return ExitCodes.SUCCESS;
        } catch (final IOException e) {
            err.println("saccade: cannot install the GNOME Shell extension: " + e.getMessage());
            return ExitCodes.REQUEST_REJECTED;
        }
    }

    /** Runs gsettings; its stdout, or null when it failed or is missing. */
    private static String gsettings(final String... arguments) {
        final List<String> command = new java.util.ArrayList<>(List.of("gsettings"));
        command.addAll(List.of(arguments));
        try {
            final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(GSETTINGS_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? output : null;
        } catch (final IOException e) {
            return null;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
