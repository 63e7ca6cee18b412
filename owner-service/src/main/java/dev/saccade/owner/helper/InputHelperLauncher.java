package dev.saccade.owner.helper;

import dev.saccade.ipc.ChildJvm;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.ipc.link.LifelineListener;
import dev.saccade.ipc.link.LinkPaths;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.BytesStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the input helper as its own process and links it to this owner ({@link HelperIncarnation}:
 * a fresh link file and lifeline with a new session nonce), and runs a launcher thread that waits
 * for its lifeline handshake before plans may flow.
 * {@link #close()} stops the helper with SIGTERM, on which it releases everything it holds.
 *
 * <p>When the helper dies otherwise (killed, crashed: its lifeline reaches end-of-file), the
 * launcher's thread at once releases whatever the helper's shared ledger says is held, over an X
 * connection of its own ({@link OwnerXRelease}: the X server does not release XTest input of a
 * dead client), then starts a replacement with a new link file and nonce whose ledger is seeded
 * with the old one (so the replacement releases it again at its start), and hands the new link to
 * the same {@link ShmInputExecutor}. A batch that arrives before the replacement attaches waits
 * for it within its deadline (D5), and answers EXECUTOR_LOST only if none attached by then.
 * A helper that exits on SIGTERM (or with status 0) was stopped on purpose and is not replaced;
 * nor is one lost more than {@link #MAX_RESTARTS_PER_MINUTE} times a minute.
 */
public final class InputHelperLauncher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InputHelperLauncher.class);
    /** The input helper's entry point; it is started by class name, never linked. */
    public static final String MAIN_CLASS = "dev.saccade.helper.InputHelperMain";
    /**
     * What the helper never loads, by jar file name or build directory (ChildJvm#helperClasspath):
     * the owner's sources and semantics, the CLI, tests and benchmarks.
     */
    public static final List<String> LEFT_OUT = List.of(
        "saccade-owner-service", "saccade-atspi", "saccade-pixel", "saccade-wlroots", "saccade-kde", "saccade-gnome",
        "saccade-cli",
        "saccade-test-desktop", "saccade-demo-desktop", "saccade-supervisor", "saccade-installer",
        "picocli", "jackson", "HdrHistogram", "junit", "opentest4j", "apiguardian", "surefire",
        "owner-service/target/classes", "atspi/target/classes", "pixel/target/classes", "wlroots/target/classes",
        "kde/target/classes", "gnome/target/classes", "cli/target/classes", "test-desktop/target/classes",
        "demo-desktop/target/classes", "test-classes");
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);
    /** The helper's own log, in the runtime directory (0700), where `saccade doctor` can point. */
    public static final String LOG_FILE_NAME = "saccade-input-helper.log";
    /** Replacements started within one minute at most; beyond that the helper stays lost (D5). */
    public static final int MAX_RESTARTS_PER_MINUTE = 5;
    /** Exit status of a JVM stopped by SIGTERM: a deliberate stop, not replaced. */
    private static final int EXIT_SIGTERM = 128 + 15;
    /** How long a helper whose lifeline broke may take to exit before it is killed. */
    private static final long STOPPING_GRACE_MS = 2_000;
    private static final long MINUTE_NS = TimeUnit.MINUTES.toNanos(1);
    private static final long RETIRED_CHECK_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long HUNG_HELPER_NS = TimeUnit.MILLISECONDS.toNanos(HelperLinkConfiguration.hungMs());

    private final Path runtimeDirectory;
    private final String display;
    /** The supervisor's nonce when its helper is ours to attach (it is never launched here); else null. */
    private final byte[] externalNonce;
    private final ShmInputExecutor executor;
    private final Thread supervisor;
    private final Object lock = new Object();
    /** Links of lost helpers, closed once the owner thread no longer uses them (launcher thread, under lock). */
    private final ArrayDeque<HelperIncarnation> retired = new ArrayDeque<>();
    private final RestartBudget restartBudget = new RestartBudget(MAX_RESTARTS_PER_MINUTE, MINUTE_NS);
    private final HeldInputLedger lostLedger = new HeldInputLedger()
        .wrap(BytesStore.nativeStoreWithFixedCapacity(HeldInputLedger.LENGTH), 0);
    private volatile HelperIncarnation current;
    private volatile boolean closing;
    private volatile int restarts;
    private volatile long lastLossReleaseNs = -1;
    /** Told true when a helper attaches and false when it is lost (the supervisor's readiness). */
    private volatile java.util.function.Consumer<Boolean> inputListener = up -> { };

    private InputHelperLauncher(final Path runtimeDirectory, final String display, final byte[] externalNonce,
        final HelperIncarnation first) {
        this.runtimeDirectory = runtimeDirectory;
        this.externalNonce = externalNonce;
        this.display = display;
        this.current = first;
        this.executor = new ShmInputExecutor(first.link, first.lifeline);
        first.executorNumber = 1;
        this.supervisor = new Thread(this::supervise, "saccade-helper-launcher");
        supervisor.setDaemon(true);
    }

    /** Starts a helper for {@code display}; plans flow once its handshake completes. */
    public static InputHelperLauncher start(final Path runtimeDirectory, final String display) throws IOException {
        final InputHelperLauncher launcher = new InputHelperLauncher(runtimeDirectory, display, null,
            HelperIncarnation.launch(runtimeDirectory, display, null));
        launcher.supervisor.start();
        return launcher;
    }

    /**
     * Links this owner to the supervisor's helper instead of launching one: a link file and
     * lifeline named by our pid ({@link LinkPaths#linkFile(Path, int, long)}), with the session
     * {@code nonce} the supervisor gave both of us; the supervisor tells the helper to attach.
     * A lost helper's input is released here as for a launched one and a fresh link waits for
     * the one the supervisor starts next; {@link #close()} closes the lifeline, on which the
     * helper releases everything and waits for the next owner.
     */
    public static InputHelperLauncher external(final Path runtimeDirectory, final String display, final byte[] nonce)
        throws IOException {
        final InputHelperLauncher launcher = new InputHelperLauncher(runtimeDirectory, display, nonce.clone(),
            HelperIncarnation.openLink(runtimeDirectory, display, null, nonce));
        launcher.supervisor.start();
        return launcher;
    }

    /** The launcher's thread: attach each helper, and on its loss release and replace it. */
    private void supervise() {
        OwnerXRelease.warmUp(display);
        HelperIncarnation inc = current;
        while (inc != null && !closing) {
            final HelperIncarnation watched = inc;
            try {
                awaitHelper(watched);
                if (watched.executorNumber == 1) {
                    executor.attach();
                } else {
                    watched.executorNumber = executor.attach(watched.link, watched.lifeline);
                }
                watched.attached = true;
                LOG.info("event=helper_attached pid={}", HelperIncarnation.pidOf(watched));
                inputListener.accept(Boolean.TRUE);
            } catch (final IOException | RuntimeException e) {
                if (closing) {
                    return;
                }
                LOG.error("event=helper_attach_failed pid={} error={}", HelperIncarnation.pidOf(watched), e.toString());
                watched.lost = true;
            }
            while (!watched.lost && !closing) {
                LockSupport.parkNanos(RETIRED_CHECK_NS);
                closeRetired();
                killIfHung(watched);
            }
            if (closing) {
                return;
            }
            inputListener.accept(Boolean.FALSE);
            inc = replace(watched);
        }
        // no replacement will come (a deliberate stop, too many restarts, a failed start):
        // batches answer EXECUTOR_LOST at once instead of waiting for one (D5)
        executor.expect(false);
    }

    /**
     * Waits for the incarnation's helper: the launched process within the handshake timeout; the
     * supervisor's helper for as long as it takes (the supervisor may be restarting it with backoff).
     */
    private void awaitHelper(final HelperIncarnation watched) throws IOException {
        final LifelineListener onLost = (reason, atNs) -> {
            watched.lost = true;
            LockSupport.unpark(supervisor);
        };
        if (watched.process != null) {
            watched.lifeline.awaitHelper(watched.process.pid(), HANDSHAKE_TIMEOUT, onLost);
            return;
        }
        while (true) {
            try {
                watched.lifeline.awaitHelper(0, HANDSHAKE_TIMEOUT, onLost);
                return;
            } catch (final SocketTimeoutException e) {
                if (closing) {
                    throw e;
                }
                LOG.warn("event=helper_awaited link={} waited_s={}", watched.link.path(), HANDSHAKE_TIMEOUT.toSeconds());
            }
        }
    }

    /**
     * A helper that stopped beating (stopped, hung in a call) while its lifeline stays open is killed:
     * its lifeline then ends and the loss path releases what it held and replaces it (ours) or waits
     * for the supervisor's next one. From the first silent second on, batches wait for the next helper (D5).
     */
    private void killIfHung(final HelperIncarnation watched) {
        if (!watched.attached || watched.lost) {
            return;
        }
        final long silentNs = System.nanoTime() - watched.link.helperHeartbeatNs();
        if (silentNs < HUNG_HELPER_NS) {
            return;
        }
        LOG.error("event=helper_hung pid={} silent_ms={}", HelperIncarnation.pidOf(watched), silentNs / 1_000_000);
        if (watched.process != null) {
            watched.process.destroyForcibly();
        } else {
            ProcessHandle.of(watched.lifeline.helperPid()).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * A helper was lost: release what its ledger holds over our own X connection, make sure it is
     * gone, then start its replacement (or not: a deliberate stop, too many restarts, closing).
     * The supervisor's helper is not ours to replace: a fresh link waits for the one it starts next.
     */
    private HelperIncarnation replace(final HelperIncarnation lost) {
        final long startNs = System.nanoTime();
        final HeldInputLedger ledger = new HeldInputLedger().wrap(lost.link.ledgerStore(), lost.link.ledgerOffset());
        copyLedger(ledger);
        int rc = ResultCode.PLATFORM_OK;
        if (ledger.physicalSequence() != 0 && !lostLedger.isEmpty()) {
            rc = OwnerXRelease.release(display, lostLedger);
        }
        lastLossReleaseNs = System.nanoTime() - startNs;
        LOG.warn("event=helper_lost pid={} released={} rc={} release_ms={}", HelperIncarnation.pidOf(lost), lostLedger, rc,
            String.format("%.2f", lastLossReleaseNs / 1e6));
        if (lost.process == null) {
            return reopenExternal(lost, ledger);
        }
        int exit;
        try {
            // a helper told to stop closes its lifeline after releasing, then its JVM takes a while
            // to exit (hundreds of ms on a loaded machine): killing it sooner would make its exit
            // 137, a crash that is replaced, instead of 143, a deliberate stop that is not
            if (!lost.process.waitFor(STOPPING_GRACE_MS, TimeUnit.MILLISECONDS)) {
                lost.process.destroyForcibly(); // its lifeline broke, yet it lives: it must not write on
                lost.process.waitFor(5, TimeUnit.SECONDS);
            }
            exit = lost.process.isAlive() ? -1 : lost.process.exitValue();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (ledger.physicalSequence() != 0) {
            copyLedger(ledger); // its last word, now that it cannot write any more
        }
        if (closing) {
            return null;
        }
        if (exit == 0 || exit == EXIT_SIGTERM) {
            LOG.info("event=helper_stopped pid={} exit={} replaced=false", lost.process.pid(), exit);
            return null;
        }
        if (!restartBudget.tryTake(System.nanoTime())) {
            LOG.error("event=helper_not_replaced pid={} exit={} reason=too_many_restarts restarts_last_minute={}",
                lost.process.pid(), exit, restartBudget.taken());
            return null;
        }
        synchronized (lock) {
            if (closing) {
                return null;
            }
            try {
                lost.lifeline.close(); // frees the socket path for the replacement's lifeline
            } catch (final IOException e) {
                LOG.warn("event=lifeline_close_failed error={}", e.toString());
            }
            final HelperIncarnation next;
            try {
                next = HelperIncarnation.launch(runtimeDirectory, display,
                    ledger.physicalSequence() != 0 ? lostLedger : null);
            } catch (final IOException | RuntimeException e) {
                LOG.error("event=helper_replace_failed error={}", e.toString());
                retired.add(lost);
                return null;
            }
            retired.add(lost);
            current = next;
            restarts++;
            LOG.info("event=helper_replaced old_pid={} exit={} new_pid={} restarts={}", lost.process.pid(), exit,
                next.process.pid(), restarts);
            return next;
        }
    }

    /** After the supervisor's helper was lost: a fresh link (ledger seeded) for the next one. */
    private HelperIncarnation reopenExternal(final HelperIncarnation lost, final HeldInputLedger ledger) {
        // its lifeline broke, yet it may live (hung): it must not write on; one that is exiting gets
        // the grace our own helpers get (100 ms killed a supervisor's helper still exiting after
        // "helper_stop" on a loaded machine: exit 137, SupervisedHelperIT)
        ProcessHandle.of(lost.lifeline.helperPid()).ifPresent(h -> {
            if (h.onExit().completeOnTimeout(null, STOPPING_GRACE_MS, TimeUnit.MILLISECONDS).join() == null) {
                h.destroyForcibly();
            }
        });
        synchronized (lock) {
            if (closing) {
                return null;
            }
            try {
                lost.lifeline.close(); // frees the socket path for the next lifeline
            } catch (final IOException e) {
                LOG.warn("event=lifeline_close_failed error={}", e.toString());
            }
            retired.add(lost);
            try {
                current = HelperIncarnation.openLink(runtimeDirectory, display,
                    ledger.physicalSequence() != 0 ? lostLedger : null, externalNonce);
            } catch (final IOException | RuntimeException e) {
                LOG.error("event=helper_link_reopen_failed error={}", e.toString());
                return null;
            }
            restarts++;
            return current;
        }
    }

    /** A stable copy of {@code ledger} into {@link #lostLedger}, or a raw one if its writer died mid-change. */
    private void copyLedger(final HeldInputLedger ledger) {
        for (int attempt = 0; attempt < 1_000; attempt++) {
            if (ledger.copyStableTo(lostLedger)) {
                return;
            }
            Thread.onSpinWait();
        }
        // after the writer died any state is safe to act on: every word is written whole
        lostLedger.bytes().write(lostLedger.offset(), ledger.bytes(), ledger.offset(), HeldInputLedger.LENGTH);
    }

    /** Unmaps lost helpers' links the owner thread has moved past. */
    private void closeRetired() {
        synchronized (lock) {
            final long adopted = executor.adoptedIncarnation();
            for (final Iterator<HelperIncarnation> it = retired.iterator(); it.hasNext();) {
                final HelperIncarnation r = it.next();
                if (r.executorNumber == 0 || adopted > r.executorNumber) {
                    it.remove();
                    HelperIncarnation.closeQuietly(r);
                }
            }
        }
    }

    /**
     * Follows whether a helper is attached: {@code listener} is told the state now, then true on
     * each attach and false on each loss, on the launcher's thread (the owner tells its
     * supervisor, whose readiness needs a helper: docs/architecture.md §4).
     */
    public void onInputChange(final java.util.function.Consumer<Boolean> listener) {
        inputListener = listener;
        final HelperIncarnation inc = current;
        listener.accept(inc.attached && !inc.lost);
    }

    /** The executor the agent service uses; the same object across helper replacements. */
    public ShmInputExecutor executor() {
        return executor;
    }

    /** The current helper's process (the replacement's, once one was started); null for the supervisor's helper. */
    public Process process() {
        return current.process;
    }

    /** Replacement helpers started so far. */
    public int restarts() {
        return restarts;
    }

    /** How long the last owner-side release of a lost helper's input took (ns), -1 if none yet. */
    public long lastLossReleaseNs() {
        return lastLossReleaseNs;
    }

    /** Waits until the current helper is attached (and not lost), or the timeout passes. */
    public boolean awaitAttached(final Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            final HelperIncarnation inc = current;
            if (inc.attached && !inc.lost) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0 || closing) {
                return false;
            }
            LockSupport.parkNanos(1_000_000); // poll the attach flag to the deadline
        }
    }

    @Override
    public void close() throws IOException {
        closing = true;
        LockSupport.unpark(supervisor);
        final HelperIncarnation inc;
        synchronized (lock) {
            inc = current;
        }
        if (inc.process != null) {
            inc.process.destroy(); // SIGTERM: the helper releases everything it holds, then exits
            try {
                if (!inc.process.waitFor(5, TimeUnit.SECONDS)) {
                    inc.process.destroyForcibly();
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } // the supervisor's helper sees the lifeline end below, releases, and waits for the next owner
        IOException failure = null;
        try {
            inc.lifeline.close();
        } catch (final IOException e) {
            failure = e;
        }
        try {
            supervisor.join(TimeUnit.SECONDS.toMillis(5));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (lock) {
            for (final HelperIncarnation r : retired) {
                HelperIncarnation.closeQuietly(r);
            }
            retired.clear();
            try {
                current.lifeline.close();
                current.link.close();
            } catch (final IOException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
