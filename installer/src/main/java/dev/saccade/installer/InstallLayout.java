package dev.saccade.installer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where Saccade is installed for one user on one platform: a data root holding
 * {@code versions/<version>/} (each a copy of a distribution) and a {@code current} link to one of
 * them, which the login item starts; and the login item's own file.
 *
 * <table>
 *   <caption>Paths per platform ({@code ~} is the home directory)</caption>
 *   <tr><td>Linux</td><td>{@code ~/.local/share/saccade}</td>
 *       <td>{@code ~/.config/systemd/user/saccade-supervisor.service}</td></tr>
 *   <tr><td>macOS</td><td>{@code ~/Library/Application Support/Saccade}</td>
 *       <td>{@code ~/Library/LaunchAgents/dev.saccade.supervisor.plist}, logs in {@code ~/Library/Logs/Saccade}</td></tr>
 *   <tr><td>Windows</td><td>{@code %LOCALAPPDATA%\Saccade}</td>
 *       <td>{@code %LOCALAPPDATA%\Saccade\saccade-supervisor-task.xml}, registered with {@code schtasks}</td></tr>
 * </table>
 *
 * The login item always starts {@code current}, so an upgrade switches one link and never
 * rewrites the login item. Pure path arithmetic: nothing here touches the file system.
 */
public final class InstallLayout {
    public static final String VERSIONS = "versions";
    public static final String CURRENT = "current";
    /** Lists what install created outside the versions, so uninstall removes exactly that. */
    public static final String MANIFEST = "installed-paths";
    public static final String SYSTEMD_UNIT_NAME = "saccade-supervisor.service";
    public static final String LAUNCH_AGENT_LABEL = "dev.saccade.supervisor";
    public static final String TASK_XML_NAME = "saccade-supervisor-task.xml";
    /** The task's path in the Task Scheduler library. */
    public static final String TASK_NAME = "\\Saccade\\Supervisor";

    private final Platform platform;
    private final Path home;
    private final Path root;
    private final Path loginItem;
    private final Path logDirectory;

    private InstallLayout(final Platform platform, final Path home, final Path root, final Path loginItem,
        final Path logDirectory) {
        this.platform = platform;
        this.home = home;
        this.root = root;
        this.loginItem = loginItem;
        this.logDirectory = logDirectory;
    }

    /**
     * The layout under {@code home}. On Windows {@code %LOCALAPPDATA%} is taken from {@code env}
     * when {@code home} is the user's own home ({@code homeIsOwn}), else it is
     * {@code home\AppData\Local}, its default place, so a trial {@code --home} stays inside it.
     */
    public static InstallLayout of(final Platform platform, final Path home, final boolean homeIsOwn,
        final Map<String, String> env) {
        final Path h = home.toAbsolutePath().normalize();
        switch (platform) {
            case LINUX: {
                return new InstallLayout(platform, h, h.resolve(".local/share/saccade"),
                    h.resolve(".config/systemd/user").resolve(SYSTEMD_UNIT_NAME), null);
            }
            case MACOS: {
                return new InstallLayout(platform, h, h.resolve("Library/Application Support/Saccade"),
                    h.resolve("Library/LaunchAgents").resolve(LAUNCH_AGENT_LABEL + ".plist"),
                    h.resolve("Library/Logs/Saccade"));
            }
            case WINDOWS: {
                final String localAppData = homeIsOwn ? env.get("LOCALAPPDATA") : null;
                final Path base = localAppData != null && !localAppData.isEmpty()
                    ? Path.of(localAppData) : h.resolve("AppData").resolve("Local");
                final Path root = base.resolve("Saccade");
                return new InstallLayout(platform, h, root, root.resolve(TASK_XML_NAME), null);
            }
            default:
                throw new IllegalArgumentException(platform.toString());
        }
    }

    public Platform platform() {
        return platform;
    }

    public Path home() {
        return home;
    }

    /** The data root: versions, the current link and the manifest. */
    public Path root() {
        return root;
    }

    public Path versions() {
        return root.resolve(VERSIONS);
    }

    public Path version(final String version) {
        return versions().resolve(version);
    }

    public Path current() {
        return root.resolve(CURRENT);
    }

    public Path manifest() {
        return root.resolve(MANIFEST);
    }

    /** The login item's file. */
    public Path loginItem() {
        return loginItem;
    }

    /** The launcher the login item runs, through the current link. */
    public Path currentLauncher() {
        return current().resolve("bin").resolve(platform == Platform.WINDOWS ? "saccade.cmd" : "saccade");
    }

    /** Directories install makes sure exist, parents before children. */
    public List<Path> directories() {
        final List<Path> directories = new ArrayList<>();
        directories.add(root);
        directories.add(versions());
        directories.add(loginItem.getParent());
        if (logDirectory != null) {
            directories.add(logDirectory);
        }
        return directories;
    }

    /** macOS: where launchd writes the supervisor's standard output and error. */
    public Path logDirectory() {
        if (logDirectory == null) {
            throw new IllegalStateException(platform + " keeps no log directory of ours");
        }
        return logDirectory;
    }
}
