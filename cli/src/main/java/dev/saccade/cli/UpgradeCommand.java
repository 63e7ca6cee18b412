package dev.saccade.cli;

import dev.saccade.installer.InstallException;
import dev.saccade.installer.InstallLayout;
import dev.saccade.installer.InstallPlan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saccade upgrade}: installs a distribution as {@code saccade install} does (without
 * touching the login item's switch), then asks the running supervisor to upgrade in place with
 * {@code {"command":"upgrade","to":"<version dir>"}} on its control socket. The supervisor
 * answers after the new owner serves, or after it failed and the old one still serves; on a
 * refusal {@code current} is pointed back at the version that still runs.
 */
@Command(
    name = "upgrade",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Install a new version and upgrade the running supervisor to it in place.",
    description = {
        "Installs the distribution into versions/<version> and points `current` at it, as `saccade install` does,"
            + " then asks the supervisor on $RUN/saccade-supervisor-v1.sock to upgrade to that directory. The"
            + " agent endpoint stays up meanwhile: the old owner hands its listening socket to the new one.",
        "When no supervisor runs, the new version is installed and is used at the next start (exit code "
            + UpgradeCommand.INSTALLED_NOT_RUNNING + ")."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    optionListHeading = "%nOptions:%n",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        ExitCodes.SUCCESS + ":installed, and the supervisor runs the new version",
        ExitCodes.USAGE + ":usage error (unknown option or command, bad argument)",
        ExitCodes.CONNECTION_FAILED + ":installed, but the control socket could not be used (permission, other uid)",
        ExitCodes.PROTOCOL + ":installed, but the supervisor's reply broke the contract or did not come in time",
        ExitCodes.REQUEST_REJECTED + ":installed, but the supervisor refused or failed the upgrade; the old version"
            + " still runs and `current` points at it again",
        ExitCodes.OUTPUT + ":the layout could not be written",
        ExitCodes.INPUT + ":the distribution is missing or incomplete",
        UpgradeCommand.INSTALLED_NOT_RUNNING + ":installed; no supervisor is running, the new version is used at"
            + " next start"})
final class UpgradeCommand implements Callable<Integer> {
    /** Installed, nothing to upgrade in place: no supervisor answers on the control socket. */
    static final int INSTALLED_NOT_RUNNING = 7;
    static final long DEFAULT_TIMEOUT_MS = 120_000;

    @Spec
    CommandSpec spec;

    @Mixin
    LayoutOptions layoutOptions;

    @Mixin
    DistributionOptions distributionOptions;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "" + DEFAULT_TIMEOUT_MS,
        description = "How long to wait for the supervisor's answer: it comes once the new owner serves"
            + " (default: ${DEFAULT-VALUE}).")
    long timeoutMs;

    @Option(names = "--control-socket", paramLabel = "PATH", hidden = true,
        description = "The supervisor's control socket instead of $RUN/saccade-supervisor-v1.sock (tests).")
    Path controlSocket;

    @Override
    public Integer call() throws IOException {
        if (timeoutMs <= 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--timeout-ms must be positive");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final InstallLayout layout = layoutOptions.layout();
        final InstallPlan plan;
        final Path previous;
        final String request;
        final Path socket = controlSocket != null ? controlSocket : SupervisorControlRequest.socket(System.getenv());
        try {
            plan = distributionOptions.plan(layout);
            request = SupervisorControlRequest.upgradeLine(plan.versionDirectory());
            if (distributionOptions.dryRun) {
                out.println("# saccade upgrade --dry-run: nothing is written or sent; an upgrade would write:");
                plan.print(out);
                out.println("# and then send to " + socket + ":");
                out.print(request);
                out.flush();
                return ExitCodes.SUCCESS;
            }
            previous = Files.isSymbolicLink(layout.current())
                ? layout.root().resolve(Files.readSymbolicLink(layout.current())).normalize() : null;
            plan.apply();
        } catch (final InstallException e) {
            return LayoutOptions.report(e, err);
        }
        final String version = plan.distribution().version();
        out.println("installed Saccade " + version + " in " + plan.versionDirectory());
        if (controlSocket == null && !layoutOptions.isOwn()) {
            out.println("no supervisor was asked to upgrade: the layout is not your own (--home or --platform);"
                + " the new version is used at its next start");
            out.flush();
            return INSTALLED_NOT_RUNNING;
        }
        final SupervisorControlRequest.Reply reply;
        try {
            reply = SupervisorControlRequest.send(socket, request, Duration.ofMillis(timeoutMs));
        } catch (final SupervisorNotRunningException e) {
            out.println(e.getMessage() + ": the new version is installed and will be used at next start");
            out.flush();
            return INSTALLED_NOT_RUNNING;
        }
        if (reply.ok()) {
            out.println("the supervisor runs Saccade " + version + " now");
            out.flush();
            return ExitCodes.SUCCESS;
        }
        err.println("saccade: the supervisor did not upgrade to " + version + ": " + reply.error());
        if (previous != null && !previous.equals(plan.versionDirectory())) {
            try {
                InstallPlan.switchCurrent(layout, previous);
                err.println("saccade: " + layout.current() + " points at " + previous + " again, the version that runs");
            } catch (final IOException e) {
                err.println("saccade: could not point " + layout.current() + " back at " + previous + ": " + e.getMessage());
            }
        }
        err.flush();
        return ExitCodes.REQUEST_REJECTED;
    }
}
