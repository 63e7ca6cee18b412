package dev.saccade.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine;

/** One in-process run of the real command line ({@link Main#commandLine(java.io.OutputStream)}), its streams captured. */
final class CliRun {
    final int exitCode;
    /** What the command wrote to standard output as bytes (completions). */
    final byte[] stdout;
    /** picocli's text output (help, version). */
    final String out;
    final String err;

    private CliRun(final int exitCode, final byte[] stdout, final String out, final String err) {
        this.exitCode = exitCode;
        this.stdout = stdout;
        this.out = out;
        this.err = err;
    }

    static CliRun run(final String... args) {
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = Main.commandLine(stdout);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        final int exitCode = commandLine.execute(args);
        return new CliRun(exitCode, stdout.toByteArray(), out.toString(), err.toString());
    }

    /** {@code saccade COMMAND --endpoint ENDPOINT OPTIONS...}, run in process. */
    static CliRun atEndpoint(final Path endpoint, final String command, final String... options) {
        final String[] args = new String[options.length + 3];
        args[0] = command;
        args[1] = "--endpoint";
        args[2] = endpoint.toString();
        System.arraycopy(options, 0, args, 3, options.length);
        return run(args);
    }

    /** The subcommand object picocli fills from {@code args} (first argument: the command name), not run. */
    static <T> T parsed(final Class<T> type, final String... args) {
        final CommandLine.ParseResult result = Main.commandLine(new ByteArrayOutputStream()).parseArgs(args);
        return type.cast(result.subcommand().commandSpec().userObject());
    }

    String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout ---\n" + stdoutText() + out + "\n--- stderr ---\n" + err;
    }
}
