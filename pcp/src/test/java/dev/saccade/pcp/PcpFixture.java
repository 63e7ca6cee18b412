package dev.saccade.pcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A running PCP endpoint on a private 0700 runtime directory with one trusted Ed25519 key, and
 * the real application processes started against it (killed with SIGKILL at close).
 */
final class PcpFixture implements AutoCloseable {
    final Path runtime;
    final Path trustDir;
    final Path privateKeyFile;
    final KeyPair keys;
    final PcpEndpoint endpoint;
    /** The user's answers to confirmations, unless the settings gave a real notification bus. */
    final RecordingPrompt prompt = new RecordingPrompt();
    private final List<App> apps = new ArrayList<>();

    PcpFixture(final Path temp, final PcpScene scene, final java.util.function.Consumer<PcpContext> settings) throws Exception {
        runtime = Files.createDirectory(temp.resolve("run"), PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
        trustDir = temp.resolve("config").resolve("pcp-trust");
        keys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        final Path publicKey = temp.resolve("app.pub");
        Files.writeString(publicKey, TrustedKeys.pem(keys.getPublic()));
        new TrustedKeys(trustDir).add(publicKey);
        privateKeyFile = temp.resolve("app.key");
        Files.createFile(privateKeyFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(privateKeyFile, keys.getPrivate().getEncoded());
        final PcpContext context = new PcpContext().runtimeDirectory(runtime).trustDirectory(trustDir).prompt(prompt);
        settings.accept(context);
        endpoint = PcpEndpoint.start(context.conclude(), scene);
    }

    Path socket() {
        return endpoint.server().path();
    }

    Path hostSocket() {
        return runtime.resolve(HostConfirmations.SOCKET_NAME);
    }

    PcpClient client() throws IOException {
        return PcpClient.connect(socket(), Duration.ofSeconds(20));
    }

    /** Starts {@link PcpTestApplication} in its own JVM and waits for its registration answer. */
    App app(final String appId, final String... extra) throws Exception {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "-Xshare:auto", "-XX:TieredStopAtLevel=1",
            PcpTestApplication.class.getName(), socket().toString(), appId, privateKeyFile.toString()));
        command.addAll(List.of(extra));
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final App app = new App(process);
        apps.add(app);
        return app;
    }

    @Override
    public void close() throws IOException {
        for (final App app : apps) {
            app.kill();
        }
        endpoint.close();
    }

    /** One application process and the lines it prints. */
    static final class App {
        final Process process;
        private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

        App(final Process process) {
            this.process = process;
            final Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        lines.add(line);
                    }
                } catch (final IOException ignore) {
                    // The process was killed: no more lines.
                }
            }, "pcp-test-app-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        /** The next printed line starting with {@code prefix} (others skipped), within {@code timeout}. */
        String next(final String prefix, final Duration timeout) throws InterruptedException {
            final long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                final String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    throw new AssertionError("the application printed no '" + prefix + "' line within " + timeout);
                }
                if (line.startsWith(prefix)) {
                    return line.substring(prefix.length()).trim();
                }
            }
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> registered() throws Exception {
            return (Map<String, Object>) JsonTree.parse(next("registered", Duration.ofSeconds(30)));
        }

        void kill() {
            process.destroyForcibly(); // SIGKILL on Linux
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
            }
        }
    }
}
