package dev.saccade.cli;

/**
 * Process exit codes of {@code saccade}: the one place that maps outcomes to numbers, so that
 * agents and scripts can branch on them without parsing text.
 *
 * <p>Commands return one of these from {@code call()}; picocli's own usage errors (unknown
 * option, missing or malformed argument) are mapped to {@link #USAGE} where the
 * {@code CommandLine} is built ({@code Main.commandLine()}). The launcher script exits 127 when it
 * cannot start Java at all; that code is deliberately outside this range.
 */
public final class ExitCodes {
    /** The command did what was asked. */
    public static final int SUCCESS = 0;
    /** The command line was wrong: unknown option or command, missing or malformed argument. */
    public static final int USAGE = 1;
    /** The service endpoint could not be reached (absent, refused, wrong owner), or did not answer in time. */
    public static final int CONNECTION_FAILED = 2;
    /** The service answered with something that breaks the wire contract. */
    public static final int PROTOCOL = 3;
    /** The service understood the request and rejected it (stale generation, denied, invalid). */
    public static final int REQUEST_REJECTED = 4;
    /** Writing the result failed (closed or full standard output, unwritable file). */
    public static final int OUTPUT = 5;
    /** Reading the command's input failed (standard input or a batch file: unreadable, too long). */
    public static final int INPUT = 6;

    private ExitCodes() {
    }
}
