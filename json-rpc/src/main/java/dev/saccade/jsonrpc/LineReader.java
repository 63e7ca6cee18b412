package dev.saccade.jsonrpc;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads standard input one {@code \n}-ended line at a time into a fixed buffer of
 * {@link #MAX_LINE_BYTES}: a line that does not end within the cap is an input failure found
 * as soon as its byte 65,536 arrives, never buffered whole (mcp.md §1). A last line without
 * {@code \n} at end of input counts.
 */
public final class LineReader {
    /** The cap of one line including its {@code \n} (mcp.md §1). */
    public static final int MAX_LINE_BYTES = 65_536;
    /** What {@link #next()} returns at end of input. */
    public static final int EOF = -1;

    /** Thrown for a line over the cap; the adapter exits with code 2. */
    public static final class LineTooLongException extends IOException {
        private static final long serialVersionUID = 1L;

        LineTooLongException() {
            super("input line longer than " + MAX_LINE_BYTES + " bytes including its newline");
        }
    }

    private final InputStream in;
    private final byte[] chunk = new byte[8192];
    private int chunkStart;
    private int chunkEnd;
    private final byte[] line = new byte[MAX_LINE_BYTES - 1];
    private boolean eof;

    public LineReader(final InputStream in) {
        this.in = in;
    }

    /** The buffer {@link #next()} fills; valid until the next call. */
    public byte[] line() {
        return line;
    }

    /**
     * Reads the next line (without its {@code \n}).
     *
     * @return its length, or {@link #EOF} when input ended with no byte of a new line.
     * @throws LineTooLongException over the cap; any other I/O error of standard input.
     */
    public int next() throws IOException {
        int length = 0;
        boolean any = false;
        while (true) {
            if (chunkStart == chunkEnd) {
                if (eof || !fill()) {
                    return any ? length : EOF;
                }
            }
            while (chunkStart < chunkEnd) {
                final byte b = chunk[chunkStart++];
                any = true;
                if (b == '\n') {
                    return length;
                }
                if (length == line.length) {
                    throw new LineTooLongException();
                }
                line[length++] = b;
            }
        }
    }

    private boolean fill() throws IOException {
        final int n = in.read(chunk, 0, chunk.length);
        if (n <= 0) {
            eof = n < 0;
            return !eof && fill();
        }
        chunkStart = 0;
        chunkEnd = n;
        return true;
    }
}
