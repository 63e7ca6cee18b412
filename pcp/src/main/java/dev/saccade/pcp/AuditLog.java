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
 * confirmation outcome, in a 0600 file (pcp §10). When an append would take the file past
 * {@code maxBytes} the files shift ({@code <name>.1} to {@code .2}, up to {@value #ROTATIONS}) and a
 * new one starts, so the trail keeps the last {@value #ROTATIONS} files and costs at most
 * {@value #ROTATIONS} + 1 times {@code maxBytes}. No string a peer sends is written longer than
 * {@value #MAX_STRING_CHARS} characters, nor a list or object with more than {@value #MAX_MEMBERS}
 * members: one record cannot push the others out of the trail.
 *
 * <p>Appends come from every connection thread; one monitor orders them. A failed write is
 * counted and logged once, never thrown at the caller: an invocation does not fail because the
 * disk is full, but the count shows the trail has gaps.
 */
public final class AuditLog implements AutoCloseable {
    public static final String FILE_NAME = "saccade-pcp-audit.jsonl";
    public static final long MAX_BYTES_DEFAULT = 8L << 20;
    /** Rotated files kept beside the current one. */
    public static final int ROTATIONS = 5;
    public static final int MAX_STRING_CHARS = 256;
    public static final int MAX_MEMBERS = 32;
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

    /**
     * {@code $XDG_STATE_HOME/saccade} (default {@code ~/.local/state/saccade}), created 0700: on
     * disk, so the trail outlives a reboot, unlike the tmpfs runtime directory, which is used only
     * where there is no home.
     */
    public static Path defaultDirectory(final Map<String, String> env, final Path runtimeDirectory) {
        final String state = env.get("XDG_STATE_HOME");
        final String home = System.getProperty("user.home", "");
        final Path base = state != null && Path.of(state).isAbsolute() ? Path.of(state)
            : home.isEmpty() || "?".equals(home) ? null : Path.of(home, ".local", "state");
        if (base == null) {
            return runtimeDirectory;
        }
        final Path directory = base.resolve("saccade");
        try {
            Files.createDirectories(directory);
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
            return directory;
        } catch (final IOException | UnsupportedOperationException e) {
            LOG.warn("event=audit_directory_unusable path={} error={}", directory, e.toString());
            return runtimeDirectory;
        }
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
    @SuppressWarnings("unchecked") // bounded keeps a map a map
    public synchronized void append(final Map<String, Object> record) {
        final Map<String, Object> line = JsonTree.object("ts_ms", System.currentTimeMillis());
        line.putAll((Map<String, Object>) bounded(record));
        final byte[] bytes = (JsonTree.write(line) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            if (channel == null) {
                open();
            }
            if (size > 0 && size + bytes.length > maxBytes) {
                channel.close();
                channel = null;
                rotate();
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

    private void rotate() throws IOException {
        for (int n = ROTATIONS - 1; n >= 1; n--) {
            final Path older = rotated(n);
            if (Files.exists(older, LinkOption.NOFOLLOW_LINKS)) {
                Files.move(older, rotated(n + 1), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        Files.move(path, rotated(1), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The {@code n}-th rotated file ({@code <name>.n}, 1 the newest). */
    public Path rotated(final int n) {
        return path.resolveSibling(path.getFileName() + "." + n);
    }

    /** {@code value} with every string, list and object cut to the bounds; a cut string ends in "…". */
    private static Object bounded(final Object value) {
        if (value instanceof String s) {
            return s.length() <= MAX_STRING_CHARS ? s : s.substring(0, MAX_STRING_CHARS) + "…";
        }
        if (value instanceof Map<?, ?> map) {
            final Map<String, Object> out = new java.util.LinkedHashMap<>();
            for (final Map.Entry<?, ?> e : map.entrySet()) {
                if (out.size() == MAX_MEMBERS) {
                    out.put("…", map.size() - MAX_MEMBERS);
                    break;
                }
                out.put((String) bounded(String.valueOf(e.getKey())), bounded(e.getValue()));
            }
            return out;
        }
        if (value instanceof java.util.List<?> list) {
            final java.util.List<Object> out = new java.util.ArrayList<>();
            for (int i = 0; i < list.size() && i < MAX_MEMBERS; i++) {
                out.add(bounded(list.get(i)));
            }
            return out;
        }
        return value;
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
