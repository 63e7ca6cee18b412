package dev.saccade.pixel;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One initialised Tesseract engine (~40 MB, ~65 ms to initialise: kept for the owner's life),
 * used by one thread at a time. {@link #recognize} reads 8-bit grey images and appends words with
 * their boxes, line numbers and confidences.
 */
public final class OcrEngine implements AutoCloseable {
    /** Where Debian's {@code tesseract-ocr-*} packages put their models. */
    public static final Path DEBIAN_TESSDATA_ROOT = Path.of("/usr/share/tesseract-ocr");
    public static final String DEFAULT_LANGUAGES = "eng";
    /** Screens are about 96 dpi; without it Tesseract guesses 70 and warns on stderr. */
    private static final int SCREEN_PPI = 96;

    private final Pointer api;
    private final String languages;
    private final Path tessdata;
    private final IntByReference left = new IntByReference();
    private final IntByReference top = new IntByReference();
    private final IntByReference right = new IntByReference();
    private final IntByReference bottom = new IntByReference();
    private Pointer monitor;
    private boolean closed;
    private long recognitions;

    private OcrEngine(final Pointer api, final Path tessdata, final String languages) {
        this.api = api;
        this.tessdata = tessdata;
        this.languages = languages;
        this.monitor = Tesseract.TessMonitorCreate();
    }

    /**
     * Initialises an engine.
     *
     * @param tessdata the models' directory; null finds Debian's
     * @param languages Tesseract language codes joined by '+', e.g. {@code eng+deu}
     * @throws IOException saying what to install when the library or a model is missing
     */
    public static OcrEngine open(final Path tessdata, final String languages) throws IOException {
        final Throwable failure = Tesseract.load();
        if (failure != null) {
            throw new IOException(Tesseract.LIBRARY + " cannot be loaded (apt-get install libtesseract5 tesseract-ocr-eng): "
                + failure.getMessage(), failure);
        }
        final Path data = tessdata != null ? tessdata : findTessdata();
        if (data == null) {
            throw new IOException("no tessdata directory under " + DEBIAN_TESSDATA_ROOT + " (apt-get install tesseract-ocr-eng)");
        }
        final List<String> available = languages(data);
        for (final String language : languages.split("\\+")) {
            if (!available.contains(language)) {
                throw new IOException("no model for language '" + language + "' in " + data + " (have " + available
                    + "; apt-get install tesseract-ocr-" + language + ")");
            }
        }
        final Pointer api = Tesseract.TessBaseAPICreate();
        if (Tesseract.TessBaseAPIInit3(api, data.toString(), languages) != 0) {
            Tesseract.TessBaseAPIDelete(api);
            throw new IOException("Tesseract failed to initialise " + languages + " from " + data);
        }
        Tesseract.TessBaseAPISetVariable(api, "debug_file", "/dev/null");
        return new OcrEngine(api, data, languages);
    }

    /** The newest {@code /usr/share/tesseract-ocr/<v>/tessdata}, or null. */
    public static Path findTessdata() {
        Path best = null;
        try (DirectoryStream<Path> versions = Files.newDirectoryStream(DEBIAN_TESSDATA_ROOT)) {
            for (final Path version : versions) {
                final Path candidate = version.resolve("tessdata");
                if (Files.isDirectory(candidate) && (best == null || version.getFileName().toString()
                    .compareTo(best.getParent().getFileName().toString()) > 0)) {
                    best = candidate;
                }
            }
        } catch (final IOException e) {
            return null;
        }
        return best;
    }

    /** Language codes with a model in the directory (osd, the script detector, excluded). */
    public static List<String> languages(final Path tessdata) {
        final List<String> codes = new ArrayList<>();
        try (DirectoryStream<Path> models = Files.newDirectoryStream(tessdata, "*.traineddata")) {
            for (final Path model : models) {
                final String name = model.getFileName().toString();
                final String code = name.substring(0, name.length() - ".traineddata".length());
                if (!"osd".equals(code)) {
                    codes.add(code);
                }
            }
        } catch (final IOException e) {
            return List.of();
        }
        codes.sort(null);
        return codes;
    }

    /** The library's version, e.g. 5.3.0; null if it cannot be loaded. */
    public static String version() {
        return Tesseract.load() == null ? Tesseract.TessVersion() : null;
    }

    /** Why the library cannot be loaded, or null. */
    public static String loadFailure() {
        final Throwable t = Tesseract.load();
        return t == null ? null : t.toString();
    }

    public String languagesInUse() {
        return languages;
    }

    public Path tessdata() {
        return tessdata;
    }

    /**
     * Recognises text in an 8-bit grey image.
     *
     * @param pageSegMode {@link Tesseract#PSM_SPARSE_TEXT} for a window, {@link Tesseract#PSM_SINGLE_LINE} for a box
     * @param deadlineMs the engine stops once this much time has passed
     * @param out receives the words; box coordinates are the image's
     * @return false if the deadline cut it short
     */
    boolean recognize(final byte[] grey, final int width, final int height, final int pageSegMode, final int deadlineMs,
        final List<OcrWord> out) {
        final long startNs = System.nanoTime();
        recognitions++;
        Tesseract.TessBaseAPISetPageSegMode(api, pageSegMode);
        Tesseract.TessBaseAPISetImage(api, grey, width, height, 1, width);
        Tesseract.TessBaseAPISetSourceResolution(api, SCREEN_PPI);
        Tesseract.TessMonitorSetDeadlineMSecs(monitor, deadlineMs);
        final int status = Tesseract.TessBaseAPIRecognize(api, monitor);
        final boolean complete = status == 0 && (System.nanoTime() - startNs) / 1_000_000L < deadlineMs;
        final Pointer iterator = Tesseract.TessBaseAPIGetIterator(api);
        if (iterator != null) {
            try {
                final Pointer page = Tesseract.TessResultIteratorGetPageIterator(iterator);
                int line = -1;
                do {
                    if (Tesseract.TessPageIteratorIsAtBeginningOf(page, Tesseract.RIL_TEXTLINE) != 0) {
                        line++;
                    }
                    final Pointer text = Tesseract.TessResultIteratorGetUTF8Text(iterator, Tesseract.RIL_WORD);
                    if (text == null) {
                        continue;
                    }
                    final String word = new String(text.getByteArray(0, (int) strlen(text)), StandardCharsets.UTF_8).strip();
                    Tesseract.TessDeleteText(text);
                    if (word.isEmpty()
                        || Tesseract.TessPageIteratorBoundingBox(page, Tesseract.RIL_WORD, left, top, right, bottom) == 0) {
                        continue;
                    }
                    out.add(new OcrWord(word, left.getValue(), top.getValue(), right.getValue() - left.getValue(),
                        bottom.getValue() - top.getValue(), Math.max(line, 0),
                        Tesseract.TessResultIteratorConfidence(iterator, Tesseract.RIL_WORD)));
                } while (Tesseract.TessResultIteratorNext(iterator, Tesseract.RIL_WORD) != 0);
            } finally {
                Tesseract.TessResultIteratorDelete(iterator);
            }
        }
        Tesseract.TessBaseAPIClear(api);
        return complete;
    }

    /** Tesseract calls so far ({@link #recognize}): what a reading costs is mostly their number and their lines. */
    public long recognitions() {
        return recognitions;
    }

    /** The engine's handle, for diagnostics that call Tesseract directly ({@code TesseractProbe}). */
    Pointer handle() {
        return api;
    }

    private static long strlen(final Pointer text) {
        long n = 0;
        while (text.getByte(n) != 0) {
            n++;
        }
        return n;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Tesseract.TessMonitorDelete(monitor);
            monitor = null;
            Tesseract.TessBaseAPIEnd(api);
            Tesseract.TessBaseAPIDelete(api);
        }
    }
}
