package dev.saccade.installer;

/**
 * Prints the systemd user unit a system package ships in {@code /usr/lib/systemd/user}: the same
 * unit {@code saccade install} writes ({@link SystemdUserUnit}), with an absolute launcher. The
 * Debian package's build (cli's {@code src/deb/build-deb}) runs it, so the two cannot drift apart.
 *
 * <p>Arguments: the launcher's absolute path ({@code /usr/bin/saccade}) and the version.
 */
public final class PackagedUnit {
    private PackagedUnit() {
    }

    public static void main(final String[] args) {
        if (args.length != 2 || !args[0].startsWith("/")) {
            System.err.println("usage: PackagedUnit /absolute/path/to/saccade VERSION");
            System.exit(2);
        }
        System.out.print(SystemdUserUnit.text(args[0], "the saccade package (Saccade " + args[1]
            + "); enable it with `systemctl --user enable --now " + InstallLayout.SYSTEMD_UNIT_NAME + "`"));
    }
}
