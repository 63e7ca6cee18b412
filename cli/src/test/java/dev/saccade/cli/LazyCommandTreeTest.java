package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A run that names its command builds only that command's model (a one-shot run's
 * start-up), and parses, helps and fails exactly like the whole tree.
 */
class LazyCommandTreeTest {
    private static CommandLine tree(final String... args) {
        return Main.commandLine(new ByteArrayOutputStream(), args);
    }

    private static String[] run(final CommandLine commandLine, final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        final int code = commandLine.execute(args);
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    void aNamedCommandGetsOnlyItsOwnModel() {
        assertEquals(List.of("query"), List.copyOf(tree("query", "--role", "window").getSubcommands().keySet()));
        assertEquals(List.of("supervisor"), List.copyOf(tree("supervisor", "status").getSubcommands().keySet()));
        assertEquals(List.of(), List.copyOf(tree("--version").getSubcommands().keySet()), "--version needs none");
        final int all = SaccadeCommand.COMMANDS.size();
        for (final String[] args : new String[][] {{}, {"--help"}, {"help", "query"}, {"quer"}}) {
            assertEquals(all, tree(args).getSubcommands().size(), String.join(" ", args) + " needs every command");
        }
        assertEquals(all, Main.commandLine(new ByteArrayOutputStream()).getSubcommands().size());
    }

    @Test
    void everyCommandIsNamedAfterItsClassAsTheLookupAssumes() {
        for (final Class<?> command : SaccadeCommand.COMMANDS) {
            if (command != CommandLine.HelpCommand.class) {
                assertEquals(command.getAnnotation(CommandLine.Command.class).name(), Main.nameOf(command), command.getName());
            }
        }
    }

    @Test
    void itHelpsParsesAndFailsLikeTheWholeTree() {
        for (final String[] args : new String[][] {{"query", "--help"}, {"act", "click", "--help"},
            {"supervisor", "upgrade", "--help"}, {"query", "--bogus"}, {"observe", "--scope", "nowhere"}, {"--version"}}) {
            final String[] lazy = run(tree(args), args);
            final String[] full = run(Main.commandLine(new ByteArrayOutputStream()), args);
            assertEquals(List.of(full), List.of(lazy), String.join(" ", args));
        }
        final String[] help = run(tree("query", "--help"), "query", "--help");
        assertTrue(help[1].contains("Usage: saccade query"), help[1]);
        assertTrue(help[1].contains("Exit codes:"), "the root's exit codes reach the subcommand: " + help[1]);
    }
}
