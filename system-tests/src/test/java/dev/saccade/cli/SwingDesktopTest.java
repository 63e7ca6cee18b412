package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Swing application through the Java ATK wrapper (D49): an open combo box's popup items, table
 * cells and tree rows are targets, and choosing an item and a tree node by their targets is what
 * the application prints.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SwingDesktopTest extends OwnedDesktopTest {
    static final Path WRAPPER = Path.of("/usr/share/java/java-atk-wrapper.jar");
    static final Path WRAPPER_JNI = Path.of("/usr/lib/x86_64-linux-gnu/jni");

    @Test
    void popupItemsTableCellsAndTreeRowsAreTargets() throws Exception {
        final List<String> printed = new CopyOnWriteArrayList<>();
        final Process app = launch(desktop, printed);
        try {
            desktop.awaitWindow(app.pid(), SwingChooserApp.TITLE, 120_000);
            final AccessibilityNode cell = node(owner, app.pid(), n -> n.role() == Role.TABLE_CELL && "Grace".equals(n.text()),
                "the table cell Grace");
            click(cell, "the cell Grace");
            awaitPrinted(printed, "row Grace");

            final AccessibilityNode lemon = node(owner, app.pid(), n -> n.role() == Role.TREE_ITEM && "Lemon".equals(n.text()),
                "the tree row Lemon");
            assertTrue(lemon.hasCapability(TargetCapability.CLICK), lemon.toString());
            click(lemon, "the tree row Lemon");
            awaitPrinted(printed, "tree Lemon");

            final AccessibilityNode combo = node(owner, app.pid(), n -> n.role() == Role.COMBO_BOX, "the combo box");
            click(combo, "the combo box");
            final AccessibilityNode cherry = node(owner, app.pid(), n -> "Cherry".equals(n.text())
                && (n.role() == Role.LIST_ITEM || n.role() == Role.MENU_ITEM) && n.width() > 0, "the popup item Cherry");
            click(cherry, "the popup item Cherry");
            awaitPrinted(printed, "combo Cherry");
        } finally {
            app.destroy();
            if (!app.waitFor(20, TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
        }
    }

    /**
     * Starts {@link SwingChooserApp} on {@code desktop} with the Java ATK wrapper and {@code args};
     * what it prints goes to {@code printed}.
     */
    static Process launch(final TestDesktop desktop, final List<String> printed, final String... args)
        throws java.io.IOException {
        assertTrue(Files.isRegularFile(WRAPPER), "libatk-wrapper-java (scripts/install-deps)");
        final String javaBin = ProcessHandle.current().info().command().orElse("java");
        final List<String> command = new java.util.ArrayList<>(List.of(javaBin,
            "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper",
            "-Djava.library.path=" + WRAPPER_JNI,
            "-cp", System.getProperty("java.class.path") + java.io.File.pathSeparator + WRAPPER,
            SwingChooserApp.class.getName()));
        command.addAll(List.of(args));
        final ProcessBuilder builder = desktop.configure(new ProcessBuilder(command))
            .redirectError(ProcessBuilder.Redirect.DISCARD);
        final Process app = builder.start();
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    printed.add(line);
                }
            } catch (final java.io.IOException gone) {
                // reason: the application ended; what it printed is kept
            }
        }, "swing-app-stdout");
        reader.setDaemon(true);
        reader.start();
        return app;
    }

    private void click(final AccessibilityNode target, final String what) throws Exception {
        final long id = inScene(client, target);
        FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(id).buttonBits(Button.LEFT), 0), "click " + what);
    }

    /** {@code node}'s target id once the client's query finds it among the scene's targets of its role and text. */
    static long inScene(final AgentClient client, final AccessibilityNode node) throws Exception {
        return Await.probe(() -> {
            // the test's connection asks for no extended roles (§2): its targets carry the base role
            final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, Role.base(node.role()), node.text(),
                TextMatch.EXACT);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                    + (long) i * c.targetStride());
                if (t.targetId() == node.targetId()) {
                    return t.targetId();
                }
            }
            return 0L;
        }, id -> id != 0, Duration.ofSeconds(30), id -> node + " among the scene's targets");
    }

    private static void awaitPrinted(final List<String> printed, final String line) {
        Await.until(() -> printed.contains(line), Duration.ofSeconds(30),
            () -> "the application to print '" + line + "'; it printed " + printed);
    }

    /**
     * A node of {@code pid} in the owner's tree that {@code wanted} accepts; on a timeout the
     * message says how the application's reads went and lists its nodes.
     */
    static AccessibilityNode node(final DesktopOwner owner, final long pid, final Predicate<AccessibilityNode> wanted,
        final String what) {
        return Await.value(() -> owner.service.accessibility().latest().nodes().stream()
                .filter(n -> n.pid() == pid && wanted.test(n)).findFirst().orElse(null),
            n -> n != null, Duration.ofSeconds(120), none -> what + " among the application's nodes; its reads: "
                + owner.service.accessibility().diagnostics().applications().stream().filter(a -> a.pid() == pid)
                    .findFirst().map(Object::toString).orElse("none") + "\n"
                + owner.service.accessibility().latest().nodes().stream().filter(n -> n.pid() == pid)
                    .map(AccessibilityNode::toString).collect(Collectors.joining("\n")));
    }
}
