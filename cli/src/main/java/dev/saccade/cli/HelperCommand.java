package dev.saccade.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code saccade helper}: the input helper process. */
@Command(name = "helper", mixinStandardHelpOptions = true,
    header = "Run the input helper (normally the owner starts it).",
    subcommands = HelperCommand.Run.class)
final class HelperCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: try `saccade helper run --help`");
    }

    /**
     * {@code saccade helper run}: the minimal process that injects input. The owner launches it
     * itself (on a classpath without the owner's code); this command is for running one by hand
     * against an owner's link, e.g. to watch its log.
     */
    @Command(name = "run", mixinStandardHelpOptions = true,
        header = "Attach to an owner's input link and execute its plans.",
        description = {"The session nonce comes in SACCADE_LINK_NONCE (never on the command line). Releases every key "
            + "and button it holds when its owner goes away, on SIGTERM, and on real user input.",
            "With --serve it is the supervisor's helper (the supervisor starts it on a minimal classpath itself)."})
    static final class Run implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--link", paramLabel = "FILE", description = "The owner's link file in the runtime directory.")
        String link;

        @Option(names = "--lifeline", paramLabel = "SOCKET", description = "The owner's lifeline socket.")
        String lifeline;

        @Option(names = "--owner-pid", paramLabel = "PID", description = "The owner's process id.")
        long ownerPid;

        @Option(names = "--serve", description = "Be the supervisor's helper: outlive owners, attaching to each one "
            + "announced as `attach <ownerPid>` on standard input (their link and lifeline are named by that pid); "
            + "exit when standard input ends.")
        boolean serve;

        @Option(names = "--runtime-dir", paramLabel = "DIR", description = "With --serve: the owners' runtime directory "
            + "(default: $XDG_RUNTIME_DIR/saccade).")
        String runtimeDirectory;

        @Option(names = "--display", paramLabel = "DISPLAY", description = "X display (default: $DISPLAY).")
        String display;

        @Override
        public Integer call() throws Exception {
            final List<String> args = new ArrayList<>();
            if (serve) {
                args.add("--serve");
                if (runtimeDirectory != null) {
                    args.add("--runtime-dir");
                    args.add(runtimeDirectory);
                }
            } else {
                if (link == null || lifeline == null || ownerPid <= 0) {
                    throw new ParameterException(spec.commandLine(),
                        "needs --link, --lifeline and --owner-pid (the owner that launched it), or --serve");
                }
                args.addAll(List.of("--link", link, "--lifeline", lifeline, "--owner-pid", Long.toString(ownerPid)));
            }
            if (display != null) {
                args.add("--display");
                args.add(display);
            }
            dev.saccade.helper.InputHelperMain.main(args.toArray(new String[0]));
            return ExitCodes.SUCCESS;
        }
    }
}
