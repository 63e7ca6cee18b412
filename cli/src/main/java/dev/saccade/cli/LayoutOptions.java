package dev.saccade.cli;

import dev.saccade.installer.InstallException;
import dev.saccade.installer.InstallLayout;
import dev.saccade.installer.Platform;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --platform} and {@code --home}: whose layout install, upgrade and uninstall work on.
 * The login item is only switched on or off (systemctl) for this platform and the user's own
 * home: a user manager knows nothing of units in another directory.
 */
final class LayoutOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--platform", paramLabel = "linux|macos|windows",
        description = "Whose layout and login item: linux (systemd user unit), macos (LaunchAgent) or windows"
            + " (Task Scheduler logon task). Default: this machine's.")
    String platform;

    @Option(names = "--home", paramLabel = "DIR",
        description = "Home directory to install under instead of yours (for a trial: the login item is then"
            + " written but not switched on or off).")
    Path home;

    Platform platform() {
        if (platform == null) {
            return Platform.current();
        }
        for (final Platform p : Platform.values()) {
            if (p.cliName().equals(platform.toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new ParameterException(mixee.commandLine(),
            "--platform must be linux, macos or windows, not '" + platform + "'");
    }

    /** Whether the layout is this user's own on this machine, so its login item can be switched. */
    boolean isOwn() {
        return platform() == Platform.current() && home().equals(ownHome());
    }

    /**
     * Why saccade cannot switch this layout's login item on or off itself, or null when it can
     * try: it runs {@code systemctl --user} for the user's own Linux home only.
     */
    String whyLoginItemNotSwitchable() {
        if (platform() != Platform.current()) {
            return "it is for " + platform().cliName() + ", and this machine runs " + Platform.current().cliName();
        }
        if (platform() != Platform.LINUX) {
            return "saccade runs systemctl only; launchctl and schtasks are left to you";
        }
        if (!isOwn()) {
            return "--home " + home() + " is not your home, and your user manager reads units only from yours";
        }
        return null;
    }

    Path home() {
        return home == null ? ownHome() : home.toAbsolutePath().normalize();
    }

    /** Reads $HOME; tests that play another user's home replace it. */
    static java.util.function.UnaryOperator<String> environment = System::getenv;

    /** $HOME as the shell and systemd see it (the JVM's user.home comes from the password file instead). */
    private static Path ownHome() {
        final String env = environment.apply("HOME");
        final String home = env != null && env.startsWith("/") ? env : System.getProperty("user.home");
        return Path.of(home).toAbsolutePath().normalize();
    }

    InstallLayout layout() {
        return InstallLayout.of(platform(), home(), isOwn(), System.getenv());
    }

    /**
     * Prints a failed install, upgrade or uninstall as one line and returns its exit code: a bad
     * distribution is the command's input, a layout that cannot be written its output.
     */
    static int report(final InstallException e, final PrintWriter err) {
        err.println("saccade: " + e.getMessage());
        err.flush();
        return e.kind() == InstallException.Kind.DISTRIBUTION ? ExitCodes.INPUT : ExitCodes.OUTPUT;
    }
}
