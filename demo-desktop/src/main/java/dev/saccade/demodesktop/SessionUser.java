package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;

/**
 * The user a Wayland session of the tests runs as. sway refuses to run as root, so a test JVM
 * running as root creates a dedicated system user ({@value #NAME}, no home, no login shell) the
 * first time and starts the compositor, the session bus and the apps as that user through
 * {@code setpriv} (which execs, so the pid we hold is the program's own, unlike {@code runuser},
 * which stays as a parent). A JVM that is not root runs the session as itself.
 */
final class SessionUser {
    static final String NAME = "saccade-wl";

    private final String name;
    private final int uid;
    private final int gid;
    private final boolean switched;

    private SessionUser(final String name, final int uid, final int gid, final boolean switched) {
        this.name = name;
        this.uid = uid;
        this.gid = gid;
        this.switched = switched;
    }

    static SessionUser resolve() {
        final ToolCommand.Result self = runTool(List.of("id", "-u"));
        if (!"0".equals(self.stdout().strip())) {
            final int me = Integer.parseInt(self.stdout().strip());
            final int group = Integer.parseInt(runTool(List.of("id", "-g")).stdout().strip());
            return new SessionUser(System.getProperty("user.name"), me, group, false);
        }
        if (!runTool(List.of("id", "-u", NAME)).succeeded()) {
            final ToolCommand.Result created = runTool(List.of(
                "useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", NAME));
            // Another JVM may have created it in between: only a still missing user is an error.
            if (!created.succeeded() && !runTool(List.of("id", "-u", NAME)).succeeded()) {
                throw new TestDesktopException("cannot create the session user " + NAME + " (is passwd installed?): "
                    + created.stderr().strip());
            }
        }
        final int uid = Integer.parseInt(runTool(List.of("id", "-u", NAME)).stdout().strip());
        final int gid = Integer.parseInt(runTool(List.of("id", "-g", NAME)).stdout().strip());
        return new SessionUser(NAME, uid, gid, true);
    }

    private static ToolCommand.Result runTool(final List<String> command) {
        try {
            final Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(
                new java.io.File("/dev/null"))).start();
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            final String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            return new ToolCommand.Result(process.waitFor(), out, err);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot run " + command, e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestDesktopException("interrupted running " + command, e);
        }
    }

    String name() {
        return name;
    }

    int uid() {
        return uid;
    }

    /** The command that runs {@code command} as this user (the command itself when no switch is needed). */
    List<String> command(final List<String> command) {
        if (!switched) {
            return command;
        }
        final List<String> full = new ArrayList<>(List.of(
            "setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--"));
        full.addAll(command);
        return full;
    }

    /**
     * A new private session directory under /tmp whose root and XDG directories are this
     * user's (a Wayland session's, docs/wayland.md §3).
     */
    SessionDirectory createDirectory() {
        try {
            final SessionDirectory directory = SessionDirectory.create(Path.of("/tmp"));
            own(directory.root());
            for (final Path p : List.of(directory.runtime(), directory.cache(), directory.config(), directory.data(),
                directory.state(), directory.home())) {
                own(p);
            }
            return directory;
        } catch (final IOException e) {
            throw new TestDesktopException("cannot create the session directory", e);
        }
    }

    /** Gives a directory the session creates to this user (its mode stays 0700). */
    void own(final Path directory) throws IOException {
        if (!switched) {
            return;
        }
        final UserPrincipal user = directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(name);
        Files.setOwner(directory, user);
    }
}
