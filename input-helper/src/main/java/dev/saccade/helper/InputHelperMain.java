package dev.saccade.helper;

import dev.saccade.helper.backend.xtest.UserInputMonitor;
import dev.saccade.helper.backend.xtest.XTestBackend;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.ipc.link.HelperLifeline;
import dev.saccade.ipc.link.HelperSide;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.protocol.ResultCode;
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
 * <p>Arguments: {@code --link FILE --lifeline SOCKET --owner-pid PID --display DISPLAY}; the session
 * nonce comes in {@code SACCADE_LINK_NONCE}, never on the command line.
 */
public final class InputHelperMain {
    private static final Logger LOG = LoggerFactory.getLogger(InputHelperMain.class);
    /** Busy-poll this long after a plan: an agent's next action usually follows quickly. */
    private static final long SPIN_NS = 1_000_000;
    private static final long MAX_PARK_NS = 1_000_000;
    /** The owner beats every 10 ms; a second of silence means it is stopped or hung. */
    private static final long OWNER_SILENCE_NS = Long.getLong("saccade.helper.owner.silence.ms", 1_000) * 1_000_000L;

    private volatile boolean ownerGone;
    private volatile boolean userInput;
    private volatile boolean stopping;
    private volatile Thread mainThread;
    private final CountDownLatch released = new CountDownLatch(1);

    private InputHelperMain() {
    }

    public static void main(final String[] args) throws Exception {
        String link = null;
        String lifeline = null;
        long ownerPid = 0;
        String display = System.getenv("DISPLAY");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--link": link = args[i + 1]; break;
                case "--lifeline": lifeline = args[i + 1]; break;
                case "--owner-pid": ownerPid = Long.parseLong(args[i + 1]); break;
                case "--display": display = args[i + 1]; break;
                default: usage("unknown argument " + args[i]);
            }
        }
        final String nonceHex = System.getenv(SessionNonce.ENVIRONMENT_VARIABLE);
        if (link == null || lifeline == null || ownerPid <= 0 || display == null || nonceHex == null) {
            usage("needs --link, --lifeline, --owner-pid, --display and " + SessionNonce.ENVIRONMENT_VARIABLE);
        }
        System.exit(new InputHelperMain().run(Path.of(link), Path.of(lifeline), ownerPid, display,
            SessionNonce.fromHex(nonceHex)));
    }

    private static void usage(final String why) {
        System.err.println("saccade-helper: " + why);
        System.exit(1);
    }

    private int run(final Path linkFile, final Path lifelinePath, final long ownerPid, final String display,
        final byte[] nonce) throws Exception {
        mainThread = Thread.currentThread();
        try (HelperSide side = HelperSide.open(linkFile, nonce, ownerPid);
             XTestBackend xtest = XTestBackend.open(display)) {
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
            final PlanExecutor executor = new PlanExecutor(backend, ledger, side);
            side.beat(System.nanoTime());
            try (HelperLifeline line = HelperLifeline.connect(lifelinePath, nonce, ownerPid, Duration.ofSeconds(10));
                 UserInputMonitor monitor = UserInputMonitor.start(display, (kind, device, detail, time) -> {
                     userInput = true;
                     LockSupport.unpark(mainThread);
                 })) {
                line.watch((reason, atNs) -> {
                    ownerGone = true;
                    LockSupport.unpark(mainThread);
                });
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    stopping = true;
                    LockSupport.unpark(mainThread);
                    try {
                        released.await(2, TimeUnit.SECONDS); // let the main thread release first
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "saccade-helper-shutdown"));
                LOG.info("event=helper_attached pid={} owner={} display={}", ProcessHandle.current().pid(), ownerPid, display);
                loop(side, backend, executor);
                LOG.info("event=helper_stop reason={} plans={}", ownerGone ? "owner_gone" : "sigterm", executor.plansExecuted());
            } finally {
                backend.releaseAll(); // every way out releases
                backend.restoreKeymap(System.nanoTime(), true);
                released.countDown();
            }
        }
        return 0;
    }

    private void loop(final HelperSide side, final GuardedBackend backend, final PlanExecutor executor) {
        long lastWorkNs = System.nanoTime();
        long parkNs = 1_000;
        boolean ownerLapsed = false;
        while (!ownerGone && !stopping) {
            final long now = System.nanoTime();
            side.beat(now);
            // A stopped or hung owner keeps its lifeline open: its silence must release too.
            final long ownerBeat = side.ownerHeartbeatNs();
            if (ownerBeat != 0 && now - ownerBeat > OWNER_SILENCE_NS) {
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
            if (side.pollPlans(executor, 1) > 0) {
                lastWorkNs = System.nanoTime();
                parkNs = 1_000;
                continue;
            }
            if (now - lastWorkNs < SPIN_NS) {
                Thread.onSpinWait();
            } else {
                backend.restoreKeymap(now, false); // bindings of typed text, after their grace period
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(MAX_PARK_NS, parkNs << 1);
            }
        }
    }
}
