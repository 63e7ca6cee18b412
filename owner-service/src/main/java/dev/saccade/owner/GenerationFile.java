package dev.saccade.owner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The last generation an owner published, kept in the runtime directory so the next owner
 * numbers above it even if the wall clock stepped back (spec §5.2: generations only grow, across
 * restarts too). Eight little-endian bytes, rewritten in place by the scene source's thread after
 * each publication; never by the owner thread.
 */
public final class GenerationFile implements AutoCloseable {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);

    public GenerationFile(final Path path) throws IOException {
        if (Files.notExists(path)) {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** The stored generation, or 0 when none was stored (or the file is damaged). */
    public static long read(final Path path) {
        try {
            final byte[] bytes = Files.readAllBytes(path);
            return bytes.length == Long.BYTES ? ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong() : 0;
        } catch (final IOException ignore) {
            return 0; // no file yet: the wall clock alone seeds the numbering
        }
    }

    public void write(final long generation) throws IOException {
        buffer.clear();
        buffer.putLong(generation).flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer, buffer.position());
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
