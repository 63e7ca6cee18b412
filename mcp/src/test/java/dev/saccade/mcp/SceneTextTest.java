package dev.saccade.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

class SceneTextTest {
    private static final int CLICK = TargetCapability.POINTER_MOVE | TargetCapability.CLICK | TargetCapability.INVOKE;

    /** One target of a scene being built. */
    private record T(long id, long window, int role, int caps, int flags, int sources, String text, int x, int y, int w,
        int h) {
    }

    private static T t(final long id, final long window, final int role, final int caps, final int flags,
        final String text) {
        return new T(id, window, role, caps, flags, SourceBit.ACCESSIBILITY, text, 10, 20, 80, 24);
    }

    /** An OK completion of {@code targets} (generation 9, scene 9, transform 3, permission 4, topology 5). */
    private static CompletionFlyweight completion(final int flags, final List<T> targets) {
        final ByteArrayOutputStream texts = new ByteArrayOutputStream();
        final int textAt = CompletionFlyweight.LENGTH + targets.size() * TargetFlyweight.LENGTH;
        final int[] offsets = new int[targets.size()];
        final int[] sizes = new int[targets.size()];
        for (int i = 0; i < targets.size(); i++) {
            final byte[] b = targets.get(i).text() == null ? new byte[0] : targets.get(i).text().getBytes(StandardCharsets.UTF_8);
            offsets[i] = textAt + texts.size();
            sizes[i] = b.length;
            texts.writeBytes(b);
        }
        final byte[] bytes = new byte[textAt + texts.size()];
        final BytesStore<?, byte[]> store = BytesStore.wrap(bytes);
        final CompletionFlyweight c = new CompletionFlyweight().wrap(store, 0);
        c.header().set(CompletionFlyweight.LENGTH, AgentAbi.OBSERVE_COMPLETION, flags);
        c.targetCount(targets.size()).targetStride(TargetFlyweight.LENGTH).targetsOffset(CompletionFlyweight.LENGTH)
            .totalSize(bytes.length);
        c.generation().generation(9).sceneEpoch(9).transformEpoch(3).permissionEpoch(4).topologyEpoch(5);
        c.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.FUSED).stableId(7);
        for (int i = 0; i < targets.size(); i++) {
            final T x = targets.get(i);
            new TargetFlyweight().wrap(store, CompletionFlyweight.LENGTH + (long) i * TargetFlyweight.LENGTH)
                .targetId(x.id()).windowId(x.window()).bounds(x.x() * 256, x.y() * 256, x.w() * 256, x.h() * 256)
                .capabilityBits(x.caps()).flags(x.flags()).role(x.role()).sourceBits(x.sources())
                .textOffset(sizes[i] == 0 ? 0 : offsets[i]).textSize(sizes[i]).order(i);
        }
        store.write(textAt, texts.toByteArray());
        return c;
    }

    @Test
    void oneLinePerTargetUnderItsWindowsTitleWithActionsAndTheFlagsThatStopAnAction() {
        final List<T> scene = List.of(
            t(1, 7, Role.WINDOW, TargetCapability.POINTER_MOVE | TargetCapability.WINDOW_ACTIVATE, TargetFlag.ACTIONABLE,
                "GTK+ Code Demos"),
            t(2, 7, Role.BUTTON, CLICK, TargetFlag.ACTIONABLE, "Run"),
            t(3, 7, Role.UNKNOWN, TargetCapability.POINTER_MOVE, TargetFlag.ACTIONABLE, null),
            t(4, 7, Role.TEXT_FIELD, TargetCapability.POINTER_MOVE | TargetCapability.CLICK | TargetCapability.TEXT,
                TargetFlag.ACTIONABLE | TargetFlag.DISABLED, "say \"hi\"\nthere"),
            t(5, 7, Role.TEXT_FIELD, TargetCapability.TEXT, TargetFlag.ACTIONABLE | TargetFlag.SECURE | TargetFlag.TEXT_REDACTED,
                null),
            t(6, 8, Role.MENU_ITEM, CLICK, TargetFlag.ACTIONABLE | TargetFlag.OCCLUDED, "Quit"),
            new T(10, 0, Role.UNKNOWN, CLICK, TargetFlag.ACTIONABLE | TargetFlag.APPROXIMATE, SourceBit.GRID, "r0c0", 0, 0, 120, 120));
        final List<T> withGrid = new ArrayList<>(scene);
        for (int i = 1; i < 9; i++) {
            withGrid.add(new T(10 + i, 0, Role.UNKNOWN, CLICK, TargetFlag.ACTIONABLE | TargetFlag.APPROXIMATE, SourceBit.GRID,
                "r0c" + i, 120 * i, 0, 120, 120));
        }
        final String few = new SceneText().render(completion(0, scene), 8192);
        assertTrue(few.contains("outside any window:\n  10 unknown \"r0c0\" 0,0 120x120 click invoke"),
            "a few grid cells (a query's answer) are listed: " + few);
        final String text = new SceneText().render(completion(AgentAbi.FLAG_SOURCE_INCOMPLETE, withGrid), 8192);
        assertEquals(String.join("\n",
            "generation 9 (epochs: scene 9, transform 3, permission 4, topology 5)",
            "scope active-window 7, 15 targets, source incomplete: some applications are still being read;"
                + " bounds are pixels x,y wxh",
            "1 window \"GTK+ Code Demos\" 10,20 80x24 window",
            "  2 button \"Run\" 10,20 80x24 click invoke",
            "  4 text-field \"say \\\"hi\\\"\\nthere\" 10,20 80x24 click text disabled",
            "  5 text-field 10,20 80x24 text secure text-redacted",
            "window 8 (not in this result):",
            "  6 menu-item \"Quit\" 10,20 80x24 click invoke occluded",
            "9 grid cells of about 120x120 (not listed; label r<row>c<column> from r0c0 at the top left:"
                + " saccade_query text 'r2c3')",
            "1 unnamed targets without actions not listed"), text);
    }

    @Test
    void theViewStaysWithinItsBoundAndCountsWhatItLeftOut() {
        final List<T> scene = new ArrayList<>();
        scene.add(t(1, 7, Role.WINDOW, TargetCapability.WINDOW_ACTIVATE, TargetFlag.ACTIONABLE, "Main"));
        for (int i = 0; i < 400; i++) {
            scene.add(t(100 + i, 7, Role.BUTTON, CLICK, TargetFlag.ACTIONABLE, "Button number " + i + " é"));
        }
        final CompletionFlyweight c = completion(AgentAbi.FLAG_TRUNCATED, scene);
        for (final int bound : new int[] {SceneText.MIN_MAXIMUM_BYTES, SceneText.DEFAULT_MAXIMUM_BYTES, 20_000}) {
            final String text = new SceneText().render(c, bound);
            final int bytes = text.getBytes(StandardCharsets.UTF_8).length;
            assertTrue(bytes <= bound, bound + ": " + bytes);
            assertTrue(text.contains(", truncated: more matched (raise maximumTargets or narrow the scope)"), text);
            final long shownButtons = text.lines().filter(l -> l.startsWith("  ")).count();
            final String last = text.lines().reduce((a, b) -> b).orElseThrow();
            assertEquals("… " + (400 - shownButtons) + " more targets not shown (" + (shownButtons + 1)
                + " shown): raise maximumTextBytes (" + bound + ") or narrow the scope or query", last);
            assertTrue(bytes > bound - SceneText.CLOSING_RESERVE - 80, "the bound is used, not wasted: " + bytes);
        }
        final String all = new SceneText().render(c, SceneText.MAX_MAXIMUM_BYTES);
        assertEquals(401, all.lines().filter(l -> l.startsWith("  ") || l.startsWith("1 window")).count());
        assertTrue(all.lines().noneMatch(l -> l.startsWith("…")), "everything fits: no closing line");
    }

    @Test
    void longTextIsCutAtEightyCodePointsAndUnknownRolesSayUnknown() {
        final String longText = "x".repeat(200);
        final String text = new SceneText().render(completion(0, List.of(t(2, 0, 999, CLICK, TargetFlag.ACTIONABLE, longText))),
            8192);
        assertTrue(text.contains("outside any window:\n  2 unknown \"" + "x".repeat(80) + "…\" 10,20 80x24 click invoke"),
            text);
    }
}
