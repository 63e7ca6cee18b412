package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The real applications a test desktop can run. Each is a Debian package's program with a known
 * window title; the GTK and Qt ones set {@code _NET_WM_PID} and register on the AT-SPI2 bus, the
 * Athena ones (xmessage, xcalc) do neither (checked on Debian 12).
 */
public enum DemoApp {
    /**
     * GTK 3's widget demo (about 190 accessible nodes). The window title is the selected demo's
     * name, "Application Class" at start. Not single-instance: two can run side by side.
     */
    GTK3_DEMO("gtk3-demo", List.of("gtk3-demo"), Map.of(), "Application Class", "gtk3-demo", "gtk-3-examples"),

    /**
     * A zenity text entry dialog. On OK it prints the entered line on stdout
     * ({@link AppHandle#stdoutFile()}) and exits 0: handy for end-to-end typing tests.
     */
    ZENITY_ENTRY("zenity-entry",
        List.of("zenity", "--entry", "--title=Saccade entry", "--text=Type a line and press OK"),
        Map.of(), "Saccade entry", "zenity", "zenity"),

    /**
     * A zenity form of three entries (First, Second, Third). On OK it prints the three texts
     * joined by '|' on stdout and exits 0: the proof that each text went to its own field.
     */
    ZENITY_FORM("zenity-form",
        List.of("zenity", "--forms", "--title=Saccade form", "--text=Three fields",
            "--add-entry=First", "--add-entry=Second", "--add-entry=Third"),
        Map.of(), "Saccade form", "zenity", "zenity"),

    /** A zenity password dialog: its entry is a SECURE field (AT-SPI role password text). */
    ZENITY_PASSWORD("zenity-password", List.of("zenity", "--password", "--title=Saccade password"),
        Map.of(), "Saccade password", "zenity", "zenity"),

    /**
     * Qt 5's calculator example. Qt registers on AT-SPI2 only when told to, whatever
     * {@code org.a11y.Status.IsEnabled} says.
     */
    QT_CALCULATOR("qt-calculator",
        List.of("/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator"),
        Map.of("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1", "QT_ACCESSIBILITY", "1"),
        "Calculator", "calculator", "qtbase5-examples"),

    /**
     * GNOME's calculator, a GTK 4 application: GTK 4 publishes its own AT-SPI tree, with bounds
     * relative to its window. Single-instance per session bus.
     */
    GNOME_CALCULATOR("gnome-calculator", List.of("gnome-calculator"), Map.of(), "Calculator", "gnome-calculator",
        "gnome-calculator"),

    /**
     * An Athena (Xt) dialog: no accessibility tree, no {@code _NET_WM_PID}; every widget is an X
     * child window. Prints the label of the button clicked on stdout and exits.
     */
    XMESSAGE("xmessage", List.of("xmessage", "-print", "-buttons", "Yes,No", "Proceed?"), Map.of(),
        "xmessage", null, "x11-utils"),

    /** The Athena calculator of x11-apps: no accessibility tree, no {@code _NET_WM_PID}. */
    XCALC("xcalc", List.of("xcalc"), Map.of(), "Calculator", null, "x11-apps");

    private static final String QT_EXAMPLE_SUFFIX = "qt5/examples/widgets/widgets/calculator/calculator";

    private final String logName;
    private final List<String> command;
    private final Map<String, String> environment;
    private final String expectedTitle;
    private final String accessibleName;
    private final String debianPackage;

    DemoApp(
        final String logName,
        final List<String> command,
        final Map<String, String> environment,
        final String expectedTitle,
        final String accessibleName,
        final String debianPackage) {
        this.logName = logName;
        this.command = command;
        this.environment = environment;
        this.expectedTitle = expectedTitle;
        this.accessibleName = accessibleName;
        this.debianPackage = debianPackage;
    }

    /** The command line; the Qt example's path is looked up for this machine's multiarch triplet. */
    public List<String> command() {
        final String executable = command.get(0);
        if (!executable.endsWith(QT_EXAMPLE_SUFFIX) || Files.isExecutable(Path.of(executable))) {
            return command;
        }
        try (DirectoryStream<Path> libs = Files.newDirectoryStream(Path.of("/usr/lib"), "*-linux-gnu*")) {
            for (final Path lib : libs) {
                final Path candidate = lib.resolve(QT_EXAMPLE_SUFFIX);
                if (Files.isExecutable(candidate)) {
                    return List.of(candidate.toString());
                }
            }
        } catch (final IOException ignore) {
            // reason: no /usr/lib to search; RequiredTools reports the missing program by name
        }
        return command;
    }

    /** Variables the app needs on top of the desktop's environment. */
    public Map<String, String> environment() {
        return environment;
    }

    /** The title its first window has right after start. */
    public String expectedTitle() {
        return expectedTitle;
    }

    /** Whether it registers on the AT-SPI2 bus (and sets {@code _NET_WM_PID}); Xt apps do neither. */
    public boolean accessible() {
        return accessibleName != null;
    }

    /** The {@code Name} of its application object on the AT-SPI2 bus; null if it has none. */
    public String accessibleName() {
        return accessibleName;
    }

    /** The Debian package that provides it. */
    public String debianPackage() {
        return debianPackage;
    }

    /** Names its log files. */
    String logName() {
        return logName;
    }
}
