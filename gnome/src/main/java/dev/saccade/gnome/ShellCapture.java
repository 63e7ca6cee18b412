package dev.saccade.gnome;

import com.sun.jna.Memory;
import dev.saccade.desktop.ScreenCapture;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;

/**
 * The pixels of a GNOME session through the extension's {@code Screenshot} (D35): GNOME Shell 43
 * lets only allow-listed senders call its own Screenshot interface, and mutter's ScreenCast
 * delivers frames over PipeWire, which Java cannot read without a native PipeWire client; the
 * shell itself writes a PNG of the stage into a 0600 file in our 0700 runtime directory, which
 * this class decodes and deletes. One screenshot serves every {@link #capture} until the next
 * period's damage; the whole desktop counts as damaged every
 * {@link GnomeConfiguration#capturePeriodMs()} ms (no damage events). One thread, the pixel source's.
 */
final class ShellCapture implements ScreenCapture {
    private static final short POLLIN = 1;

    private final ShellClient shell;
    private final Path file;
    private final Memory pollFd = new Memory(8);
    private final int width;
    private final int height;
    private BufferedImage image;
    private long captures;
    private long nextDamageNs;

    private ShellCapture(final ShellClient shell, final Path file, final int width, final int height) {
        this.shell = shell;
        this.file = file;
        this.width = width;
        this.height = height;
    }

    static ShellCapture open(final String busAddress, final Path runtimeDirectory) {
        ShellClient shell = null;
        try {
            shell = ShellClient.connect(busAddress);
            final Path file = runtimeDirectory.resolve("saccade-gnome-capture-" + ProcessHandle.current().pid() + ".png");
            final ShellCapture capture = new ShellCapture(shell, file, 0, 0);
            final BufferedImage first = capture.shoot();
            if (first == null) {
                throw new IllegalStateException("GNOME Shell's Saccade extension took no screenshot");
            }
            final ShellCapture sized = new ShellCapture(shell, file, first.getWidth(), first.getHeight());
            sized.image = first;
            return sized;
        } catch (final DBusException | DBusExecutionException e) {
            if (shell != null) {
                shell.close();
            }
            throw new IllegalStateException("GNOME Shell's Saccade extension does not answer: " + e.getMessage(), e);
        }
    }

    private BufferedImage shoot() {
        try {
            if (!shell.screenshot(file)) {
                return null;
            }
            return ImageIO.read(file.toFile());
        } catch (final IOException | DBusExecutionException e) {
            return null;
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (final IOException e) {
                // reason: the file is ours, in a 0700 directory; the next shot replaces it
            }
        }
    }

    @Override
    public int screenWidth() {
        return width;
    }

    @Override
    public int screenHeight() {
        return height;
    }

    @Override
    public long captures() {
        return captures;
    }

    @Override
    public boolean capture(final int x, final int y, final int w, final int h, final int[] out) {
        if (image == null) {
            image = shoot();
        }
        if (image == null || x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > image.getWidth() || y + h > image.getHeight()
            || out.length < w * h) {
            return false;
        }
        image.getRGB(x, y, w, h, out, 0, w);
        for (int i = 0; i < w * h; i++) {
            out[i] &= 0x00ffffff;
        }
        captures++;
        return true;
    }

    /** Native Wayland windows have no child windows a client could list. */
    @Override
    public void descendants(final long window, final List<int[]> out) {
    }

    @Override
    public int drainDamage(final DamageSink sink) {
        if (System.nanoTime() - nextDamageNs < 0) {
            return 0;
        }
        nextDamageNs = System.nanoTime() + GnomeConfiguration.capturePeriodMs() * 1_000_000L;
        image = null; // the next capture takes a new screenshot
        sink.damaged(0, 0, width, height);
        return 1;
    }

    @Override
    public int await(final int wakeFd, final int timeoutMs) {
        final long untilDamageMs = Math.max(0, (nextDamageNs - System.nanoTime()) / 1_000_000L);
        final int wait = (int) (timeoutMs < 0 ? untilDamageMs : Math.min(timeoutMs, untilDamageMs));
        pollFd.setInt(0, wakeFd);
        pollFd.setShort(4, POLLIN);
        pollFd.setShort(6, (short) 0);
        if (LibC.poll(pollFd, 1, wait) > 0 && pollFd.getShort(6) != 0) {
            return POLL_WAKE_READY;
        }
        return System.nanoTime() - nextDamageNs >= 0 ? POLL_CAPTURE_READY : 0;
    }

    @Override
    public void close() {
        shell.close();
    }
}
