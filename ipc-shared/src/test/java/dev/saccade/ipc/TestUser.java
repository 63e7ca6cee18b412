package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The unprivileged system user {@code saccade-test}, created on first use (the tests run as root). */
final class TestUser {
    static final String NAME = "saccade-test";

    final int uid;
    final int gid;

    private TestUser(final int uid, final int gid) {
        this.uid = uid;
        this.gid = gid;
    }

    static TestUser ensure() throws IOException, InterruptedException {
        if (run("getent", "passwd", NAME).exitCode != 0) {
            if (!Files.isExecutable(Path.of("/usr/sbin/useradd"))) {
                fail("useradd is not available, so the peer-uid test cannot create the user " + NAME
                    + "; install the 'passwd' package or create the user by hand");
            }
            final Result added = run("/usr/sbin/useradd", "--system", "--no-create-home", "--shell",
                "/usr/sbin/nologin", NAME);
            if (added.exitCode != 0 && run("getent", "passwd", NAME).exitCode != 0) {
                fail("useradd " + NAME + " failed (exit " + added.exitCode + "): " + added.output
                    + " -- the tests must run as root");
            }
        }
        return new TestUser(Integer.parseInt(run("id", "-u", NAME).output.trim()),
            Integer.parseInt(run("id", "-g", NAME).output.trim()));
    }

    static Result run(final String... command) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail(String.join(" ", command) + " did not finish in 30 s");
        }
        return new Result(p.exitValue(), output);
    }

    static final class Result {
        final int exitCode;
        final String output;

        Result(final int exitCode, final String output) {
            this.exitCode = exitCode;
            this.output = output;
        }
    }
}
