package dev.saccade.cli;

import dev.saccade.ipc.EndpointBusyException;
import dev.saccade.ipc.UnsafeRuntimeDirectoryException;
import dev.saccade.owner.OwnerService;
import dev.saccade.pcp.OwnerPcp;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saccade owner run}: the owner service in the foreground until SIGTERM or Ctrl-C, which
 * disconnect every client and unlink the endpoint if it is still ours.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    header = "Run the owner service in the foreground on an X display.",
    description = {
        "Publishes generations of the desktop on DISPLAY (windows, displays, grid) and answers agents on the "
            + "agent endpoint. Logs to stderr. Stops cleanly on SIGTERM or Ctrl-C.",
        "Without a display, use `saccade up`: it starts a headless demo desktop first."},
    footer = {"", "Example:", "  DISPLAY=:0 saccade owner run --max-clients 4"})
final class OwnerRunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    OwnerOptions owner;

    @Option(names = "--display", paramLabel = "DISPLAY", description = "X display to own (default: $DISPLAY).")
    String display;

    @Override
    public Integer call() throws Exception {
        final PrintWriter err = spec.commandLine().getErr();
        final String x11 = display != null ? display : System.getenv("DISPLAY");
        if (x11 == null || x11.isEmpty()) {
            err.println("saccade: no X display: set DISPLAY or pass --display, or run `saccade up` for a headless demo desktop");
            return ExitCodes.USAGE;
        }
        return serveUntilStopped(owner, x11, null, err, null);
    }

    /**
     * Starts a service and blocks until the JVM is asked to stop; shared with {@code up}.
     *
     * @param onStarted printed once the endpoint accepts, or null.
     */
    static int serveUntilStopped(final OwnerOptions options, final String display, final String sessionBus,
        final PrintWriter err, final java.util.function.Consumer<OwnerService> onStarted) throws Exception {
        final OwnerService service;
        final CountDownLatch stopped = new CountDownLatch(1);
        try {
            // A supervised owner that handed its listener over is done: leave as if stopped.
            service = OwnerService.start(options.context(display, sessionBus).onHandedOff(stopped::countDown));
        } catch (final EndpointBusyException e) {
            err.println("saccade: another service is already answering on " + e.path()
                + "; stop it first, or pass --endpoint for a second one");
            return ExitCodes.CONNECTION_FAILED;
        } catch (final UnsafeRuntimeDirectoryException | IllegalArgumentException e) {
            err.println("saccade: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        // PCP is a client of the owner's agent endpoint and runs beside it (docs/architecture.md, "Processes").
        final OwnerPcp pcp = OwnerPcp.start(service.context().runtimeDirectory(), service.endpoint(),
            service.context().display());
        final Thread hook = new Thread(() -> {
            stop(pcp, service, err);
            stopped.countDown();
        }, "saccade-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (onStarted != null) {
            onStarted.accept(service);
        }
        stopped.await(); // until SIGTERM/SIGINT runs the hook, or a planned handoff is done
        stop(pcp, service, err); // idempotent; after a handoff the adopted listener is dropped, not unlinked
        return ExitCodes.SUCCESS;
    }

    /** PCP first (it is the owner's client), then the owner. */
    private static void stop(final OwnerPcp pcp, final OwnerService service, final PrintWriter err) {
        if (pcp != null) {
            try {
                pcp.close();
            } catch (final java.io.IOException e) {
                err.println("saccade: event=pcp_close_failed error=" + e);
            }
        }
        service.close();
    }
}
