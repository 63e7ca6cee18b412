package dev.saccade.pixel;

import dev.saccade.desktop.WindowInfo;
import dev.saccade.x11.X11Capture;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * By hand: a window's captured pixels saved as a binary PPM plus its X children
 * ({@code name.ppm}, {@code name.children}), and read back by {@link PixelProbe} to try the
 * analyzer on a fixed image without a desktop.
 */
final class PixelImages {
    private PixelImages() {
    }

    static void save(final String display, final WindowInfo w, final Path base) throws IOException {
        final int[] rgb = new int[w.width() * w.height()];
        final List<int[]> children = new ArrayList<>();
        try (X11Capture x = X11Capture.open(display)) {
            if (!x.capture(w.x(), w.y(), w.width(), w.height(), rgb)) {
                throw new IllegalStateException("capture of " + w + " refused");
            }
            x.descendants(w.xid(), children);
        }
        try (OutputStream out = Files.newOutputStream(Path.of(base + ".ppm"))) {
            out.write(("P6\n" + w.width() + " " + w.height() + "\n255\n").getBytes(StandardCharsets.US_ASCII));
            final byte[] row = new byte[w.width() * 3];
            for (int y = 0; y < w.height(); y++) {
                for (int x = 0; x < w.width(); x++) {
                    final int p = rgb[y * w.width() + x];
                    row[3 * x] = (byte) (p >> 16);
                    row[3 * x + 1] = (byte) (p >> 8);
                    row[3 * x + 2] = (byte) p;
                }
                out.write(row);
            }
        }
        final StringBuilder text = new StringBuilder();
        for (final int[] c : children) {
            text.append(c[0] - w.x()).append(' ').append(c[1] - w.y()).append(' ').append(c[2]).append(' ').append(c[3])
                .append('\n');
        }
        Files.writeString(Path.of(base + ".children"), text);
    }

    /** {rgb, width, height} of a saved PPM. */
    static Object[] load(final Path ppm) throws IOException {
        final byte[] b = Files.readAllBytes(ppm);
        int pos = 0;
        final int[] fields = new int[3];
        int field = -1;
        pos = 2;
        while (field < 2) {
            while (Character.isWhitespace(b[pos])) {
                pos++;
            }
            int v = 0;
            while (!Character.isWhitespace(b[pos])) {
                v = v * 10 + (b[pos++] - '0');
            }
            fields[++field] = v;
        }
        pos++;
        final int w = fields[0];
        final int h = fields[1];
        final int[] rgb = new int[w * h];
        for (int i = 0; i < w * h; i++) {
            rgb[i] = (b[pos + 3 * i] & 0xFF) << 16 | (b[pos + 3 * i + 1] & 0xFF) << 8 | (b[pos + 3 * i + 2] & 0xFF);
        }
        return new Object[] {rgb, w, h};
    }

    static List<int[]> children(final Path file) throws IOException {
        final List<int[]> out = new ArrayList<>();
        if (Files.exists(file)) {
            for (final String line : Files.readAllLines(file)) {
                if (!line.isBlank()) {
                    final String[] f = line.trim().split(" ");
                    out.add(new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                        Integer.parseInt(f[3])});
                }
            }
        }
        return out;
    }
}
