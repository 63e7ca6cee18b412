package dev.saccade.cli;

import dev.saccade.ipc.EndpointBusyException;
import dev.saccade.ipc.UnsafeRuntimeDirectoryException;
import dev.saccade.supervisor.InputHelperMode;
import dev.saccade.supervisor.Supervisor;
import dev.saccade.supervisor.SupervisorContext;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saccade supervisor run}: the supervisor in the foreground until SIGTERM, Ctrl-C or
 * {@code saccade supervisor stop}; the login item runs this.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    header = "Run the supervisor in the foreground: the input helper and the owner service as children.",
    description = {
        "Binds the agent endpoint and keeps it listening; starts the owner (and the input helper) and restarts them "
            + "with backoff (250 ms doubling to 8 s). Logs one line per lifecycle event to stderr; sends READY=1 to "
            + "$NOTIFY_SOCKET when set (systemd Type=notify)."},
    footer = {"", "Example:", "  DISPLAY=:0 saccade supervisor run"})
final class SupervisorRunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--display", paramLabel = "DISPLAY", description = "X display to own (default: $DISPLAY).")
    String display;

    @Option(names = "--runtime-dir", paramLabel = "DIR", description = "Runtime directory (default: $XDG_RUNTIME_DIR/saccade).")
    Path runtimeDirectory;

    @Option(names = "--endpoint", paramLabel = "PATH", description = "Agent endpoint (default: in the runtime directory).")
    Path endpoint;

    @Option(names = "--distribution", paramLabel = "DIR",
        description = "Distribution whose owner to start (default: the one this command runs from).")
    Path distribution;

    @Option(names = "--no-input-helper", description = "Start no input helper (batches then answer EXECUTOR_LOST).")
    boolean noInputHelper;

    @Option(names = "--input-helper", paramLabel = "MODE", defaultValue = "SUPERVISED",
        description = "Who starts the input helper: SUPERVISED (this supervisor; it outlives owners), OWNER (each owner "
            + "its own) or NONE (default: ${DEFAULT-VALUE}).")
    InputHelperMode inputHelper;

    @Option(names = "--owner-arg", paramLabel = "ARG", description = "Extra argument of `saccade owner run` (repeatable).")
    List<String> ownerArgs = new ArrayList<>();

    @Option(names = "--owner-java-options", paramLabel = "OPTS", description = "JVM options of the owner.")
    String ownerJavaOptions;

    @Override
    public Integer call() throws Exception {
        final PrintWriter err = spec.commandLine().getErr();
        final SupervisorContext context = new SupervisorContext()
            .inputHelper(noInputHelper ? InputHelperMode.NONE : inputHelper).ownerArgs(ownerArgs)
            .ownerJavaOptions(ownerJavaOptions);
        if (display != null) {
            context.display(display);
        }
        if (runtimeDirectory != null) {
            context.runtimeDirectory(runtimeDirectory);
        }
        if (endpoint != null) {
            context.endpoint(endpoint);
        }
        if (distribution != null) {
            context.distribution(distribution.toAbsolutePath());
        }
        return superviseUntilStopped(context, err);
    }

    /** Starts a supervisor on {@code context} and blocks until it stops; shared with {@code up}. */
    static int superviseUntilStopped(final SupervisorContext context, final PrintWriter err) throws Exception {
        final Supervisor supervisor;
        try {
            supervisor = Supervisor.start(context.conclude());
        } catch (final EndpointBusyException e) {
            err.println("saccade: " + e.path() + " is already served (another supervisor or owner); stop it first");
            return ExitCodes.CONNECTION_FAILED;
        } catch (final UnsafeRuntimeDirectoryException | IllegalArgumentException e) {
            err.println("saccade: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        final Thread hook = new Thread(supervisor::close, "saccade-supervisor-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        supervisor.awaitStopped();
        return ExitCodes.SUCCESS;
    }
}
