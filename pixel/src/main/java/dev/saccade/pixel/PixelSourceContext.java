package dev.saccade.pixel;

import dev.saccade.desktop.DesktopBackend;
import java.nio.file.Path;

/**
 * The pixel source's settings; each starts from its {@link PixelConfiguration} property or default
 * (docs/settings.md), setters override.
 */
public final class PixelSourceContext {
    /** Which windows the pixel source reads. */
    public enum Serve { UNTREED, ALL }

    private boolean enabled = PixelConfiguration.enabled();
    private String languages = PixelConfiguration.languages();
    private Path tessdata = PixelConfiguration.tessdata();
    private Serve serve = PixelConfiguration.serve();
    private int deadlineMs = PixelConfiguration.deadlineMs();
    private int boxReads = PixelConfiguration.boxReads();
    private int quietMs = PixelConfiguration.quietMs();
    private String display;
    private DesktopBackend backend;
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

    /** The desktop backend of {@link #display}, whose capture ({@link DesktopBackend#openCapture}) the source reads. */
    public DesktopBackend backend() {
        return backend;
    }

    public PixelSourceContext backend(final DesktopBackend displayBackend) {
        backend = displayBackend;
        return this;
    }
}
