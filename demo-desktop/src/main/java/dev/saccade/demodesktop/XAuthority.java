package dev.saccade.demodesktop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Access control for an X server we start (D29): a random MIT-MAGIC-COOKIE-1 in an authority file
 * of mode 0600 inside a 0700 directory, given to the server ({@code -auth}) and to every child
 * ({@code XAUTHORITY}); and, once the server answers, the server-interpreted entries
 * {@code si:localuser:<name>} for the users the session runs as, so that every process of those
 * users connects (a test JVM's own Xlib connections included, which carry no cookie), and no
 * other user does: the X server checks the peer's uid on its local socket.
 *
 * <p>The file holds one entry for any display ({@code FamilyWild}, no address, no display number:
 * how libXau matches it), so it is written before the display number is known.
 *
 * <pre>
 * entry: family u16 (0xFFFF) | address len u16 + bytes | number len u16 + bytes
 *      | name len u16 + "MIT-MAGIC-COOKIE-1" | data len u16 + 16 random bytes     (big endian)
 * </pre>
 */
public final class XAuthority {
    /** The variable libX11 and libxcb read the authority file's path from. */
    public static final String XAUTHORITY = "XAUTHORITY";
    public static final String FILE_NAME = "Xauthority";
    static final String COOKIE_NAME = "MIT-MAGIC-COOKIE-1";
    static final int COOKIE_BYTES = 16;
    private static final int FAMILY_WILD = 0xFFFF;
    private static final Set<PosixFilePermission> OWNER_READ_WRITE =
        EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private final Path file;

    private XAuthority(final Path file) {
        this.file = file;
    }

    /**
     * Writes a fresh cookie to {@code directory/Xauthority}. The directory must be private (0700):
     * the file's mode keeps others from reading it, the directory keeps them from replacing it.
     */
    public static XAuthority create(final Path directory) throws IOException {
        final byte[] cookie = new byte[COOKIE_BYTES];
        new SecureRandom().nextBytes(cookie);
        final ByteArrayOutputStream entry = new ByteArrayOutputStream();
        entry.write(FAMILY_WILD >>> 8);
        entry.write(FAMILY_WILD & 0xFF);
        field(entry, new byte[0]);
        field(entry, new byte[0]);
        field(entry, COOKIE_NAME.getBytes(StandardCharsets.US_ASCII));
        field(entry, cookie);
        final Path file = directory.resolve(FILE_NAME);
        Files.write(file, entry.toByteArray(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        Files.setPosixFilePermissions(file, OWNER_READ_WRITE);
        return new XAuthority(file);
    }

    private static void field(final ByteArrayOutputStream out, final byte[] bytes) {
        out.write(bytes.length >>> 8);
        out.write(bytes.length & 0xFF);
        out.writeBytes(bytes);
    }

    /** The authority file: {@code XAUTHORITY} for every client of the server. */
    public Path file() {
        return file;
    }

    /** What the X server's command line needs to enforce the cookie. */
    public List<String> serverArguments() {
        return List.of("-auth", file.toString());
    }

    /**
     * The {@code xhost} command (run with {@code DISPLAY} and {@code XAUTHORITY} set) that admits
     * every process of {@code userNames}, by uid, and no one else.
     */
    public static List<String> admitUsersCommand(final List<String> userNames) {
        final List<String> command = new ArrayList<>(List.of("xhost"));
        for (final String name : userNames) {
            command.add("+si:localuser:" + name);
        }
        return command;
    }

    /** {@code file} in a form for logs and {@code toString}. */
    @Override
    public String toString() {
        return "XAuthority[" + file + "]";
    }
}
