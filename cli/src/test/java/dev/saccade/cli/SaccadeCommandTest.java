package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SaccadeCommandTest {
    /** Set by surefire from the POM, so the test does not read the resource it checks. */
    private static final String PROJECT_VERSION = System.getProperty("saccade.project.version");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(final String... args) {
        final CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void versionNamesProjectVersionAgentAbiAndRunningJava() {
        assertTrue(PROJECT_VERSION != null && !PROJECT_VERSION.isEmpty(), "surefire must pass saccade.project.version");

        assertEquals(ExitCodes.SUCCESS, run("--version"));

        assertEquals("saccade " + PROJECT_VERSION + " (agent ABI 0x00010001, Java " + Runtime.version() + ")",
                out.toString().strip());
        assertEquals("", err.toString());
    }

    @Test
    void versionShortOptionPrintsTheSameLine() {
        assertEquals(ExitCodes.SUCCESS, run("-V"));

        assertTrue(out.toString().startsWith("saccade " + PROJECT_VERSION + " (agent ABI 0x00010001, "), out.toString());
    }

    @Test
    void abiVersionIsFormattedAsEightHexDigits() {
        assertEquals("saccade 1.2.3 (agent ABI 0x00020000, Java 17.0.15+6)",
                VersionProvider.versionLine("1.2.3", 0x00020000, Runtime.Version.parse("17.0.15+6")));
    }

    @Test
    void helpPrintsUsageCommandsAndExitCodesToStandardOutput() {
        assertEquals(ExitCodes.SUCCESS, run("--help"));

        final String help = out.toString();
        assertTrue(help.contains("\nUsage: saccade [-hV] COMMAND\n"), help);
        assertTrue(help.contains("-V, --version"), help);
        assertTrue(help.contains("Commands:"), help);
        assertTrue(help.matches("(?s).*\\n  help\\s+Display help information about the specified command\\..*"), help);
        assertTrue(help.contains("Exit codes:"), help);
        assertTrue(help.contains("  1   usage error"), help);
        assertTrue(help.contains("  6   input failure"), help);
        assertEquals("", err.toString());
    }

    @Test
    void helpCommandPrintsTheSameUsageAsTheOption() {
        run("--help");
        final String byOption = out.toString();
        out.getBuffer().setLength(0);

        assertEquals(ExitCodes.SUCCESS, run("help"));

        assertEquals(byOption, out.toString());
    }

    @Test
    void unknownOptionIsAUsageErrorReportedOnStandardError() {
        assertEquals(ExitCodes.USAGE, run("--no-such-option"));

        assertTrue(err.toString().startsWith("Unknown option: '--no-such-option'"), err.toString());
        assertTrue(err.toString().contains("Usage: saccade"), err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void unknownCommandIsAUsageError() {
        assertEquals(ExitCodes.USAGE, run("no-such-command"));

        assertTrue(err.toString().contains("'no-such-command'"), err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void helperRunNeedsItsOwnersLinkOrServe() {
        assertEquals(ExitCodes.USAGE, run("helper", "run"));

        assertTrue(err.toString().contains("needs --link, --lifeline and --owner-pid"), err.toString());
        assertTrue(err.toString().contains("or --serve"), err.toString());
        out.getBuffer().setLength(0);
        assertEquals(ExitCodes.SUCCESS, run("helper", "run", "--help"));
        assertTrue(out.toString().contains("--serve"), out.toString());
    }

    @Test
    void noCommandIsAUsageErrorWithUsageOnStandardError() {
        assertEquals(ExitCodes.USAGE, run());

        assertTrue(err.toString().contains("\nUsage: saccade [-hV] COMMAND\n"), err.toString());
        assertEquals("", out.toString());
    }
}
