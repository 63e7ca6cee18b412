package dev.saccade.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/** Entry point of {@code saccade}; {@code bin/saccade} runs this class with the JVM flags set. */
public final class Main {
    private Main() {
    }

    /** Commands whose {@code run} is a daemon (the owner's, the supervisor's, the helper's): they keep everything. */
    private static final Set<String> DAEMONS = Set.of("owner", "supervisor", "helper");

    public static void main(final String[] args) {
        final boolean daemon = args.length > 0 && (args[0].equals("up")
            || DAEMONS.contains(args[0]) && args.length > 1 && args[1].equals("run"));
        if (!daemon) {
            clientWithoutNativePosix();
            ClientWarmUp.startFor(args);
        }
        // picocli looks for Groovy's Closure class when its default factory loads (it does on
        // every run): a miss that opens and searches every jar of the class path (~13 ms).
        System.setProperty("picocli.disable.closures", "true");
        System.exit(commandLine(new FileOutputStream(FileDescriptor.out), args).execute(args));
    }

    /**
     * Chronicle's first use loads its native POSIX layer (jnr-ffi, which generates code with ASM:
     * about 100 ms, a third of a one-shot run). A client needs none of it: Chronicle Bytes works on
     * Unsafe, and the layer is only for mapped files and affinity. Chronicle's own switch is an
     * internal class, so it is called by name and a Chronicle without it changes nothing.
     */
    private static void clientWithoutNativePosix() {
        try {
            Class.forName("net.openhft.posix.internal.PosixAPIHolder").getMethod("useNoOpPosixApi").invoke(null);
        } catch (final ReflectiveOperationException | LinkageError | RuntimeException e) {
            // another Chronicle: it loads its layer as before
        }
    }

    /**
     * The configured command line. Tests run this same object, so what they check is what the
     * launcher runs.
     */
    static CommandLine commandLine() {
        // File descriptor 1 as bytes: binary completions pass unchanged, failed writes throw.
        return commandLine(new FileOutputStream(FileDescriptor.out));
    }

    /** {@link #commandLine()} writing command results to {@code stdout} (tests pass their own). */
    static CommandLine commandLine(final OutputStream stdout) {
        return commandLine(stdout, null);
    }

    /**
     * The command line for a run of {@code args}: with every subcommand, or, when {@code args}
     * name one ({@code saccade query ...}), with that one only, which parses, helps and fails the
     * same way in a fraction of the start-up time. {@code null}: all of them.
     */
    static CommandLine commandLine(final OutputStream stdout, final String[] args) {
        final CommandFactory factory = new CommandFactory(stdout);
        final CommandLine root = new CommandLine(new SaccadeCommand(), factory);
        final Class<?> only = invoked(args);
        for (final Class<?> command : SaccadeCommand.COMMANDS) {
            if (only == null || command == only) {
                root.addSubcommand(new CommandLine(command, factory));
            }
        }
        root.setExecutionExceptionHandler(new FailureHandler());
        exitWithUsageOnInvalidInput(root);
        listExitCodes(root, root.getCommandSpec().usageMessage().exitCodeList());
        return root;
    }

    /**
     * The subcommand {@code args} invoke, or null when the run needs them all: no arguments, the
     * root's options ({@code --help} lists every command; {@code --version} needs none, see below),
     * {@code help}, or a name that is no command (the error suggests the close ones).
     */
    private static Class<?> invoked(final String[] args) {
        if (args == null || args.length == 0) {
            return null;
        }
        if (args[0].equals("--version") || args[0].equals("-V")) {
            return Void.class; // matches no command: none is added
        }
        for (final Class<?> command : SaccadeCommand.COMMANDS) {
            if (command != CommandLine.HelpCommand.class && nameOf(command).equals(args[0])) {
                return command;
            }
        }
        return null;
    }

    /**
     * A command's name from its class name ({@code QueryCommand} is {@code query}), which
     * LazyCommandTreeTest holds equal to its {@code @Command} name: reading the annotations of
     * every command before the invoked one parsed each one's annotations on a one-shot run.
     */
    static String nameOf(final Class<?> command) {
        final String simple = command.getSimpleName();
        return simple.substring(0, simple.length() - "Command".length()).toLowerCase(Locale.ROOT);
    }

    /**
     * picocli answers invalid input with 2, which our table gives to a failed connection. The
     * code is looked up on the command that failed to parse, so every subcommand needs it; set
     * here for the whole tree, a subcommand added later cannot miss it.
     */
    private static void exitWithUsageOnInvalidInput(final CommandLine command) {
        command.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
        for (final CommandLine subcommand : command.getSubcommands().values()) {
            exitWithUsageOnInvalidInput(subcommand);
        }
    }

    /**
     * Every subcommand's help lists the root's exit codes (one table, declared once on
     * {@link SaccadeCommand}) unless it declares its own.
     */
    private static void listExitCodes(final CommandLine command, final Map<String, String> exitCodes) {
        for (final CommandLine subcommand : command.getSubcommands().values()) {
            final CommandLine.Model.UsageMessageSpec usage = subcommand.getCommandSpec().usageMessage();
            if (usage.exitCodeList().isEmpty()) {
                usage.exitCodeListHeading("%nExit codes:%n").exitCodeList(exitCodes);
            }
            listExitCodes(subcommand, exitCodes);
        }
    }
}
