package dev.saccade.helper;

import dev.saccade.helper.backend.InputBackend;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.ipc.link.HelperLifeline;
import dev.saccade.ipc.link.HelperSide;
import dev.saccade.ipc.link.LifelineWatcher;
import dev.saccade.ipc.link.LinkPaths;
import dev.saccade.ipc.link.OwnerAliveLock;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.protocol.ResultCode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input helper process ({@code saccade helper run}, or launched by the owner): attaches to
 * the link its owner created, releases whatever a killed predecessor left held according to the
 * shared ledger, then executes plans until its owner goes away (lifeline end-of-file) or it is
 * told to stop (SIGTERM). Every way out releases every key and button it holds; so does real
 * user input, at once.
 *
 * <p>Arguments: {@code --link FILE --lifeline SOCKET --owner-pid PID --display DISPLAY} for the helper
 * an owner launches, or {@code --serve --display DISPLAY [--runtime-dir DIR]} for the supervisor's
 * helper, which outlives owners and attaches to each one the supervisor announces on standard
 * input. The session nonce comes in {@code SACCADE_LINK_NONCE}, never on the command line.
 * DISPLAY is an X display, or {@code wayland:SOCKET} for a wlroots compositor ({@link HelperBackends}).
 */
public final class InputHelperMain {
    private static final Logger LOG = LoggerFactory.getLogger(InputHelperMain.class);
    /** Busy-poll this long after a plan: an agent's next action usually follows quickly. */
    private static final long SPIN_NS = 1_000_000;
    private static final long MAX_PARK_NS = 1_000_000;
    /**
     * Idle this long with nothing held (no key, button, modifier or rebound key code), the helper
     * parks for {@link #longParkNs} at a time instead of polling every millisecond: the owner
     * rings the lifeline's doorbell with its next plan, so the plan does not wait for the park.
     */
    private static final long LONG_PARK_AFTER_NS = 50_000_000;
    /**
     * A long park: the helper's heartbeat falls to this period (the owner takes a helper silent
     * for 2 s as gone, and kills one silent for 3 s as hung), and it wakes at once on a doorbell,
     * user input, the owner's lifeline ending or a stop.
     */
    private final long longParkNs;
    /** A serving helper between owners waits for the next announcement (the reader unparks it). */
    private static final long BETWEEN_OWNERS_PARK_NS = 1_000_000_000L;
    /** How often a serving helper looks for an announced owner's link while it is being made. */
    private static final long ANNOUNCEMENT_POLL_NS = 20_000_000;
    /** How long an announced owner may take to make its link before we wait for the next announcement. */
    private static final long LINK_WAIT_NS = 30_000_000_000L;
    /**
     * Input held by HOLD is released when no plan renewed its lease for this long (default 60 s):
     * the last resort against an agent that holds and forgets while staying connected.
     */
    private final long leaseMaxNs;
    /** Held input is released once the owner has been silent this long. */
    private final long ownerSilenceNs;

    private volatile boolean ownerGone;
    /** When the first of the lifeline and the alive lock said the owner is gone, and how; 0 before. */
    private volatile long ownerGoneNs;
    private volatile int ownerGoneBy;
    private volatile boolean userInput;
    private volatile boolean stopping;
    private volatile Thread mainThread;
    /** The owner the supervisor last announced ({@code --serve}); 0 before the first. */
    private volatile long announcedOwner;
    private volatile boolean announcementsEnded;
    private final CountDownLatch released = new CountDownLatch(1);

    private InputHelperMain(final InputHelperContext context) {
        longParkNs = context.idleParkNs();
        leaseMaxNs = context.leaseMaxNs();
        ownerSilenceNs = context.ownerSilenceNs();
    }

    public static void main(final String[] args) throws Exception {
        String link = null;
        String lifeline = null;
        long ownerPid = 0;
        boolean serve = false;
        Path runtimeDirectory = null;
        String display = HelperBackends.defaultDisplay();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--serve")) {
                serve = true;
                continue;
            }
            if (i + 1 >= args.length) {
                usage("missing value of " + args[i]);
            }
            switch (args[i]) {
                case "--link": link = args[++i]; break;
                case "--lifeline": lifeline = args[++i]; break;
                case "--owner-pid": ownerPid = Long.parseLong(args[++i]); break;
                case "--display": display = args[++i]; break;
                case "--runtime-dir": runtimeDirectory = Path.of(args[++i]); break;
                default: usage("unknown argument " + args[i]);
            }
        }
        final String nonceHex = System.getenv(SessionNonce.ENVIRONMENT_VARIABLE);
        final InputHelperContext context = new InputHelperContext().conclude();
        if (serve) {
            if (display == null || nonceHex == null) {
                usage("--serve needs --display (or DISPLAY) and " + SessionNonce.ENVIRONMENT_VARIABLE);
            }
            final Path runtime = runtimeDirectory != null ? runtimeDirectory : RuntimeDirectory.resolve(System.getenv());
            System.exit(new InputHelperMain(context).serve(runtime, display, SessionNonce.fromHex(nonceHex), System.in));
        }
        if (link == null || lifeline == null || ownerPid <= 0 || display == null || nonceHex == null) {
            usage("needs --link, --lifeline, --owner-pid, --display and " + SessionNonce.ENVIRONMENT_VARIABLE
                + " (or --serve)");
        }
        System.exit(new InputHelperMain(context).run(Path.of(link), Path.of(lifeline), ownerPid, display,
            SessionNonce.fromHex(nonceHex)));
    }

    private static void usage(final String why) {
        System.err.println("saccade-helper: " + why);
        System.exit(1);
    }

    /** One owner, the one that launched us: serve it until it goes away or we are stopped. */
    @SuppressWarnings("try") // the user-input monitor only has to run while the helper serves
    private int run(final Path linkFile, final Path lifelinePath, final long ownerPid, final String display,
        final byte[] nonce) throws Exception {
        mainThread = Thread.currentThread();
        try (InputBackend xtest = HelperBackends.open(display);
             AutoCloseable monitor = HelperBackends.monitor(display, this::onUserInput)) {
            installShutdownHook();
            try {
                serveOwner(HelperSide.open(linkFile, nonce, ownerPid), lifelinePath, ownerPid, nonce, xtest, display);
            } finally {
                released.countDown();
            }
        }
        return 0;
    }

    /**
     * The supervisor's helper: it outlives owners. The supervisor writes {@code attach <ownerPid>}
     * lines to our standard input whenever an owner is ready (an upgrade announces the new owner
     * while the old one still serves: we move over when the old one's lifeline ends). Each owner's
     * link and lifeline are named by its pid; between owners nothing is held. The end of standard
     * input means the supervisor is gone, and so do we.
     */
    @SuppressWarnings("try") // the user-input monitor only has to run while the helper serves
    private int serve(final Path runtimeDirectory, final String display, final byte[] nonce, final InputStream announcements)
        throws Exception {
        mainThread = Thread.currentThread();
        final int uid = RuntimeDirectory.currentUid();
        final Thread reader = new Thread(() -> readAnnouncements(announcements), "saccade-helper-announcements");
        reader.setDaemon(true);
        reader.start();
        try (InputBackend xtest = HelperBackends.open(display);
             AutoCloseable monitor = HelperBackends.monitor(display, this::onUserInput)) {
            installShutdownHook();
            LOG.info("event=helper_serving pid={} runtime={} display={}", ProcessHandle.current().pid(), runtimeDirectory,
                display);
            long served = 0;
            try {
                while (!stopping) {
                    final long ownerPid = announcedOwner;
                    if (ownerPid == 0 || ownerPid == served) {
                        LockSupport.parkNanos(BETWEEN_OWNERS_PARK_NS); // the reader unparks us on a new line
                        continue;
                    }
                    final HelperSide side = openLink(LinkPaths.linkFile(runtimeDirectory, uid, ownerPid), nonce, ownerPid);
                    if (side == null) {
                        if (announcedOwner == ownerPid) {
                            served = ownerPid; // it died or never made its link: wait for the next announcement
                        }
                        continue; // or a newer owner was announced, or we are stopping
                    }
                    served = ownerPid;
                    ownerGone = false;
                    serveOwner(side, LinkPaths.lifelineSocket(runtimeDirectory, ownerPid), ownerPid, nonce, xtest, display);
                }
            } finally {
                released.countDown();
            }
        }
        LOG.info("event=helper_stop reason={}", announcementsEnded ? "supervisor_gone" : "sigterm");
        return 0;
    }

    /**
     * The link of the announced owner, once it exists and proves itself; null when a newer owner
     * is announced or we stop first. Errors are logged and retried: the owner may still be making it.
     */
    private HelperSide openLink(final Path linkFile, final byte[] nonce, final long ownerPid) {
        final long deadlineNs = System.nanoTime() + LINK_WAIT_NS;
        String lastError = null;
        while (!stopping && announcedOwner == ownerPid) {
            try {
                return HelperSide.open(linkFile, nonce, ownerPid);
            } catch (final IOException | RuntimeException e) {
                if (!e.toString().equals(lastError)) {
                    lastError = e.toString();
                    LOG.info("event=helper_link_wait owner={} link={} error={}", ownerPid, linkFile, lastError);
                }
                if (System.nanoTime() - deadlineNs >= 0 || !ProcessHandle.of(ownerPid).map(ProcessHandle::isAlive)
                    .orElse(false)) {
                    LOG.warn("event=helper_link_abandoned owner={} error={}", ownerPid, lastError);
                    return null;
                }
                LockSupport.parkNanos(ANNOUNCEMENT_POLL_NS);
            }
        }
        return null;
    }

    private void readAnnouncements(final InputStream in) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            String line;
            while ((line = lines.readLine()) != null) {
                final String[] words = line.trim().split("\\s+");
                if (words.length == 2 && words[0].equals("attach")) {
                    try {
                        final long pid = Long.parseLong(words[1]);
                        if (pid > 0) {
                            announcedOwner = pid;
                            LOG.info("event=helper_owner_announced owner={}", pid);
                            LockSupport.unpark(mainThread);
                            continue;
                        }
                    } catch (final NumberFormatException e) {
                        // reported below
                    }
                }
                LOG.warn("event=helper_bad_announcement line=\"{}\"", line.length() > 80 ? line.substring(0, 80) : line);
            }
        } catch (final IOException e) {
            LOG.warn("event=helper_announcements_failed error={}", e.toString());
        }
        announcementsEnded = true;
        stopping = true;
        LockSupport.unpark(mainThread);
    }

    private void onUserInput(final int kind, final int device, final int detail, final long time) {
        userInput = true;
        LockSupport.unpark(mainThread);
    }

    private void installShutdownHook() {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping = true;
            LockSupport.unpark(mainThread);
            try {
                released.await(2, TimeUnit.SECONDS); // let the main thread release first
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "saccade-helper-shutdown"));
    }

    /**
     * Serves one owner's link until the owner goes away or we stop; every way out releases every
     * key and button held and restores the keymap. Closes {@code opened}.
     */
    private void serveOwner(final HelperSide opened, final Path lifelinePath, final long ownerPid, final byte[] nonce,
        final InputBackend xtest, final String display) throws IOException {
        try (HelperSide side = opened) {
            if (HeldInputLedger.validate(side.ledgerStore(), side.ledgerOffset()) != ResultCode.PLATFORM_OK) {
                throw new IllegalStateException("the link's ledger region does not fit a HeldInputLedger");
            }
            final HeldInputLedger ledger = new HeldInputLedger().wrap(side.ledgerStore(), side.ledgerOffset());
            if (ledger.physicalSequence() == 0) {
                ledger.init(); // a fresh link: nothing was ever held
            } else if (!ledger.isEmpty()) {
                // a killed predecessor's keys and buttons are still down in X (it never releases them)
                LOG.warn("event=helper_release_inherited held={}", ledger);
                LedgerRelease.releaseAll(ledger, xtest);
            }
            final GuardedBackend backend = new GuardedBackend(xtest, ledger);
            // a timed operation ends early for the owner's cancel word and for whatever would
            // release after a plan: the user, the owner gone or silent, a stop (§5.15)
            final TimedOperation timed = new TimedOperation(side, () -> userInput || ownerGone || stopping
                || System.nanoTime() - side.ownerHeartbeatNs() > ownerSilenceNs);
            final PlanExecutor executor = new PlanExecutor(backend, ledger, side, timed);
            side.beat(System.nanoTime());
            try (HelperLifeline line = HelperLifeline.connect(lifelinePath, nonce, ownerPid, Duration.ofSeconds(10))) {
                ownerGoneNs = 0;
                ownerGoneBy = 0;
                line.watch(this::onOwnerGone, () -> LockSupport.unpark(mainThread));
                // The owner's alive lock tells first: as its thread dies, not once its whole
                // process is torn down and its lifeline closes (OwnerAliveLock).
                side.watchOwnerAlive(this::onOwnerGone);
                LOG.info("event=helper_attached pid={} owner={} display={}", ProcessHandle.current().pid(), ownerPid, display);
                loop(side, backend, executor, ledger);
                // Released before anything else on the way out: the log line and closing the
                // lifeline (which joins its watcher thread) come after the X server has the
                // release (architecture.md §7, "lifeline end of file": at once).
                backend.releaseAll();
                final long releasedNs = System.nanoTime();
                LOG.info("event=helper_detached reason={} owner={} plans={} by={} lost_ns={} released_ns={}",
                    ownerGone ? "owner_gone" : announcementsEnded ? "supervisor_gone" : "sigterm",
                    ownerPid, executor.plansExecuted(), goneBy(ownerGoneBy), ownerGoneNs, releasedNs);
            } finally {
                backend.releaseAll(); // every way out releases
                backend.restoreKeymap(System.nanoTime(), true);
            }
        }
    }

    /** The lifeline's watcher or the alive lock's waiter, whichever sees the owner go first. */
    private synchronized void onOwnerGone(final int reason, final long atNs) {
        if (!ownerGone) {
            ownerGoneNs = atNs;
            ownerGoneBy = reason;
            ownerGone = true;
        }
        LockSupport.unpark(mainThread);
    }

    private static String goneBy(final int reason) {
        switch (reason) {
            case OwnerAliveLock.OWNER_DIED: return "alive_lock_owner_died";
            case OwnerAliveLock.OWNER_CLOSED: return "alive_lock_owner_closed";
            case 0: return "none";
            default: return "lifeline_" + LifelineWatcher.reasonName(reason);
        }
    }

    private void loop(final HelperSide side, final GuardedBackend backend, final PlanExecutor executor,
        final HeldInputLedger ledger) {
        long lastWorkNs = System.nanoTime();
        long parkNs = 1_000;
        long longParks = 0;
        boolean ownerLapsed = false;
        long lastPlanNs = 0;
        while (!ownerGone && !stopping) {
            final long now = System.nanoTime();
            side.beat(now);
            // A stopped or hung owner keeps its lifeline open: its silence must release too. It
            // matters only while something is held, and an idle owner beats slowly (once a second).
            // A plan it wrote counts as a beat: a HOLD just taken from the ring proves the owner
            // was alive then, whatever the heartbeat word says (a fresh link's is its creation time).
            final long ownerBeat = Math.max(side.ownerHeartbeatNs(), lastPlanNs);
            final boolean holding = !ledger.isEmpty() || ledger.activeLeaseId() != 0;
            if (holding && ownerBeat != 0 && now - ownerBeat > ownerSilenceNs) {
                if (!ownerLapsed) {
                    ownerLapsed = true;
                    LOG.warn("event=helper_owner_silent ms={}", (now - ownerBeat) / 1_000_000);
                    executor.releaseAll();
                }
            } else {
                ownerLapsed = false;
            }
            if (userInput) {
                userInput = false;
                executor.onUserOverride();
            }
            if (executor.endTimedLease(now)) {
                LOG.info("event=helper_lease_ended");
            }
            if (executor.expireLease(now, leaseMaxNs)) {
                LOG.warn("event=helper_lease_expired max_ms={}", leaseMaxNs / 1_000_000);
            }
            if (side.pollPlans(executor, 1) > 0) {
                lastPlanNs = now; // the owner wrote it no earlier than this: the safer mark
                lastWorkNs = System.nanoTime();
                parkNs = 1_000;
                continue;
            }
            if (now - lastWorkNs < SPIN_NS) {
                Thread.onSpinWait();
            } else {
                backend.restoreKeymap(now, false); // bindings of typed text, after their grace period
                if (now - lastWorkNs >= LONG_PARK_AFTER_NS && ledger.isEmpty() && ledger.activeLeaseId() == 0
                    && !userInput) {
                    // Nothing held, so neither a silent owner nor a lease has anything to release:
                    // sleep until the doorbell (or user input, the lifeline, a stop) or the period.
                    if (side.beginLongPark(++longParks)) {
                        if (!ownerGone && !stopping) {
                            LockSupport.parkNanos(longParkNs);
                        }
                        side.endLongPark();
                    }
                    continue;
                }
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(MAX_PARK_NS, parkNs << 1);
            }
        }
    }
}
