package dev.saccade.supervisor;

import dev.saccade.ipc.ChildJvm;
import dev.saccade.ipc.link.SessionNonce;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The input helper as the supervisor's child: it outlives owners. Started with the minimal
 * class path, the session nonce in its environment (never on a command line), stdin a pipe on
 * which the supervisor names the owner to attach to ({@code attach <pid>}), output to a 0600 log.
 */
final class HelperProcess {
    private final Process process;
    private final OutputStream stdin;
    private final long startNs = System.nanoTime();

    private HelperProcess(final Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
    }

    static HelperProcess start(final SupervisorContext context, final Distribution distribution, final String linkNonceHex)
        throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(ChildJvm.javaExecutable());
        command.addAll(ChildJvm.jvmFlags());
        command.add("-cp");
        command.add(ChildJvm.helperClasspath(distribution.classpath(), SupervisorContext.HELPER_LEFT_OUT));
        command.add(context.helperMain());
        command.add("--serve");
        command.add("--display");
        command.add(context.display());
        command.add("--runtime-dir"); // where the owners' lifelines are: ours, not the environment's default
        command.add(context.runtimeDirectory().toString());
        final ProcessBuilder builder = new ProcessBuilder(command).redirectInput(Redirect.PIPE);
        final Path log = PrivateLog.open(context.runtimeDirectory().resolve(SupervisorContext.HELPER_LOG_NAME));
        builder.redirectOutput(Redirect.appendTo(log.toFile())).redirectErrorStream(true);
        builder.environment().put(SessionNonce.ENVIRONMENT_VARIABLE, linkNonceHex);
        builder.environment().put("DISPLAY", context.display());
        builder.environment().putAll(context.displayEnvironment());
        return new HelperProcess(builder.start());
    }

    /** Tells the helper which owner serves now; false if its stdin is closed (it died). */
    boolean attach(final long ownerPid) {
        try {
            stdin.write(("attach " + ownerPid + '\n').getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
            return true;
        } catch (final IOException e) {
            return false;
        }
    }

    Process process() {
        return process;
    }

    long pid() {
        return process.pid();
    }

    long startNs() {
        return startNs;
    }

    /** SIGTERM: the helper releases everything it holds and exits; SIGKILL after {@code graceMs}. */
    void terminate(final long graceMs) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(graceMs, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
