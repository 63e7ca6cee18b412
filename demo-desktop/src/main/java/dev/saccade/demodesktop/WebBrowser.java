package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A web browser started on a test desktop with a fresh profile that opens one page and nothing
 * else (no welcome tab, no first-run dialog, no update or sync traffic). Accessibility is not
 * forced by a flag: the owner turns it on the standard way (D50), so the browser is started
 * after the owner connected. The caller owns the returned process and destroys it.
 */
public enum WebBrowser {
    CHROMIUM("Chromium", "chromium"),
    FIREFOX("Firefox", "firefox-esr");

    private final String label;
    private final String command;

    WebBrowser(final String label, final String command) {
        this.label = label;
        this.command = command;
    }

    /** Its name as a report prints it. */
    public String label() {
        return label;
    }

    /** Whether its executable is on the PATH. */
    public boolean installed() {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Starts it on {@code desktop} showing {@code url}, with its profile in a new 0700 directory
     * under {@code scratch}; output goes to the desktop's log directory.
     */
    public Process start(final TestDesktop desktop, final Path scratch, final String url) throws IOException {
        final Path profile = Files.createTempDirectory(scratch, command + "-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final List<String> argv;
        if (this == CHROMIUM) {
            // as root Chromium refuses to start without --no-sandbox
            argv = List.of(command, "--no-sandbox", "--test-type", "--user-data-dir=" + profile, "--disable-gpu",
                "--disable-quic", "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-features=Translate",
                "--password-store=basic", url);
        } else {
            Files.writeString(profile.resolve("user.js"), String.join("\n",
                "user_pref(\"browser.startup.homepage_override.mstone\", \"ignore\");",
                "user_pref(\"startup.homepage_welcome_url\", \"\");",
                "user_pref(\"startup.homepage_welcome_url.additional\", \"\");",
                "user_pref(\"browser.aboutwelcome.enabled\", false);",
                "user_pref(\"datareporting.policy.dataSubmissionEnabled\", false);",
                "user_pref(\"toolkit.telemetry.reportingpolicy.firstRun\", false);",
                "user_pref(\"datareporting.policy.dataSubmissionPolicyBypassNotification\", true);",
                "user_pref(\"browser.shell.checkDefaultBrowser\", false);",
                "user_pref(\"app.update.auto\", false);",
                "user_pref(\"browser.tabs.warnOnClose\", false);",
                "user_pref(\"network.captive-portal-service.enabled\", false);",
                "user_pref(\"browser.safebrowsing.malware.enabled\", false);",
                "user_pref(\"browser.safebrowsing.phishing.enabled\", false);", ""));
            argv = List.of(command, "--no-remote", "-profile", profile.toString(), url);
        }
        final Path log = desktop.logDir().resolve(command + "-" + System.nanoTime() + ".log");
        return desktop.configure(new ProcessBuilder(argv)).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
    }

    /** Stops a browser {@link #start} started, with its child processes (renderers, content processes). */
    public static void stop(final Process browser) throws InterruptedException {
        browser.descendants().forEach(ProcessHandle::destroyForcibly);
        browser.destroyForcibly().waitFor();
    }
}
