package dev.saccade.pixel;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.DesktopBackend;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.ScreenCapture;
import dev.saccade.desktop.WindowAttribution;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PIXEL source: reads the windows pixels serve (those without an accessibility tree, or all
 * by configuration) on its own thread and hands each changed {@link PixelSnapshot} to a
 * listener. Change-driven: the thread sleeps in {@code poll()} on its X connection, whose DAMAGE
 * reports every drawing on the screen, and on a wake pipe for new window lists and accessibility
 * trees; nothing is captured while nothing changes. A damaged window is read once its damage has
 * been quiet for the quiet period; its pixels are hashed, and a window whose pixels are those
 * of its last reading is not analysed again. Windows above it and secure fields are blanked
 * before its pixels are hashed or read; a window the tree marks secure is not read at all.
 */
public final class PixelSource implements AutoCloseable {
    public static final String THREAD_NAME = "saccade-pixel";
    private static final Logger LOG = LoggerFactory.getLogger(PixelSource.class);
    private static final long START_TIMEOUT_MS = 15_000;
    /** Damage rectangles kept between readings; past it every served window counts as damaged. */
    private static final int MAX_DAMAGE_RECTS = 4096;

    private final PixelSourceContext context;
    private final Consumer<PixelSnapshot> listener;
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile DesktopSnapshot desktop;
    private volatile AccessibilitySnapshot semantic;
    /** When the tree source last read the applications and found the published tree unchanged. */
    private volatile long treeReadNs = Long.MIN_VALUE;
    /** A window waits for a tree read after its appearance (written by the pixel thread). */
    private volatile boolean awaitingTree;
    private volatile PixelSnapshot latest = new PixelSnapshot(0, 0, Map.of());
    private volatile boolean running;
    private volatile Throwable startFailure;
    private volatile String engineVersion;
    private volatile String engineLanguages;
    private volatile long captures;
    private volatile long analyses;
    private volatile long cacheHits;
    private volatile long damageRects;
    private volatile Set<Long> served = Set.of();
    /** When each listed window was first seen (its desktop snapshot's capture time); pixel thread only. */
    private final Map<Long, Long> firstSeenNs = new HashMap<>();
    /** Windows whose readings ran out of time, read again with more; pixel thread only. */
    private final ReadRetries retries = new ReadRetries();
    /** Whether the last {@link #read} ran out of time; pixel thread only. */
    private boolean lastOutOfTime;
    private int wakeRead = -1;
    private int wakeWrite = -1;
    private Thread thread;

    public PixelSource(final PixelSourceContext context, final Consumer<PixelSnapshot> listener) {
        this.context = context;
        this.listener = listener;
    }

    /**
     * Starts the thread; returns once its X connection and OCR engine are ready.
     *
     * @throws IOException saying what is missing (a library, a language, an X extension)
     */
    public synchronized PixelSource start() throws IOException {
        final int[] pipe = WakePipe.open();
        wakeRead = pipe[0];
        wakeWrite = pipe[1];
        running = true;
        thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
        try {
            if (!started.await(START_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                close();
                throw new IOException("the pixel source did not start within " + START_TIMEOUT_MS + " ms");
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IOException("interrupted while starting the pixel source", e);
        }
        if (startFailure != null) {
            close();
            throw startFailure instanceof IOException ? (IOException) startFailure
                : new IOException(startFailure.getMessage(), startFailure);
        }
        return this;
    }

    /** A new window list (any thread): windows that appeared, moved or were resized are read again. */
    public void desktop(final DesktopSnapshot snapshot) {
        desktop = snapshot;
        wake();
    }

    /** A new accessibility tree (any thread): which windows pixels serve, and their secure fields. */
    public void accessibility(final AccessibilitySnapshot snapshot) {
        semantic = snapshot;
        wake();
    }

    /**
     * The tree source read the applications at {@code nowNs} and found nothing changed (any
     * thread): the published tree is current as of then. A window without a tree that appeared
     * after the last published tree (xterm) changes nothing in it, so only this says that a
     * read after its appearance has seen it.
     */
    public void treeUnchanged(final long nowNs) {
        treeReadNs = nowNs;
        if (awaitingTree) {
            wake();
        }
    }

    private void wake() {
        final int fd = wakeWrite;
        if (fd >= 0 && running) {
            WakePipe.wake(fd);
        }
    }

    /** The newest reading. */
    public PixelSnapshot latest() {
        return latest;
    }

    /** Windows pixels serve now (X ids). */
    public Set<Long> servedWindows() {
        return served;
    }

    /** Screen captures since start (an idle desktop keeps this still). */
    public long captures() {
        return captures;
    }

    /** Windows analysed (segmentation and OCR) since start. */
    public long analyses() {
        return analyses;
    }

    /** Captures whose pixels matched the window's last reading: not analysed again. */
    public long cacheHits() {
        return cacheHits;
    }

    /** Damage rectangles the X server reported. */
    public long damageRects() {
        return damageRects;
    }

    public String engineVersion() {
        return engineVersion;
    }

    public String engineLanguages() {
        return engineLanguages;
    }

    public PixelSourceContext context() {
        return context;
    }

    /**
     * Whether a pixel source can capture this display through its backend (on X11: MIT-SHM and
     * DAMAGE present, a shared segment attaches): null if so, else why not. For diagnostics.
     */
    public static String captureProblem(final DesktopBackend backend, final String display) {
        try {
            backend.openCapture(display).close();
            return null;
        } catch (final RuntimeException e) {
            return e.getMessage();
        }
    }

    // ---------------------------------------------------------------- pixel thread

    private void run() {
        final ScreenCapture x;
        final OcrEngine ocr;
        try {
            if (context.backend() == null) {
                throw new IllegalStateException("no desktop backend to capture " + context.display() + " with");
            }
            x = context.backend().openCapture(context.display());
        } catch (final RuntimeException e) {
            fail(e);
            return;
        }
        try {
            ocr = OcrEngine.open(context.tessdata(), context.languages());
        } catch (final IOException | RuntimeException e) {
            x.close();
            fail(e);
            return;
        }
        engineVersion = OcrEngine.version();
        engineLanguages = ocr.languagesInUse();
        LOG.info("event=pixel_start display={} tesseract={} languages={} serve={}", context.display(), engineVersion,
            engineLanguages, context.serve().name().toLowerCase());
        started.countDown();
        try {
            loop(x, new WindowAnalyzer(ocr, true));
        } catch (final RuntimeException e) {
            LOG.error("event=pixel_failure display={}", context.display(), e);
        } finally {
            running = false;
            ocr.close();
            x.close();
            LOG.info("event=pixel_stop captures={} analyses={} cache_hits={} damage_rects={}", captures, analyses,
                cacheHits, damageRects);
        }
    }

    private void fail(final Throwable t) {
        startFailure = t;
        running = false;
        started.countDown();
    }

    private void loop(final ScreenCapture x, final WindowAnalyzer analyzer) {
        final Map<Long, PixelWindow> readings = new HashMap<>();
        final Map<Long, int[]> geometry = new HashMap<>();
        final Set<Long> dirty = new HashSet<>();
        final List<int[]> damage = new ArrayList<>();
        final boolean[] overflow = new boolean[1];
        final byte[] drain = new byte[64];
        DesktopSnapshot seenDesktop = null;
        AccessibilitySnapshot seenSemantic = null;
        long seenTreeRead = Long.MIN_VALUE;
        List<WindowInfo> servedList = List.of();
        long firstDirtyNs = 0;
        long lastDirtyNs = 0;
        long sequence = 0;
        final long quietNs = context.quietMs() * 1_000_000L;
        while (running) {
            final int rects = x.drainDamage((rx, ry, rw, rh) -> {
                if (damage.size() < MAX_DAMAGE_RECTS) {
                    damage.add(new int[] {rx, ry, rw, rh});
                } else {
                    overflow[0] = true;
                }
            });
            damageRects += rects;
            final DesktopSnapshot d = desktop;
            final long treeRead = treeReadNs; // read before the tree: it confirms that tree or an older one
            final AccessibilitySnapshot a = semantic;
            boolean changed = false;
            if (d != null && (d != seenDesktop || a != seenSemantic || awaitingTree && treeRead != seenTreeRead)) {
                seenDesktop = d;
                seenSemantic = a;
                seenTreeRead = treeRead;
                servedList = served(d, a, treeRead);
                final Set<Long> ids = new HashSet<>();
                for (final WindowInfo w : servedList) {
                    ids.add(w.xid());
                    final int[] g = geometry.get(w.xid());
                    if (g == null || g[0] != w.x() || g[1] != w.y() || g[2] != w.width() || g[3] != w.height()) {
                        geometry.put(w.xid(), new int[] {w.x(), w.y(), w.width(), w.height()});
                        dirty.add(w.xid());
                    }
                }
                changed = readings.keySet().retainAll(ids);
                geometry.keySet().retainAll(ids);
                dirty.retainAll(ids);
                retries.retain(ids);
                served = Set.copyOf(ids);
            }
            for (final WindowInfo w : servedList) {
                if (overflow[0] || touched(w, damage)) {
                    dirty.add(w.xid());
                }
            }
            if (rects > 0 || !dirty.isEmpty() && firstDirtyNs == 0) {
                lastDirtyNs = System.nanoTime();
                if (firstDirtyNs == 0) {
                    firstDirtyNs = lastDirtyNs;
                }
            }
            damage.clear();
            overflow[0] = false;
            int timeoutMs = -1;
            if (!dirty.isEmpty()) {
                final long now = System.nanoTime();
                final long due = Math.min(lastDirtyNs + quietNs, firstDirtyNs + 5 * quietNs);
                if (now - due >= 0) {
                    changed |= readAll(x, analyzer, d, a, servedList, dirty, readings);
                    dirty.clear();
                    firstDirtyNs = 0;
                    if (retries.addDue(dirty)) {
                        // a reading cut by its deadline: read again after the quiet period, though nothing is drawn
                        lastDirtyNs = System.nanoTime();
                        firstDirtyNs = lastDirtyNs;
                    }
                } else {
                    timeoutMs = (int) Math.max(1, (due - now + 999_999) / 1_000_000L);
                }
            } else {
                firstDirtyNs = 0;
            }
            if (changed) {
                final PixelSnapshot snapshot = new PixelSnapshot(++sequence, System.nanoTime(), readings);
                latest = snapshot;
                try {
                    listener.accept(snapshot);
                } catch (final RuntimeException e) {
                    LOG.warn("event=pixel_listener_failed", e);
                }
            }
            if (!dirty.isEmpty() && timeoutMs < 0) {
                continue;
            }
            final int ready = x.await(wakeRead, timeoutMs);
            if ((ready & ScreenCapture.POLL_WAKE_READY) != 0) {
                if (!running) {
                    return;
                }
                LibC.read(wakeRead, drain, drain.length);
            }
        }
    }

    private static boolean touched(final WindowInfo w, final List<int[]> damage) {
        for (int i = 0; i < damage.size(); i++) {
            final int[] r = damage.get(i);
            if (Geometry.intersects(w.x(), w.y(), w.width(), w.height(), r[0], r[1], r[2], r[3])) {
                return true;
            }
        }
        return false;
    }

    /** Reads every dirty window; true if any reading changed. */
    private boolean readAll(final ScreenCapture x, final WindowAnalyzer analyzer, final DesktopSnapshot d,
        final AccessibilitySnapshot a, final List<WindowInfo> servedList, final Set<Long> dirty,
        final Map<Long, PixelWindow> readings) {
        boolean changed = false;
        final List<WindowInfo> all = d.windows();
        for (final WindowInfo w : servedList) {
            if (!dirty.contains(w.xid())) {
                continue;
            }
            final PixelWindow before = readings.get(w.xid());
            final PixelWindow after = read(x, analyzer, all, all.indexOf(w), a, before);
            retries.read(w.xid(), lastOutOfTime);
            if (after == null) {
                changed |= readings.remove(w.xid()) != null;
            } else if (after != before) {
                readings.put(w.xid(), after);
                changed = true;
            }
        }
        return changed;
    }

    private PixelWindow read(final ScreenCapture x, final WindowAnalyzer analyzer, final List<WindowInfo> windows,
        final int index, final AccessibilitySnapshot a, final PixelWindow before) {
        final WindowInfo w = windows.get(index);
        lastOutOfTime = false;
        final List<int[]> secure = new ArrayList<>();
        if (secureRects(windows, index, a, secure)) {
            return null; // the tree marks the window secure: never read
        }
        // what is on screen of it, window-relative
        final int x0 = Math.max(0, w.x());
        final int y0 = Math.max(0, w.y());
        final int x1 = Math.min(x.screenWidth(), w.x() + w.width());
        final int y1 = Math.min(x.screenHeight(), w.y() + w.height());
        if (x1 <= x0 || y1 <= y0) {
            return null;
        }
        final int cw = x1 - x0;
        final int ch = y1 - y0;
        final int[] rgb = new int[cw * ch];
        if (!x.capture(x0, y0, cw, ch, rgb)) {
            return before;
        }
        captures = x.captures();
        final int dx = x0 - w.x();
        final int dy = y0 - w.y();
        final List<int[]> blank = new ArrayList<>();
        for (final int[] s : secure) {
            blank.add(new int[] {s[0] - dx, s[1] - dy, s[2], s[3]});
        }
        for (int above = index + 1; above < windows.size(); above++) {
            final WindowInfo o = windows.get(above);
            if (o.viewable() && !o.hidden()) {
                blank.add(new int[] {o.x() - x0, o.y() - y0, o.width(), o.height()});
            }
        }
        for (final int[] r : blank) {
            blank(rgb, cw, ch, r);
        }
        final long hash = hash(rgb);
        if (before != null && before.pixelHash() == hash && before.width() == w.width() && before.height() == w.height()
            && !retries.readsAgain(w.xid())) {
            cacheHits++;
            return before;
        }
        final List<int[]> children = new ArrayList<>();
        x.descendants(w.xid(), children);
        for (final int[] c : children) {
            c[0] -= x0;
            c[1] -= y0;
        }
        final int deadlineMs = retries.deadlineMs(w.xid(), context.deadlineMs());
        final PixelWindow reading = analyzer.analyze(w.xid(), rgb, cw, ch, hash, children, blank,
            new WindowAnalyzer.Budget(deadlineMs, context.boxReads()));
        lastOutOfTime = analyzer.outOfTime();
        analyses++;
        LOG.debug("event=pixel_read window={} ms={} deadline_ms={} elements={} incomplete={} out_of_time={}", w.xid(),
            reading.analysisNs() / 1_000_000, deadlineMs, reading.elements().size(), reading.incomplete(), lastOutOfTime);
        final List<PixelElement> shifted = new ArrayList<>(reading.elements().size());
        for (final PixelElement e : reading.elements()) {
            shifted.add(dx == 0 && dy == 0 ? e : new PixelElement(e.targetId(), e.x() + dx, e.y() + dy, e.width(),
                e.height(), e.role(), e.text(), e.confidenceQ16(), e.flags()));
        }
        return new PixelWindow(w.xid(), w.width(), w.height(), hash, List.copyOf(shifted), reading.incomplete(),
            reading.analysisNs());
    }

    /**
     * The secure fields of window {@code index} (window-relative); true if the tree marks the
     * whole window secure (a secure node that is its window or covers half of it), or has a
     * secure node of it outside its bounds (a tree read before the window moved).
     */
    static boolean secureRects(final List<WindowInfo> windows, final int index, final AccessibilitySnapshot a,
        final List<int[]> out) {
        if (a == null) {
            return false;
        }
        final WindowInfo w = windows.get(index);
        final List<AccessibilityNode> nodes = a.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            final AccessibilityNode node = nodes.get(i);
            if (!node.hasFlag(TargetFlag.SECURE) || WindowAttribution.windowOf(windows, node) != index) {
                continue;
            }
            if (node.role() == Role.WINDOW || 2L * node.width() * node.height() >= (long) w.width() * w.height()) {
                return true;
            }
            if (node.width() <= 0 || node.height() <= 0 || node.x() < w.x() - 2 || node.y() < w.y() - 2
                || node.x() + node.width() > w.x() + w.width() + 2 || node.y() + node.height() > w.y() + w.height() + 2) {
                return true; // a secure field whose place the tree does not know (yet): no safe part to read
            }
            out.add(new int[] {node.x() - w.x(), node.y() - w.y(), node.width(), node.height()});
        }
        return false;
    }

    /**
     * The windows pixels serve: on screen and, unless configured for all, without an actionable
     * accessible object; with trees expected, only windows a tree read after their appearance has seen.
     */
    List<WindowInfo> served(final DesktopSnapshot d, final AccessibilitySnapshot a) {
        return served(d, a, Long.MIN_VALUE);
    }

    /** As {@link #served(DesktopSnapshot, AccessibilitySnapshot)}, with the tree unchanged as of {@code treeRead}. */
    List<WindowInfo> served(final DesktopSnapshot d, final AccessibilitySnapshot a, final long treeRead) {
        final List<WindowInfo> windows = d.windows();
        final Set<Long> listed = new HashSet<>();
        for (final WindowInfo w : windows) {
            listed.add(w.xid());
            firstSeenNs.putIfAbsent(w.xid(), d.captureTimeNs());
        }
        firstSeenNs.keySet().retainAll(listed);
        if (context.treesExpected() && a == null) {
            return List.of(); // no tree yet: which fields are secure is not known
        }
        final boolean[] treed = new boolean[windows.size()];
        if (a != null && context.serve() == PixelSourceContext.Serve.UNTREED) {
            final List<AccessibilityNode> nodes = a.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                // a tree with nothing to act on (only a disabled frame) leaves its window to pixels
                final int window = nodes.get(i).actionable() ? WindowAttribution.windowOf(windows, nodes.get(i)) : -1;
                if (window >= 0) {
                    treed[window] = true;
                }
            }
        }
        final List<WindowInfo> out = new ArrayList<>();
        boolean waiting = false;
        for (int i = windows.size() - 1; i >= 0; i--) {
            final WindowInfo w = windows.get(i);
            final long first = firstSeenNs.get(w.xid());
            final boolean treeKnown = !context.treesExpected() || a.captureNs() - first > 0
                || treeRead != Long.MIN_VALUE && treeRead - first > 0;
            final boolean shown = w.viewable() && !w.hidden() && w.width() > 0 && w.height() > 0;
            waiting |= !treed[i] && shown && !treeKnown;
            if (!treed[i] && treeKnown && shown) {
                out.add(w);
            }
        }
        awaitingTree = waiting;
        return out;
    }

    /** Paints {@code r} (x, y, w, h in the capture) white, clipped to the capture. */
    static void blank(final int[] rgb, final int width, final int height, final int[] r) {
        final int x0 = Math.max(0, r[0]);
        final int y0 = Math.max(0, r[1]);
        final int x1 = Math.min(width, r[0] + r[2]);
        final int y1 = Math.min(height, r[1] + r[3]);
        if (x0 >= x1 || y0 >= y1) {
            return; // wholly outside (a window above, right of this one): its row start can lie past the image
        }
        for (int y = y0; y < y1; y++) {
            java.util.Arrays.fill(rgb, y * width + x0, y * width + x1, 0xFFFFFF);
        }
    }

    static long hash(final int[] rgb) {
        long h = 0xcbf29ce484222325L ^ rgb.length;
        for (final int p : rgb) {
            h = (h ^ p) * 0x100000001b3L;
        }
        return WindowAnalyzer.mix(h, rgb.length);
    }

    @Override
    public void close() {
        final Thread t;
        synchronized (this) {
            if (thread == null) {
                return;
            }
            running = false;
            t = thread;
            thread = null;
            WakePipe.wake(wakeWrite);
        }
        if (t != Thread.currentThread()) {
            try {
                t.join(5_000); // an OCR call in progress finishes first (its deadline bounds it)
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!t.isAlive()) {
            WakePipe.close(wakeRead);
            WakePipe.close(wakeWrite);
            wakeRead = -1;
            wakeWrite = -1;
        }
    }
}
