package dev.saccade.pixel;

import java.nio.file.Path;

/**
 * The pixel source's system properties and their defaults; {@link PixelSourceContext} starts from
 * these getters. docs/settings.md lists them.
 */
public final class PixelConfiguration {
    /** Read windows' pixels at all; false: no window is read. */
    public static final String ENABLED_PROP_NAME = "saccade.owner.pixel.enabled";
    public static final boolean ENABLED_DEFAULT = true;

    /** Tesseract languages joined by '+', each a Debian {@code tesseract-ocr-<code>} package. */
    public static final String LANGUAGES_PROP_NAME = "saccade.owner.pixel.languages";
    public static final String LANGUAGES_DEFAULT = OcrEngine.DEFAULT_LANGUAGES;

    /** The Tesseract models' directory; unset: Debian's. */
    public static final String TESSDATA_PROP_NAME = "saccade.owner.pixel.tessdata";

    /**
     * Which windows pixels serve: {@code untreed} those without an accessibility tree, {@code all}
     * every window.
     */
    public static final String SERVE_PROP_NAME = "saccade.owner.pixel.serve";
    public static final String SERVE_DEFAULT = "untreed";

    /** Deadline of one window's read; a window cut by it is SOURCE_INCOMPLETE. */
    public static final String DEADLINE_MS_PROP_NAME = "saccade.owner.pixel.deadline.ms";
    public static final int DEADLINE_MS_DEFAULT = 1_000;

    /** Budget of per-box OCR reads for one window; a window cut by it is SOURCE_INCOMPLETE. */
    public static final String BOX_READS_PROP_NAME = "saccade.owner.pixel.box.reads";
    public static final int BOX_READS_DEFAULT = 64;

    /** How long damage must be quiet before a window is read (one that never pauses: every 5 periods). */
    public static final String QUIET_MS_PROP_NAME = "saccade.owner.pixel.quiet.ms";
    public static final int QUIET_MS_DEFAULT = 100;

    private PixelConfiguration() {
    }

    public static boolean enabled() {
        return !"false".equals(System.getProperty(ENABLED_PROP_NAME));
    }

    public static String languages() {
        return System.getProperty(LANGUAGES_PROP_NAME, LANGUAGES_DEFAULT);
    }

    /** The models' directory, or null for Debian's. */
    public static Path tessdata() {
        final String value = System.getProperty(TESSDATA_PROP_NAME);
        return value == null ? null : Path.of(value);
    }

    public static PixelSourceContext.Serve serve() {
        return "all".equalsIgnoreCase(System.getProperty(SERVE_PROP_NAME))
            ? PixelSourceContext.Serve.ALL : PixelSourceContext.Serve.UNTREED;
    }

    public static int deadlineMs() {
        return Integer.getInteger(DEADLINE_MS_PROP_NAME, DEADLINE_MS_DEFAULT);
    }

    public static int boxReads() {
        return Integer.getInteger(BOX_READS_PROP_NAME, BOX_READS_DEFAULT);
    }

    public static int quietMs() {
        return Integer.getInteger(QUIET_MS_PROP_NAME, QUIET_MS_DEFAULT);
    }
}
