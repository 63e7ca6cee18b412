package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.ipc.link.LinkPaths;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two owners of one user, each with its own runtime directory and its own launched helper (a
 * demo desktop beside the login item, two sessions), started back to back: each has a link file
 * of its own, named by its pid, and each one's helper serves it. With one link file per user the
 * second owner replaced the first one's file before the first helper had opened it.
 */
@WithTestDesktop
class TwoOwnersOneUserIT {
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void eachOwnerHasItsOwnLinkAndItsOwnHelper(final TestDesktop desktop) throws Exception {
        final List<Path> runtimes = new ArrayList<>();
        final List<Process> owners = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                final Path runtime = Files.createTempDirectory("saccade-two-owners",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                runtimes.add(runtime);
                final ProcessBuilder builder = desktop.configure(new ProcessBuilder(McpSdkEndToEnd.LAUNCHER.toString(),
                    "owner", "run", "--display", desktop.display(), "--runtime-dir", runtime.toString()))
                    .redirectErrorStream(true).redirectOutput(runtime.resolve("owner.log").toFile());
                builder.environment().put("SACCADE_JAVA_OPTS", "-Dsaccade.owner.accessibility=false");
                owners.add(builder.start()); // the second starts while the first one's helper may still start
            }
            final int uid = RuntimeDirectory.currentUid();
            for (int i = 0; i < 2; i++) {
                final Path log = runtimes.get(i).resolve("owner.log");
                ProcessLog.awaitContains(owners.get(i), log, log, Duration.ofSeconds(60), "event=helper_attached");
            }
            final Path first = LinkPaths.linkFile(runtimes.get(0), uid, owners.get(0).pid());
            final Path second = LinkPaths.linkFile(runtimes.get(1), uid, owners.get(1).pid());
            assertNotEquals(first, second);
            assertTrue(Files.exists(first, LinkOption.NOFOLLOW_LINKS), "the first owner's link " + first);
            assertTrue(Files.exists(second, LinkOption.NOFOLLOW_LINKS), "the second owner's link " + second);
            for (int i = 0; i < 2; i++) {
                final String log = Files.readString(runtimes.get(i).resolve("owner.log"));
                assertEquals(1, log.split("event=helper_start ", -1).length - 1,
                    "owner " + i + "'s first helper served it, none was replaced: " + log);
                try (AgentClient client = AgentClient.connect(runtimes.get(i).resolve("saccade-agent-v1.sock"),
                    Duration.ofSeconds(10))) {
                    client.readTimeout(Duration.ofSeconds(20));
                    client.hello(1, Capability.POLICY);
                    final ActionCompletionFlyweight state = HeldInputReleaseDesktopTest.batch(client,
                        a -> a.kind(ActionKind.QUERY_PHYSICAL_STATE), Capability.OBSERVE);
                    assertEquals(ResultCode.OK, state.result(), ResultCode.name(state.result()));
                    final long cell = HeldInputReleaseDesktopTest.gridCell(client);
                    final ActionCompletionFlyweight moved = HeldInputReleaseDesktopTest.batch(client,
                        a -> a.kind(ActionKind.POINTER_MOVE).targetId(cell));
                    assertEquals(ResultCode.OK, moved.result(), "owner " + i + ": " + ResultCode.name(moved.result()));
                }
            }
        } finally {
            for (final Process owner : owners) {
                owner.destroy();
            }
            for (final Process owner : owners) {
                if (!owner.waitFor(10, TimeUnit.SECONDS)) {
                    owner.destroyForcibly();
                }
            }
            for (final Path runtime : runtimes) {
                try (var files = Files.walk(runtime)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
