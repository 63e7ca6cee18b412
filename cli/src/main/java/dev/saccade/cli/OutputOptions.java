package dev.saccade.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import dev.saccade.protocol.CompletionJson;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import net.openhft.chronicle.bytes.BytesStore;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --json} and the writing of a completion to standard output: by default its raw bytes
 * (exactly total_size bytes, no length prefix), which another program reads with the ABI's
 * layouts; with {@code --json} a readable view streamed through {@link CompletionJson}, one
 * pretty-printed object and a newline, never built in memory as a whole.
 *
 * <p>Standard output is a byte stream here, not picocli's {@code PrintWriter}, so binary output
 * passes unchanged and a failed write (closed pipe) is an exception, not a silent error flag.
 * {@link CommandFactory} hands tests their own stream; messages go to picocli's error writer.
 */
final class OutputOptions {
    /** Bytes copied per write of a binary completion. */
    private static final int COPY_CHUNK_BYTES = 64 * 1024;
    private static final JsonFactory JSON = JsonFactory.builder()
        .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
        .build();

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--json",
        description = "Print a readable JSON view instead of the binary completion: names for enumerations and"
            + " bits, desktop units for coordinates, decimal strings for 64-bit ids and generations.")
    boolean json;

    private final OutputStream stdout;
    private final CompletionJson completionJson = new CompletionJson();

    /** Writes to this process's standard output (file descriptor 1), which it never closes. */
    OutputOptions() {
        this(new FileOutputStream(FileDescriptor.out));
    }

    OutputOptions(final OutputStream stdout) {
        this.stdout = stdout;
    }

    /**
     * Writes the completion of {@code length} bytes at {@code at}, which passed
     * {@code CompletionValidator} (so the JSON view reads nothing outside it).
     */
    void write(final BytesStore<?, ?> frame, final long at, final int length) throws OutputFailedException {
        try {
            if (json) {
                try (JsonGenerator g = JSON.createGenerator(stdout, JsonEncoding.UTF8)) {
                    g.useDefaultPrettyPrinter();
                    completionJson.write(g, frame, at);
                }
                stdout.write('\n');
            } else {
                final byte[] chunk = new byte[Math.min(length, COPY_CHUNK_BYTES)];
                for (int done = 0; done < length; ) {
                    final int n = Math.min(chunk.length, length - done);
                    frame.read(at + done, chunk, 0, n);
                    stdout.write(chunk, 0, n);
                    done += n;
                }
            }
            stdout.flush();
        } catch (final IOException e) {
            throw new OutputFailedException(e);
        }
    }

    /** Where one-line messages go: picocli's error writer of the command. */
    PrintWriter err() {
        return mixee.commandLine().getErr();
    }
}
