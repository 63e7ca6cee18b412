package dev.saccade.pcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PCP audit trail: one JSON object a line per invocation, registration, revocation and
 * confirmation outcome, in a 0600 file. When an append would take the file past
 * {@code maxBytes} it is renamed to {@code <name>.1} (replacing the previous one) and a new file
 * started, so the trail costs at most twice {@code maxBytes} on disk.
 *
 * <p>Appends come from every connection thread; one monitor orders them. A failed write is
 * counted and logged once, never thrown at the caller: an invocation does not fail because the
 * disk is full, but the count shows the trail has gaps.
 */
public final class AuditLog implements AutoCloseable {
    public static final String FILE_NAME = "saccade-pcp-audit.jsonl";
    public static final long MAX_BYTES_DEFAULT = 8L << 20;
    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    private final Path path;
    private final long maxBytes;
    private FileChannel channel;
    private long size;
    private long failures;
    private long records;

    public AuditLog(final Path path, final long maxBytes) throws IOException {
        if (maxBytes < 1024) {
            throw new IllegalArgumentException("audit log size limit below 1 KiB: " + maxBytes);
        }
        this.path = path;
        this.maxBytes = maxBytes;
        open();
    }

    private void open() throws IOException {
        channel = FileChannel.open(path, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        // An existing file keeps its mode on open: narrow it, it may predate us.
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        size = channel.size();
    }

    /** Appends {@code record} with a {@code ts_ms} member first. */
    public synchronized void append(final Map<String, Object> record) {
        final Map<String, Object> line = JsonTree.object("ts_ms", System.currentTimeMillis());
        line.putAll(record);
        final byte[] bytes = (JsonTree.write(line) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            if (channel == null) {
                open();
            }
            if (size > 0 && size + bytes.length > maxBytes) {
                channel.close();
                channel = null;
                Files.move(path, path.resolveSibling(path.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
                open();
            }
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                size += channel.write(buffer);
            }
            records++;
        } catch (final IOException e) {
            if (failures++ == 0) {
                LOG.warn("event=audit_write_failed path={} error={}", path, e.toString());
            }
        }
    }

    public Path path() {
        return path;
    }

    public synchronized long records() {
        return records;
    }

    public synchronized long failures() {
        return failures;
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
