package dev.saccade.pixel;

import java.nio.file.Path;

/**
 * The pixel source's settings, from system properties by default:
 * <ul>
 * <li>{@value #ENABLED_PROP} (true): off, no window is read;</li>
 * <li>{@value #LANGUAGES_PROP} ({@code eng}): Tesseract languages joined by '+', each a Debian
 *     {@code tesseract-ocr-<code>} package;</li>
 * <li>{@value #TESSDATA_PROP}: the models' directory (default: Debian's);</li>
 * <li>{@value #SERVE_PROP} ({@code untreed}): which windows pixels serve: {@code untreed} those
 *     without an accessibility tree, {@code all} every window (accessible targets the pixels
 *     confirm then carry the PIXEL bit too, and no pixel duplicate is added);</li>
 * <li>{@value #DEADLINE_PROP} (1000) and {@value #BOX_READS_PROP} (64): the deadline and the
 *     budget of per-box OCR reads for one window; a window cut by either is SOURCE_INCOMPLETE;</li>
 * <li>{@value #QUIET_PROP} (100): how long damage must be quiet before a window is read (a
 *     burst of drawing is read once; a window drawing without pause, at least every 5 quiet periods).</li>
 * </ul>
 */
public final class PixelSourceContext {
    public static final String ENABLED_PROP = "saccade.owner.pixel.enabled";
    public static final String LANGUAGES_PROP = "saccade.owner.pixel.languages";
    public static final String TESSDATA_PROP = "saccade.owner.pixel.tessdata";
    public static final String SERVE_PROP = "saccade.owner.pixel.serve";
    public static final String DEADLINE_PROP = "saccade.owner.pixel.deadline.ms";
    public static final String BOX_READS_PROP = "saccade.owner.pixel.box.reads";
    public static final String QUIET_PROP = "saccade.owner.pixel.quiet.ms";

    /** Which windows the pixel source reads. */
    public enum Serve { UNTREED, ALL }

    private boolean enabled = !"false".equals(System.getProperty(ENABLED_PROP));
    private String languages = System.getProperty(LANGUAGES_PROP, OcrEngine.DEFAULT_LANGUAGES);
    private Path tessdata = System.getProperty(TESSDATA_PROP) == null ? null : Path.of(System.getProperty(TESSDATA_PROP));
    private Serve serve = "all".equalsIgnoreCase(System.getProperty(SERVE_PROP)) ? Serve.ALL : Serve.UNTREED;
    private int deadlineMs = Integer.getInteger(DEADLINE_PROP, 1000);
    private int boxReads = Integer.getInteger(BOX_READS_PROP, 64);
    private int quietMs = Integer.getInteger(QUIET_PROP, 100);
    private String display;
    private boolean treesExpected;

    public boolean enabled() {
        return enabled;
    }

    public PixelSourceContext enabled(final boolean on) {
        enabled = on;
        return this;
    }

    public String languages() {
        return languages;
    }

    public PixelSourceContext languages(final String codes) {
        languages = codes;
        return this;
    }

    public Path tessdata() {
        return tessdata;
    }

    public Serve serve() {
        return serve;
    }

    public PixelSourceContext serve(final Serve which) {
        serve = which;
        return this;
    }

    public int deadlineMs() {
        return deadlineMs;
    }

    public PixelSourceContext deadlineMs(final int ms) {
        deadlineMs = ms;
        return this;
    }

    public int boxReads() {
        return boxReads;
    }

    public PixelSourceContext boxReads(final int reads) {
        boxReads = reads;
        return this;
    }

    public int quietMs() {
        return quietMs;
    }

    public PixelSourceContext quietMs(final int ms) {
        quietMs = ms;
        return this;
    }

    /**
     * An accessibility source runs beside this one: no window is read before a tree read after
     * the window appeared has arrived, so a secure field of a new window is known before its
     * pixels are read, and a window whose tree is only late is not taken for one without.
     */
    public boolean treesExpected() {
        return treesExpected;
    }

    public PixelSourceContext treesExpected(final boolean expected) {
        treesExpected = expected;
        return this;
    }

    public String display() {
        return display;
    }

    public PixelSourceContext display(final String name) {
        display = name;
        return this;
    }
}
