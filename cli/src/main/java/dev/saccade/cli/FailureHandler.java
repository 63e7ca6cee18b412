package dev.saccade.cli;

import dev.saccade.client.AgentProtocolException;
import dev.saccade.client.HelloRefusedException;
import dev.saccade.client.ReadExchange;
import dev.saccade.client.ServiceUnavailableException;
import dev.saccade.client.UnexpectedReplyException;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.SocketTimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * The one place where the expected failures of a command become exit codes
 * ({@link ExitCodes}) and a one-line {@code saccade: ...} message on standard error, without a
 * stack trace:
 * <table>
 *   <caption>Exceptions thrown by {@code call()} and their exit codes</caption>
 *   <tr><td>{@link ServiceUnavailableException}, {@link EndpointUnreachableException}, no reply or
 *       no accept in time ({@link SocketTimeoutException}: a busy or hung service, nothing the
 *       request did wrong)</td>
 *       <td>{@link ExitCodes#CONNECTION_FAILED}</td></tr>
 *   <tr><td>{@link AgentProtocolException}, {@link UnexpectedReplyException}, {@link EOFException}
 *       (the service closed the connection: it does so for a malformed request), any other I/O
 *       error on the connection</td>
 *       <td>{@link ExitCodes#PROTOCOL}</td></tr>
 *   <tr><td>{@link HelloRefusedException}</td><td>{@link ExitCodes#REQUEST_REJECTED}</td></tr>
 *   <tr><td>{@link OutputFailedException}</td><td>{@link ExitCodes#OUTPUT}</td></tr>
 * </table>
 * A typed non-OK completion is not an exception: the command prints it and returns
 * {@link ExitCodes#REQUEST_REJECTED} itself ({@link ReadExchange}). Anything else is a bug and
 * goes on to picocli, which prints its stack trace.
 */
final class FailureHandler implements IExecutionExceptionHandler {
    /** Marks an exception this handler does not map. */
    static final int UNMAPPED = -1;

    @Override
    public int handleExecutionException(final Exception e, final CommandLine command, final ParseResult parsed)
        throws Exception {
        final int code = exitCodeOf(e);
        if (code == UNMAPPED) {
            throw e;
        }
        final PrintWriter err = command.getErr();
        err.println("saccade: " + messageOf(e, code));
        err.flush();
        return code;
    }

    /** The exit code of an exception a command throws, or {@link #UNMAPPED}. */
    static int exitCodeOf(final Throwable e) {
        if (e instanceof ServiceUnavailableException || e instanceof EndpointUnreachableException
            || e instanceof SocketTimeoutException) {
            return ExitCodes.CONNECTION_FAILED;
        }
        if (e instanceof HelloRefusedException) {
            return ExitCodes.REQUEST_REJECTED;
        }
        if (e instanceof OutputFailedException) {
            return ExitCodes.OUTPUT;
        }
        if (e instanceof InputFailedException) {
            return ExitCodes.INPUT; // reading a text file, a batch file or stdin
        }
        if (e instanceof IOException) {
            // After the connection: a bad reply, EOF, reset or broken pipe.
            return ExitCodes.PROTOCOL;
        }
        return UNMAPPED;
    }

    private static String messageOf(final Throwable e, final int code) {
        final String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        if (e instanceof SocketTimeoutException) {
            return "no reply from the service in time: " + message + " (is it busy or hung? `saccade doctor` checks it;"
                + " --timeout-ms waits longer)";
        }
        if (code == ExitCodes.PROTOCOL && !(e instanceof AgentProtocolException)
            && !(e instanceof UnexpectedReplyException) && !(e instanceof EOFException)) {
            return "no reply from the service: " + message;
        }
        return code == ExitCodes.PROTOCOL ? "protocol error: " + message : message;
    }
}
