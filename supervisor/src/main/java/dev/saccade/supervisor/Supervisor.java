package dev.saccade.supervisor;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.ListenerHandoff;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.ipc.link.StaleLinkFiles;
import java.io.IOException;
import java.nio.channels.Selector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-session supervisor. It binds the agent endpoint itself and keeps that listener for its
 * whole life; each owner it starts gets a copy over the link ({@link ListenerHandoff}, SCM_RIGHTS)
 * when it is ready. So the path is never unlinked while the supervisor runs, and connects that
 * arrive while no owner accepts (an owner crashed, one is starting, one hands over to the next)
 * wait in the listen backlog instead of being refused.
 *
 * <p><b>Planned restart and upgrade.</b> The new owner starts beside the old one and reports
 * ready (sources up, generation seeded above the old owner's file, not accepting). Then the old
 * owner drains (stops accepting, finishes the requests in hand, reports its last generation and
 * exits, dropping its copy of the listener without closing it for anyone else), and only then
 * does the new owner get the listener. One owner accepts at a time, so clients see generations
 * only grow. The listener travels from the supervisor's copy rather than from the old owner's:
 * it is the same kernel socket either way, the supervisor needs its copy for crash restarts
 * anyway, and one path for both cases keeps the old owner's part down to "stop and leave".
 *
 * <p>With {@link InputHelperMode#OWNER} (each owner its own helper, which owns the session's one
 * input link) the old owner drains before the new one starts: clients wait for a start rather
 * than a handoff, and are still never refused.
 *
 * <p><b>Crash.</b> An owner that exits, or stops answering pings, is replaced after the
 * {@link Backoff} delay; an owner that dies at once is restarted every 8 s at worst.
 *
 * <p>Threads: one conductor thread owns the children and all lifecycle state; the control thread
 * answers {@code status} from volatile records and passes other commands to the conductor through
 * a bounded queue, waiting for the answer; process-exit callbacks post events to the same queue.
 * One {@code key=value} line per lifecycle event goes to stderr through SLF4J.
 */
public final class Supervisor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);
    /** How long an owner or helper may take to stop on SIGTERM before SIGKILL. */
    private static final long STOP_GRACE_MS = 5_000;
    /** While no display is known, the conductor looks for one this often (SessionDisplay). */
    private static final long DISPLAY_LOOK_NS = TimeUnit.SECONDS.toNanos(3);
    /** A draining owner finishes within its drain timeout (2 s by default); this bounds a hung one. */
    private static final long DRAIN_WAIT_MS = 10_000;

    private final SupervisorContext context;
    private final EndpointListener endpoint;
    private final EndpointListener link;
    private final ControlServer control;
    private final Selector linkSelector;
    private final BlockingQueue<ConductorEvent> events = new ArrayBlockingQueue<>(64);
    private final Backoff ownerBackoff;
    private final Backoff helperBackoff;
    private final ChildRecord ownerRecord = new ChildRecord(ControlRequest.OWNER);
    private final ChildRecord helperRecord = new ChildRecord(ControlRequest.HELPER);
    private final String linkNonceHex = SessionNonce.toHex(SessionNonce.generate());
    private final Thread conductor;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Readiness readiness;
    private final StatusReport status;

    /** Conductor thread only, from here down. */
    private Distribution distribution;
    private OwnerProcess owner;
    private long ownerDueNs;
    private HelperProcess helper;
    private long helperDueNs;
    private long nextDisplayLookNs;
    /** When the wait for a display began (status), 0 when one is known; volatile for the control thread. */
    private volatile long waitingForDisplaySinceNs;
    private long nextPingNs;
    private boolean stopping;

    private Supervisor(final SupervisorContext context, final Distribution distribution, final EndpointListener endpoint,
        final EndpointListener link) throws IOException {
        this.context = context;
        this.distribution = distribution;
        this.endpoint = endpoint;
        this.link = link;
        this.linkSelector = link.serverChannel().provider().openSelector();
        this.ownerBackoff = new Backoff(context.backoffInitialMs(), context.backoffMaxMs(), context.healthyResetMs());
        this.helperBackoff = new Backoff(context.backoffInitialMs(), context.backoffMaxMs(), context.healthyResetMs());
        this.readiness = new Readiness(context);
        this.status = new StatusReport(context, endpoint.path(), readiness, ownerRecord, helperRecord);
        this.control = new ControlServer(EndpointListener.bind(context.controlSocket(), Duration.ZERO), this::handle);
        this.conductor = new Thread(this::conduct, "saccade-supervisor");
    }

    /**
     * Binds the control socket, the owner link and the agent endpoint in the runtime directory
     * and starts the children.
     *
     * @throws dev.saccade.ipc.EndpointBusyException if another supervisor or a lone owner
     *     already serves one of those paths.
     */
    public static Supervisor start(final SupervisorContext context) throws IOException {
        RuntimeDirectory.ensure(context.runtimeDirectory());
        reclaimStaleLinks(context.runtimeDirectory(), "start"); // what an earlier crash left
        final Distribution distribution = Distribution.at(context.distribution());
        final EndpointListener link = EndpointListener.bind(context.linkSocket(), Duration.ZERO);
        EndpointListener endpoint = null;
        try {
            endpoint = EndpointListener.bind(context.endpoint(), Duration.ZERO);
            final Supervisor supervisor = new Supervisor(context, distribution, endpoint, link);
            LOG.info("event=start pid={} endpoint={} control={} distribution={} helper={} display={} display_source=\"{}\"",
                ProcessHandle.current().pid(), context.endpoint(), context.controlSocket(), distribution,
                context.inputHelperMode(), context.display(), context.displaySource());
            supervisor.control.start();
            supervisor.conductor.start();
            return supervisor;
        } catch (final IOException | RuntimeException e) {
            if (endpoint != null) {
                endpoint.close();
            }
            link.close();
            throw e;
        }
    }

    /** Waits until the supervisor has stopped (a {@code stop} request or {@link #close()}). */
    public void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    public boolean awaitStopped(final long timeout, final TimeUnit unit) throws InterruptedException {
        return stopped.await(timeout, unit);
    }

    public Path endpoint() {
        return endpoint.path();
    }

    /** Stops the owner and helper and releases the sockets; returns once done. */
    @Override
    public void close() {
        final CompletableFuture<String> done = new CompletableFuture<>();
        final ConductorEvent stop = ConductorEvent.command(ControlRequest.parse(ControlRequest.stop()), done);
        if (conductor.isAlive() && events.offer(stop)) {
            try {
                stopped.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- control thread ----

    private String handle(final ControlRequest request) {
        if (ControlRequest.STATUS.equals(request.command())) {
            return status.render(System.nanoTime(), waitingForDisplaySinceNs);
        }
        final CompletableFuture<String> reply = new CompletableFuture<>();
        if (!events.offer(ConductorEvent.command(request, reply))) {
            return ControlRequest.error("the supervisor is busy; try again");
        }
        try {
            return reply.get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return ControlRequest.error("interrupted");
        } catch (final java.util.concurrent.ExecutionException e) {
            return ControlRequest.error(String.valueOf(e.getCause()));
        }
    }

    // ---- conductor thread ----

    private void conduct() {
        try {
            ownerDueNs = System.nanoTime();
            helperDueNs = ownerDueNs;
            boolean haveDisplay = context.display() != null;
            while (!stopping) {
                final long nowNs = System.nanoTime();
                if (!haveDisplay) {
                    haveDisplay = awaitDisplay(nowNs);
                }
                if (haveDisplay && (owner == null && nowNs - ownerDueNs >= 0
                    || context.inputHelper() && helper == null && nowNs - helperDueNs >= 0) && !context.displayAnswers()) {
                    haveDisplay = displayGone(nowNs);
                    continue;
                }
                if (haveDisplay && context.inputHelper() && helper == null && nowNs - helperDueNs >= 0) {
                    startHelper();
                    continue;
                }
                if (haveDisplay && owner == null && nowNs - ownerDueNs >= 0) {
                    startOwner(distribution);
                    continue;
                }
                long waitNs = TimeUnit.MILLISECONDS.toNanos(context.pingIntervalMs());
                if (!haveDisplay) {
                    waitNs = Math.min(waitNs, nextDisplayLookNs - nowNs);
                } else {
                    if (owner == null) {
                        waitNs = Math.min(waitNs, ownerDueNs - nowNs);
                    }
                    if (context.inputHelper() && helper == null) {
                        waitNs = Math.min(waitNs, helperDueNs - nowNs);
                    }
                }
                final ConductorEvent event = events.poll(Math.max(waitNs, 0), TimeUnit.NANOSECONDS);
                if (event != null) {
                    onEvent(event);
                }
                pingOwner(System.nanoTime());
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final RuntimeException e) {
            LOG.error("event=conductor_failed", e);
        } finally {
            shutdown();
        }
    }

    /**
     * No display yet: look for one now and then (SessionDisplay); meanwhile tell systemd we are up
     * (status answers, and says why nothing runs), or Type=notify would time the start out.
     *
     * @return whether a display is known now.
     */
    private boolean awaitDisplay(final long nowNs) {
        if (nowNs - nextDisplayLookNs < 0 && waitingForDisplaySinceNs != 0) {
            return false;
        }
        nextDisplayLookNs = nowNs + DISPLAY_LOOK_NS;
        if (context.lookUpDisplay()) {
            LOG.info("event=display_found display={} display_source=\"{}\" waited_ms={}", context.display(),
                context.displaySource(), waitingForDisplaySinceNs == 0 ? 0
                    : TimeUnit.NANOSECONDS.toMillis(nowNs - waitingForDisplaySinceNs));
            waitingForDisplaySinceNs = 0;
            ownerDueNs = nowNs;
            helperDueNs = nowNs;
            return true;
        }
        if (waitingForDisplaySinceNs == 0) {
            waitingForDisplaySinceNs = nowNs;
            LOG.warn("event=display_wait hint=\"{}\"", context.displayHint());
            readiness.notifySystemd("STATUS=waiting for a display\n" + SystemdNotifier.READY);
        }
        return false;
    }

    /**
     * The display's X server is gone and a child is due (D32): stop (the demo desktop of
     * {@code saccade up} is gone for good) or wait for a display as at the start, with a status
     * line, instead of starting children that can only fail against it.
     *
     * @return false: no display now.
     */
    private boolean displayGone(final long nowNs) {
        final String display = context.display();
        if (context.stopWhenDisplayGone()) {
            LOG.info("event=display_gone display={} action=stop", display);
            stopping = true;
            return false;
        }
        LOG.warn("event=display_gone display={} action=wait", display);
        context.forgetDisplay();
        waitingForDisplaySinceNs = 0;
        nextDisplayLookNs = nowNs;
        return false;
    }

    private void onEvent(final ConductorEvent event) throws InterruptedException {
        if (event.owner != null) {
            // any owner's exit (crashed, killed, drained or failed to start): it cannot close its link any more
            reclaimStaleLinks(context.runtimeDirectory(), "owner_exit");
            if (event.owner == owner) {
                ownerLost(owner, "exit code " + owner.process().exitValue());
            }
        } else if (event.input) {
            readiness.update(owner);
        } else if (event.helper != null) {
            if (event.helper == helper) {
                final long ranMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - helper.startNs());
                final long delayMs = helperBackoff.onExit(ranMs);
                LOG.info("event=helper_exit pid={} code={} ran_ms={} restart_in_ms={}", helper.pid(),
                    helper.process().exitValue(), ranMs, delayMs);
                helperRecord.exited("exit code " + helper.process().exitValue());
                helperRecord.restarted();
                helper = null;
                helperDueNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
            }
        } else {
            event.reply.complete(command(event.request));
        }
    }

    /** The current owner exited or was killed: schedule its replacement after the backoff. */
    private void ownerLost(final OwnerProcess lost, final String how) {
        final long ranMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lost.startNs());
        final long delayMs = ownerBackoff.onExit(ranMs);
        LOG.info("event=owner_exit pid={} how=\"{}\" ran_ms={} restart_in_ms={}", lost.pid(), how, ranMs, delayMs);
        lost.closeLink();
        ownerRecord.exited(how);
        ownerRecord.restarted();
        if (lost == owner) {
            owner = null;
        }
        readiness.update(owner);
        ownerDueNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
    }

    private String command(final ControlRequest request) throws InterruptedException {
        switch (request.command()) {
            case ControlRequest.STOP:
                stopping = true;
                LOG.info("event=stop_requested");
                return StatusReport.ok(json -> { });
            case ControlRequest.UPGRADE: {
                final Distribution next;
                try {
                    next = Distribution.at(Path.of(request.argument()));
                } catch (final IOException e) {
                    return ControlRequest.error(e.getMessage());
                }
                return replaceReply(next);
            }
            case ControlRequest.RESTART:
            default: {
                if (!ControlRequest.OWNER.equals(request.argument())) {
                    if (!context.inputHelper()) {
                        return ControlRequest.error("this supervisor runs without an input helper");
                    }
                    restartHelper();
                    if (ControlRequest.HELPER.equals(request.argument())) {
                        return StatusReport.ok(json -> json.writeStringField("helper_pid", Long.toString(helper == null ? -1 : helper.pid())));
                    }
                }
                return replaceReply(distribution);
            }
        }
    }

    private String replaceReply(final Distribution next) throws InterruptedException {
        final String failure = replaceOwner(next);
        if (failure != null) {
            return ControlRequest.error(failure);
        }
        final OwnerProcess now = owner;
        return StatusReport.ok(json -> {
            json.writeStringField("pid", Long.toString(now.pid()));
            json.writeStringField("version", now.distribution().version());
            json.writeStringField("generation", Long.toString(now.generation()));
        });
    }

    /** Starts an owner when none serves (first start, or after a crash and its backoff). */
    private void startOwner(final Distribution from) throws InterruptedException {
        final String failure = replaceOwner(from);
        if (failure != null && owner == null && !stopping) {
            LOG.warn("event=owner_start_failed reason=\"{}\"", failure);
        }
    }

    /**
     * Starts an owner of {@code next} beside the current one, then drains the current one and
     * gives the new one the listener. Returns null on success, else why; on a failure before the
     * drain the old owner keeps serving.
     */
    private String replaceOwner(final Distribution next) throws InterruptedException {
        final boolean planned = owner != null;
        if (planned && context.inputHelperMode() == InputHelperMode.OWNER) {
            // Each owner's own helper holds the one input link of the session, so two owners
            // cannot run side by side: the old one drains and leaves first. Connects still only
            // wait (in the backlog of the listener we keep), for a start instead of a handoff.
            drain(owner);
        }
        final long spawnNs = System.nanoTime();
        // Logged before the fork: the schedule is ours, the fork's latency the machine's.
        LOG.info("event=owner_starting version={}", next.version());
        final OwnerProcess started;
        try {
            started = OwnerProcess.spawn(context, next, linkNonceHex);
        } catch (final IOException e) {
            scheduleRetry(spawnNs);
            return "cannot start the owner: " + e.getMessage();
        }
        LOG.info("event=owner_spawn pid={} version={} replacing={}", started.pid(), next.version(),
            owner == null ? "none" : Long.toString(owner.pid()));
        started.process().onExit().thenRun(() -> post(ConductorEvent.ownerExited(started)));
        started.onInput(() -> post(ConductorEvent.inputChanged()));
        final long deadlineNs = spawnNs + TimeUnit.MILLISECONDS.toNanos(context.startTimeoutMs());
        String readyGeneration = null;
        try {
            if (started.awaitLink(link, linkSelector, deadlineNs)) {
                readyGeneration = started.awaitLine(ListenerHandoff.READY, deadlineNs);
            }
        } catch (final IOException e) {
            LOG.warn("event=owner_link_failed pid={} error={}", started.pid(), e.toString());
        }
        if (readyGeneration == null) {
            return failedStart(started, "the new owner (pid " + started.pid() + ") "
                + (started.process().isAlive() ? "was not ready within " + context.startTimeoutMs() + " ms"
                : "exited with code " + started.process().exitValue()));
        }
        final OwnerProcess old = owner;
        if (old != null) {
            drain(old);
        }
        final long listenNs = System.nanoTime();
        try {
            started.giveListener(endpoint.serverChannel().getFileDescriptor());
        } catch (final IOException e) {
            LOG.warn("event=owner_link_failed pid={} error={}", started.pid(), e.toString());
        }
        final long servingDeadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(context.startTimeoutMs());
        if (started.awaitLine(ListenerHandoff.SERVING, servingDeadlineNs) == null) {
            owner = null; // the old one, if any, has drained already
            return failedStart(started, "the new owner (pid " + started.pid() + ") did not take the listener");
        }
        final long nowNs = System.nanoTime();
        started.serving(nowNs);
        started.generation(parseGeneration(readyGeneration));
        owner = started;
        distribution = next;
        ownerRecord.running(started.pid(), next.version(), nowNs);
        ownerRecord.generation(started.generation());
        if (planned) {
            ownerRecord.restarted();
        }
        LOG.info("event=owner_serving pid={} version={} ready_generation={} start_ms={} listen_to_serving_us={}", started.pid(),
            next.version(), readyGeneration, TimeUnit.NANOSECONDS.toMillis(nowNs - spawnNs),
            TimeUnit.NANOSECONDS.toMicros(nowNs - listenNs));
        if (helper != null) {
            helper.attach(started.pid());
        }
        readiness.update(owner);
        return null;
    }

    /** Tells {@code old} to stop accepting and finish; waits for its drained report or kills it. */
    private void drain(final OwnerProcess old) throws InterruptedException {
        final long beginNs = System.nanoTime();
        String drained = null;
        try {
            old.send(ListenerHandoff.DRAIN);
            drained = old.awaitLine(ListenerHandoff.DRAINED, beginNs + TimeUnit.MILLISECONDS.toNanos(DRAIN_WAIT_MS));
        } catch (final IOException e) {
            LOG.warn("event=drain_failed pid={} error={}", old.pid(), e.toString());
        }
        if (drained == null) {
            LOG.warn("event=drain_timeout pid={}", old.pid());
            old.kill();
        }
        LOG.info("event=handoff old_pid={} old_generation={} drain_us={}", old.pid(), drained,
            TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - beginNs));
        old.closeLink(); // it exits by itself; its exit event no longer matches the current owner
        owner = null;
        readiness.update(owner);
    }

    private String failedStart(final OwnerProcess started, final String why) throws InterruptedException {
        started.kill();
        if (owner == null) {
            ownerLost(started, why);
        }
        return why;
    }

    private void scheduleRetry(final long spawnNs) {
        if (owner == null) {
            ownerDueNs = spawnNs + TimeUnit.MILLISECONDS.toNanos(ownerBackoff.onExit(0));
        }
    }

    private static long parseGeneration(final String value) {
        try {
            return Long.parseLong(value);
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    private void pingOwner(final long nowNs) {
        final OwnerProcess current = owner;
        if (current == null || nowNs - nextPingNs < 0) {
            return;
        }
        nextPingNs = nowNs + TimeUnit.MILLISECONDS.toNanos(context.pingIntervalMs());
        if (nowNs - current.lastPongNs() > TimeUnit.MILLISECONDS.toNanos(context.unresponsiveMs())) {
            LOG.warn("event=owner_unresponsive pid={} silent_ms={}", current.pid(),
                TimeUnit.NANOSECONDS.toMillis(nowNs - current.lastPongNs()));
            current.process().destroyForcibly(); // its exit event schedules the replacement
            current.serving(nowNs); // one kill per silence, not one per ping
            return;
        }
        try {
            current.send(ListenerHandoff.PING);
        } catch (final IOException ignore) {
            // The owner is going away; its exit event follows.
        }
    }

    private void startHelper() {
        try {
            final HelperProcess started = HelperProcess.start(context, distribution, linkNonceHex);
            started.process().onExit().thenRun(() -> post(ConductorEvent.helperExited(started)));
            helper = started;
            helperRecord.running(started.pid(), distribution.version(), System.nanoTime());
            LOG.info("event=helper_start pid={}", started.pid());
            if (owner != null) {
                started.attach(owner.pid());
            }
        } catch (final IOException e) {
            final long delayMs = helperBackoff.onExit(0);
            LOG.warn("event=helper_start_failed error={} restart_in_ms={}", e.toString(), delayMs);
            helperDueNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
        }
    }

    private void restartHelper() throws InterruptedException {
        final HelperProcess old = helper;
        helper = null;
        if (old != null) {
            old.terminate(STOP_GRACE_MS); // it releases everything it holds on SIGTERM
            helperRecord.restarted();
            LOG.info("event=helper_restart old_pid={}", old.pid());
        }
        startHelper();
    }

    private void post(final ConductorEvent event) {
        if (!events.offer(event)) {
            LOG.error("event=event_queue_full dropped={}", event);
        }
    }

    private void shutdown() {
        LOG.info("event=stopping");
        try {
            stopChildren();
        } finally {
            // Whatever failed while stopping, awaitStopped and a SIGTERM's shutdown hook must
            // return: a latch left up kept `saccade up` alive for ever after its TERM.
            stopped.countDown();
        }
    }

    private void stopChildren() {
        try {
            if (owner != null) {
                owner.terminate(STOP_GRACE_MS);
            }
            if (helper != null) {
                helper.terminate(STOP_GRACE_MS);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reclaimStaleLinks(context.runtimeDirectory(), "stop");
        // Answer queued commands first: the control thread may be waiting on one, and closing it
        // joins that thread.
        for (ConductorEvent e = events.poll(); e != null; e = events.poll()) {
            if (e.reply != null) {
                e.reply.complete(ControlRequest.error("the supervisor is stopping"));
            }
        }
        close(control);
        close(endpoint);
        close(link);
        close(linkSelector);
        LOG.info("event=stop pid={}", ProcessHandle.current().pid());
    }

    private static void reclaimStaleLinks(final Path runtimeDirectory, final String when) {
        final int removed = StaleLinkFiles.reclaim(runtimeDirectory);
        if (removed > 0) {
            LOG.info("event=stale_links_reclaimed when={} files={}", when, removed);
        }
    }

    private static void close(final AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (final Exception e) {
            LOG.warn("event=close_failed what={} error={}", closeable, e.toString());
        }
    }
}
