package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code saccade mcp} command line ({@link Main}) in its own JVM, driven through its
 * standard input and output like an MCP host does: real pipes, real exit codes, a real closed
 * output. Standard error goes to a file.
 */
final class McpProcess implements AutoCloseable {
    final Process process;
    final Path stderr;
    private final OutputStream stdin;
    private final BufferedReader stdout;

    private McpProcess(final Process process, final Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.stdin = process.getOutputStream();
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts {@code saccade mcp --endpoint <endpoint>}. */
    static McpProcess start(final Path endpoint) throws IOException {
        return start(endpoint, new String[0]);
    }

    /** Starts {@code saccade mcp --endpoint <endpoint>} with extra JVM options ({@code -Dname=value}). */
    static McpProcess start(final Path endpoint, final String... jvmOptions) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        final String flags = System.getProperty("saccade.jvm.flags", "");
        if (!flags.isBlank()) {
            command.addAll(Arrays.asList(flags.trim().split("\\s+")));
        }
        command.addAll(Arrays.asList(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp",
            "--endpoint", endpoint.toString()));
        final Path stderr = Files.createTempFile("saccade-mcp", ".err");
        final Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new McpProcess(process, stderr);
    }

    /** Writes raw bytes (a line is the caller's to end with a newline). */
    void write(final byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    void send(final String line) throws IOException {
        write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Sends one line and returns the one response line. */
    String call(final String line) throws IOException {
        send(line);
        return read();
    }

    String read() throws IOException {
        final String response = stdout.readLine();
        assertNotNull(response, "no response line; stderr: " + Files.readString(stderr));
        return response;
    }

    /** Closes standard input and returns the rest of standard output, line by line. */
    List<String> finish() throws IOException {
        stdin.close();
        final List<String> rest = new ArrayList<>();
        for (String line; (line = stdout.readLine()) != null; ) {
            rest.add(line);
        }
        return rest;
    }

    /** The exit code, waiting up to 20 s. */
    int exitCode() throws InterruptedException {
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new AssertionError("saccade mcp did not exit");
        }
        return process.exitValue();
    }

    /** Closes standard output's read end: the adapter's next write fails. */
    void closeOutput() throws IOException {
        process.getInputStream().close();
    }

    static String tool(final int id, final String name, final String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name
            + "\",\"arguments\":" + arguments + "}}";
    }

    static String request(final Object id, final String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\"}";
    }

    static final String INITIALIZE =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}";

    @Override
    public void close() throws IOException {
        process.destroyForcibly();
        Files.deleteIfExists(stderr);
    }
}
