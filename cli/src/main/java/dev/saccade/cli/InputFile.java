package dev.saccade.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A file a command reads whole, or standard input for {@code -}: read up to a limit, so that a
 * huge or endless input is refused after {@code maxBytes + 1} bytes instead of filling memory.
 * Every failure is an {@link InputFailedException} (exit code {@link ExitCodes#INPUT}) whose
 * message names the option and the file.
 */
final class InputFile {
    /** The name that means standard input. */
    static final String STDIN = "-";

    private InputFile() {
    }

    /**
     * The bytes of {@code name} ({@code -}: standard input).
     *
     * @param what the option or parameter, e.g. "--text-file", for messages.
     * @throws InputFailedException unreadable, or longer than {@code maxBytes}.
     */
    static byte[] read(final String name, final int maxBytes, final String what) throws InputFailedException {
        final String shown = STDIN.equals(name) ? "standard input" : name;
        try {
            if (STDIN.equals(name)) {
                return readAtMost(System.in, maxBytes, what, shown);
            }
            final Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                throw new InputFailedException("cannot read " + what + " " + shown + ": it is a directory");
            }
            try (InputStream in = Files.newInputStream(path)) {
                return readAtMost(in, maxBytes, what, shown);
            }
        } catch (final NoSuchFileException e) {
            throw new InputFailedException("cannot read " + what + " " + shown + ": no such file", e);
        } catch (final AccessDeniedException e) {
            throw new InputFailedException("cannot read " + what + " " + shown + ": permission denied", e);
        } catch (final IOException | InvalidPathException e) {
            throw new InputFailedException("cannot read " + what + " " + shown + ": " + e.getMessage(), e);
        }
    }

    private static byte[] readAtMost(final InputStream in, final int maxBytes, final String what, final String shown)
        throws IOException, InputFailedException {
        // One byte more than allowed tells "exactly the limit" from "too long".
        final byte[] bytes = in.readNBytes(maxBytes + 1);
        if (bytes.length > maxBytes) {
            throw new InputFailedException(what + " " + shown + " is longer than " + maxBytes + " bytes");
        }
        return bytes;
    }
}
