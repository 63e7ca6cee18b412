package dev.saccade.bench;

import dev.saccade.demodesktop.TestDesktop;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The applications {@code bench/run realapps} measures (bench/README.md "Real applications"),
 * each started the way a user's desktop would start it: GNOME's GTK 4 calculator and text
 * editor, LibreOffice Calc and Writer (GTK 3 VCL, each with its own profile, so each is its own
 * soffice.bin), Chromium and Firefox ESR showing the harness's page on 127.0.0.1 (fresh profiles,
 * no accessibility flags: the owner or the source turns accessibility on, D50), a Swing form with
 * the Java ATK wrapper, and xterm (no accessible tree) running a shell.
 */
enum RealApp {
    CALCULATOR("gnome-calculator", "Calculator", true),
    TEXT_EDITOR("gnome-text-editor", "", true),
    CALC("libreoffice-calc", "LibreOffice Calc", true),
    WRITER("libreoffice-writer", "LibreOffice Writer", true),
    CHROMIUM("chromium", BenchPage.TITLE, true),
    FIREFOX("firefox-esr", BenchPage.TITLE, true),
    SWING("swing", BenchSwingApp.TITLE, true),
    XTERM("xterm", "saccade-bench-xterm", false);

    static final Path WRAPPER = Path.of("/usr/share/java/java-atk-wrapper.jar");
    static final Path WRAPPER_JNI = Path.of("/usr/lib/x86_64-linux-gnu/jni");

    final String label;
    /** A part of its first window's title ("" for any window of its processes). */
    final String title;
    /** Whether it publishes an accessible tree (xterm does not). */
    final boolean accessible;

    RealApp(final String label, final String title, final boolean accessible) {
        this.label = label;
        this.title = title;
        this.accessible = accessible;
    }

    /** LibreOffice builds a sheet's cells for whoever lists them: its naive walk must be bounded (D47). */
    boolean guarded() {
        return this == CALC || this == WRITER;
    }

    /** The apps named in {@code list} (labels, comma-separated), or all for "all". */
    static List<RealApp> parse(final String list) {
        final List<RealApp> apps = new ArrayList<>();
        for (final String name : list.split(",")) {
            for (final RealApp app : values()) {
                if (name.equals("all") || app.label.equals(name) || app.name().equalsIgnoreCase(name.replace('-', '_'))) {
                    apps.add(app);
                }
            }
        }
        if (apps.isEmpty()) {
            throw new IllegalArgumentException("apps=" + list + ": none of " + List.of(values()));
        }
        return apps;
    }

    /** Starts it on {@code desktop}; {@code scratch} holds its profile (0700), {@code url} is the page browsers show. */
    Process launch(final TestDesktop desktop, final Path scratch, final String url) throws IOException {
        final Path home = Files.createDirectories(scratch.resolve(label));
        final List<String> command = switch (this) {
            case CALCULATOR -> List.of("gnome-calculator");
            case TEXT_EDITOR -> List.of("gnome-text-editor", "--standalone", "--ignore-session");
            case CALC, WRITER -> List.of("/usr/lib/libreoffice/program/soffice", this == CALC ? "--calc" : "--writer",
                "--norestore", "--nologo", "--nofirststartwizard", "-env:UserInstallation=" + home.toUri());
            case CHROMIUM -> List.of("chromium", "--no-sandbox", "--test-type", "--user-data-dir=" + home, "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-features=Translate", "--password-store=basic", url);
            case FIREFOX -> firefox(home, url);
            case SWING -> List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper",
                "-Djava.library.path=" + WRAPPER_JNI, "-cp",
                System.getProperty("java.class.path") + File.pathSeparator + WRAPPER, BenchSwingApp.class.getName());
            case XTERM -> List.of("xterm", "-title", title, "-e", "sh");
        };
        final ProcessBuilder builder = desktop.configure(new ProcessBuilder(command)).directory(home.toFile())
            .redirectErrorStream(true).redirectOutput(scratch.resolve(label + ".log").toFile());
        if (guarded()) {
            builder.environment().put("SAL_USE_VCLPLUGIN", "gtk3");
        }
        return builder.start();
    }

    private static List<String> firefox(final Path profile, final String url) throws IOException {
        // a fresh profile that opens only the page: no welcome tab, reporting bar, browser check or updates
        final String[][] prefs = {
            {"browser.startup.homepage_override.mstone", "\"ignore\""}, {"startup.homepage_welcome_url", "\"\""},
            {"browser.aboutwelcome.enabled", "false"}, {"datareporting.policy.dataSubmissionEnabled", "false"},
            {"toolkit.telemetry.reportingpolicy.firstRun", "false"}, {"browser.shell.checkDefaultBrowser", "false"},
            {"app.update.auto", "false"}, {"network.captive-portal-service.enabled", "false"},
            {"browser.safebrowsing.malware.enabled", "false"}, {"browser.safebrowsing.phishing.enabled", "false"},
        };
        final StringBuilder userJs = new StringBuilder();
        for (final String[] p : prefs) {
            userJs.append("user_pref(\"").append(p[0]).append("\", ").append(p[1]).append(");\n");
        }
        Files.writeString(profile.resolve("user.js"), userJs, StandardCharsets.UTF_8);
        return List.of("firefox-esr", "--no-remote", "-profile", profile.toString(), url);
    }

    /** Its window, once the window manager lists one of its processes' (or, without a pid, titled as expected). */
    long awaitWindow(final TestDesktop desktop, final Process process, final long timeoutMs) throws InterruptedException {
        final long until = System.nanoTime() + timeoutMs * 1_000_000;
        while (System.nanoTime() - until < 0) {
            final List<Long> pids = AppProcesses.of(process).pids();
            for (final long id : desktop.clientList()) {
                final long pid = desktop.windowPid(id);
                final String name = desktop.windowTitle(id);
                if (name.contains(title) && (pids.contains(pid) || pid <= 0 && !title.isEmpty())) {
                    return id;
                }
            }
            if (!process.isAlive() && AppProcesses.of(process).pids().size() <= 1) {
                throw new IllegalStateException(label + " exited " + process.exitValue() + " before showing a window");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // the window manager's list, polled to the deadline
        }
        throw new IllegalStateException(String.format(Locale.ROOT, "%s showed no window titled '%s' in %d ms", label, title,
            timeoutMs));
    }

    /** The JVM's own pid, kept out of every app's processes (the Swing app is its child, the harness is not). */
    static long self() {
        return ManagementFactory.getRuntimeMXBean().getPid();
    }
}
