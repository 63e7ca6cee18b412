package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The owner service on a test desktop with one authenticated client, for the desktop tests: a
 * private 0700 runtime directory, the desktop's session bus, no input helper (this module cannot
 * load it; the cli module's tests drive the helper).
 */
public final class DesktopService implements AutoCloseable {
    public final TestDesktop desktop;
    public final Path runtime;
    private final String display;
    private final String sessionBus;
    public OwnerService service;
    public SocketWire client;
    /** Whether the service launches its input helper: only where it is on the class path (not this module's tests). */
    private boolean inputHelper;

    private DesktopService(final TestDesktop desktop, final String display, final String sessionBus, final Path runtime) {
        this.desktop = desktop;
        this.display = display;
        this.sessionBus = sessionBus;
        this.runtime = runtime;
    }

    public static DesktopService start(final TestDesktop desktop) throws Exception {
        return start(desktop, desktop.display(), desktop.sessionBusAddress());
    }

    /**
     * The service with its real input helper, for modules whose tests have the helper on their
     * class path (pcp): batches are planned and executed as in a running owner.
     */
    public static DesktopService withInputHelper(final TestDesktop desktop) throws Exception {
        final DesktopService d = new DesktopService(desktop, desktop.display(), desktop.sessionBusAddress(),
            Files.createTempDirectory("saccade-desktop-test",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        d.inputHelper = true;
        d.startService();
        return d;
    }

    /** The service on another display ({@code wayland:<socket>} for a sway session) and session bus. */
    public static DesktopService start(final String display, final String sessionBus) throws Exception {
        return start(null, display, sessionBus);
    }

    private static DesktopService start(final TestDesktop desktop, final String display, final String sessionBus)
        throws Exception {
        final DesktopService d = new DesktopService(desktop, display, sessionBus, Files.createTempDirectory(
            "saccade-desktop-test", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        d.startService();
        return d;
    }

    /** (Re)starts the service and its client on the same runtime directory. */
    public void startService() throws Exception {
        service = OwnerService.start(new OwnerContext().runtimeDirectory(runtime).display(display)
            .sessionBusAddress(sessionBus).inputHelper(inputHelper).conclude());
        client = new SocketWire(service.endpoint());
        assertEquals(ResultCode.OK, ObserveQueryConformance.helloResult(client.exchange(Requests.hello(1, Capability.OBSERVE))));
    }

    public void stopService() throws Exception {
        client.close();
        service.close();
    }

    /** An observe of up to 10,000 targets, changed by {@code change}. */
    public CompletionFlyweight observe(final Consumer<ObserveRequestFlyweight> change) throws IOException {
        return ObserveQueryConformance.completion(client.exchange(Requests.observe(2, o -> {
            o.maximumTargets(10_000);
            change.accept(o);
        })));
    }

    public CompletionFlyweight query(final byte[] request) throws IOException {
        final CompletionFlyweight c = ObserveQueryConformance.completion(client.exchange(request));
        assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
        return c;
    }

    /** Observes until {@code done} holds, waiting for each next generation in between, for up to 30 s. */
    public CompletionFlyweight awaitObserve(final Consumer<ObserveRequestFlyweight> change,
        final Predicate<CompletionFlyweight> done) throws IOException {
        return awaitObserve(change, done, Duration.ofSeconds(30));
    }

    /** Observes until {@code done} holds, waiting for each next generation in between, for up to {@code timeout}. */
    public CompletionFlyweight awaitObserve(final Consumer<ObserveRequestFlyweight> change,
        final Predicate<CompletionFlyweight> done, final Duration timeout) throws IOException {
        final long[] seen = {-1};
        return Await.probe(() -> {
            if (seen[0] >= 0) {
                // the next read waits for the next generation rather than repeating this one
                ObserveQueryConformance.completion(client.exchange(Requests.observe(3,
                    o -> o.maximumTargets(1).freshness().policy(FreshnessPolicy.AFTER_GENERATION)
                        .afterGeneration(seen[0]).timeoutNs(TimeUnit.MILLISECONDS.toNanos(500)))));
            }
            final CompletionFlyweight c = observe(change);
            seen[0] = c.generation().generation();
            return c;
        }, done, timeout, c -> "an observe that meets the condition; last: generation " + c.generation().generation()
            + ", " + c.targetCount() + " targets");
    }

    /** Record {@code i} of an observe or query completion. */
    public static TargetFlyweight target(final CompletionFlyweight c, final int i) {
        return ObserveQueryConformance.target(c, i);
    }

    /** A record's text. */
    /** The window target titled {@code title}, or null. */
    public static TargetFlyweight window(final CompletionFlyweight c, final String title) {
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = target(c, i);
            if (TargetIds.namespace(t.targetId()) == TargetIds.namespace(TargetIds.WINDOW_NAMESPACE)
                && title.equals(text(c, t))) {
                return t;
            }
        }
        return null;
    }

    /** {@code inner} has a size and lies within {@code outer}'s bounds. */
    public static boolean inside(final TargetFlyweight inner, final TargetFlyweight outer) {
        return inner.boundsWidthQ8() > 0 && inner.boundsXQ8() >= outer.boundsXQ8() && inner.boundsYQ8() >= outer.boundsYQ8()
            && inner.boundsXQ8() + inner.boundsWidthQ8() <= outer.boundsXQ8() + outer.boundsWidthQ8()
            && inner.boundsYQ8() + inner.boundsHeightQ8() <= outer.boundsYQ8() + outer.boundsHeightQ8();
    }

    public static String text(final CompletionFlyweight c, final TargetFlyweight t) {
        return ObserveQueryConformance.text(c, t);
    }

    public static int count(final CompletionFlyweight c, final Predicate<TargetFlyweight> p) {
        int n = 0;
        for (int i = 0; i < c.targetCount(); i++) {
            if (p.test(ObserveQueryConformance.target(c, i))) {
                n++;
            }
        }
        return n;
    }

    public static TargetFlyweight find(final CompletionFlyweight c, final long id) {
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = ObserveQueryConformance.target(c, i);
            if (t.targetId() == id) {
                return t;
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        try {
            if (client != null) {
                client.close();
            }
            if (service != null) {
                service.close();
            }
        } finally {
            try (var files = Files.walk(runtime)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
