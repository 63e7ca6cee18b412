package dev.saccade.mcp;

import dev.saccade.client.AbiNames;
import dev.saccade.client.AgentClient;
import dev.saccade.client.QueryRequestBuilder;
import dev.saccade.client.ReadExchange;
import dev.saccade.client.ReadScope;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionRules;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Why an act was rejected and what a model can do next (mcp.md §8 "Reasons"). The service's
 * result code says which rule failed (agent-abi §5.8); for the target and generation rules the
 * adapter reads the current scene (queries, which change nothing) to say which check it was: the
 * target is gone, lacks the kind's capability (and which kinds it accepts), is disabled, is
 * covered by another window (named), is not showing, or the point lies outside it; or the scene
 * moved on since the generation given. Result codes are never changed. A read that fails here
 * only makes the reason shorter.
 */
final class RejectionReasons {
    /** The request id of the diagnosing reads. */
    static final long REQUEST_ID = 5;

    private final ReadExchange read = new ReadExchange();
    private final TargetFlyweight target = new TargetFlyweight();
    private final TargetFlyweight window = new TargetFlyweight();

    /** The failed check, as a word for programs ("target-gone", "lacks-capability", …). */
    private String check;
    /** The sentence: what failed and what to do next. */
    private String hint;
    /** A diagnosing read failed on the link: the caller drops the connection. */
    private boolean linkFailed;

    boolean linkFailed() {
        return linkFailed;
    }

    String check() {
        return check;
    }

    String hint() {
        return hint;
    }

    /** What the act asked for: enough to say which check failed. */
    record Request(int kind, long targetId, long secondaryTargetId, boolean generationGiven, long generation,
        boolean explicitPoint, int xQ8, int yQ8, int secondaryXQ8, int secondaryYQ8) {
    }

    /**
     * Works out {@link #check()} and {@link #hint()} for the rejected completion {@code c} (kept by
     * the caller, not in the client's buffer). {@code client} may be null (no link): static hints only.
     */
    void explain(final AgentClient client, final ActionCompletionFlyweight c, final Request r) {
        final int result = c.result();
        final boolean ran = c.completedActionCount() != 0 && c.failedActionIndex() == AgentAbi.NO_FAILED_ACTION;
        check = AbiNames.resultText(result).replace(' ', '-');
        hint = null;
        linkFailed = false;
        switch (result) {
            case ResultCode.STALE_GENERATION:
                stale(client, r);
                return;
            case ResultCode.TARGET_NOT_FOUND:
                notFound(client, r);
                return;
            case ResultCode.SECURE_SURFACE:
                if (r.kind() == ActionKind.KEY || r.kind() == ActionKind.KEY_CHORD || r.kind() == ActionKind.TEXT) {
                    check = "secure-focus"; // D30: refused for where the focus is, whatever the target
                    hint = "a password field has the keyboard focus: Saccade types no key or text for an agent while it"
                        + " does (nothing was typed); leave the password to the user, or move the focus elsewhere first";
                    return;
                }
                hint = "the target is a secure field (a password or the like): Saccade sends no input there for an"
                    + " agent; leave it to the user";
                return;
            case ResultCode.EXECUTOR_LOST:
                hint = "the input helper was not attached before the deadline (it may be restarting): nothing ran;"
                    + " try again in a moment, and if it persists check 'saccade supervisor status'";
                return;
            case ResultCode.TIMEOUT:
                hint = ran ? "the action ran, but no newer generation appeared before the deadline: observe (with"
                    + " afterGeneration) to see its effect before acting again"
                    : "the deadline passed before the action could run: nothing ran; try again";
                return;
            case ResultCode.CANCELLED:
                hint = ran ? "the action ran, but the link was lost while verifying: observe before acting again"
                    : "stopped by an abort: the actions after it did not run";
                return;
            case ResultCode.FOCUS_CHANGED:
                hint = "the focus moved to another window before the input: observe again and retry";
                return;
            case ResultCode.INVALID_TRANSFORM:
                hint = "the displays changed: observe again and use the new coordinates";
                return;
            case ResultCode.INVALID_MESSAGE:
                hint = "the arguments do not fit kind '" + kindWord(r.kind()) + "': check button (1, 2 or 4), repeat"
                    + " (1..16), modifiers (at most 15), keyUsage (not 0 for key) and text";
                return;
            case ResultCode.ACTION_UNSUPPORTED:
                hint = "kind '" + kindWord(r.kind()) + "' cannot run here with these arguments (a flag it does not"
                    + " take, a target where none belongs, or input this platform does not allow): do not retry it"
                    + " unchanged";
                return;
            case ResultCode.CAPABILITY_DENIED:
            case ResultCode.PERMISSION_DENIED:
                hint = "not allowed by the service's policy or the platform: do not retry";
                return;
            case ResultCode.BACKEND:
                final int held = c.physicalState().userModifiers() & (Modifier.CONTROL | Modifier.ALT | Modifier.META);
                if (r.kind() == ActionKind.TEXT && held != 0) {
                    check = "user-holds-modifier";
                    hint = "the user holds " + modifierWords(held) + " on their keyboard (physical.userModifiers), so"
                        + " typed characters would be shortcuts: nothing was typed; try again once they let go";
                    return;
                }
                hint = "the service could not do it now: try again later";
                return;
            case ResultCode.CAPACITY:
                hint = "the service could not do it now: try again later";
                return;
            case ResultCode.ACTIVATION_REQUIRED:
                hint = "the window is not in front and this action needs input at coordinates: nothing was sent;"
                    + " use invoke on a target whose disposition is background-actionable, or repeat with"
                    + " allowActivation true to bring the window to the front first";
                return;
            case ResultCode.OUTCOME_UNCONFIRMED:
                hint = "the window was asked to come to the front, but no scene showed it there in time, so no input"
                    + " was sent: observe, then act again on the fresh scene";
                return;
            default:
                hint = null;
        }
    }

    /** "Control+Alt" for CONTROL | ALT. */
    static String modifierWords(final int bits) {
        final StringBuilder words = new StringBuilder();
        final int[] order = {Modifier.SHIFT, Modifier.CONTROL, Modifier.ALT, Modifier.META};
        final String[] names = {"Shift", "Control", "Alt", "Meta"};
        for (int i = 0; i < order.length; i++) {
            if ((bits & order[i]) != 0) {
                words.append(words.length() == 0 ? "" : "+").append(names[i]);
            }
        }
        return words.toString();
    }

    private void stale(final AgentClient client, final Request r) {
        final CompletionFlyweight now = byId(client, r.targetId());
        final String current = now == null ? null : Long.toUnsignedString(now.generation().generation());
        if (r.generationGiven() && (now == null || now.generation().generation() != r.generation())) {
            check = "scene-changed";
            hint = "the scene changed since generation " + Long.toUnsignedString(r.generation())
                + (current == null ? "" : " (now " + current + ")")
                + ": observe again, or act without the generation precondition";
        } else {
            check = "precondition-changed";
            hint = "a precondition (process, window, display, transform or permission epoch) no longer holds"
                + (current == null ? "" : " in generation " + current) + ": observe again and use the new values";
        }
    }

    private void notFound(final AgentClient client, final Request r) {
        if (client == null) {
            hint = "the target is gone, disabled, occluded, lacks the kind's capability, or the point is outside it:"
                + " observe again";
            return;
        }
        if (diagnose(client, r.targetId(), ActionRules.firstTargetCapability(r.kind()), r, r.xQ8(), r.yQ8())) {
            return;
        }
        final boolean dual = r.kind() == ActionKind.DRAG_DROP || r.kind() == ActionKind.TEXT_SELECT;
        final int second = dual ? ActionRules.secondTargetCapability(r.kind()) : 0;
        if (dual && diagnose(client, r.secondaryTargetId(), second, r, r.secondaryXQ8(), r.secondaryYQ8())) {
            check = "second-" + check;
            hint = "the second target: " + hint;
            return;
        }
        check = "target-not-found";
        hint = "the target did not pass the service's checks in the scene it validated, and the current scene shows"
            + " no reason (it changed since): observe again";
    }

    /** Sets the reason when target {@code id} fails a check of rule F in the current scene. */
    private boolean diagnose(final AgentClient client, final long id, final int capability, final Request r,
        final int xQ8, final int yQ8) {
        final CompletionFlyweight now = byId(client, id);
        if (now == null) {
            check = "target-not-found";
            hint = "the target could not be looked up: observe again";
            return true;
        }
        if (now.targetCount() == 0) {
            check = "target-gone";
            hint = "the target " + Long.toUnsignedString(id) + " is gone from the scene (generation "
                + Long.toUnsignedString(now.generation().generation()) + "): observe again";
            return true;
        }
        final TargetFlyweight t = target.wrap(now.bytes(), now.offset() + now.targetsOffset());
        final int caps = t.capabilityBits();
        final int flags = t.flags();
        if (capability != 0 && (caps & capability) == 0) {
            check = "lacks-capability";
            hint = "the target lacks " + capabilityName(capability) + " (" + accepts(t) + ")";
            return true;
        }
        if ((flags & TargetFlag.DISABLED) != 0) {
            check = "disabled";
            hint = "the target is disabled (greyed out): make it enabled first, e.g. fill in what it needs";
            return true;
        }
        if ((flags & TargetFlag.OCCLUDED) != 0) {
            final String by = occluder(client, t);
            check = "occluded";
            hint = by != null ? "the target is occluded by window " + by + ": activate the target's window (kind"
                + " 'window') or close that one, then observe again"
                : "the target is not showing (scrolled out of view, collapsed or hidden): scroll it into view or open"
                + " its parent, then observe again";
            return true;
        }
        if ((flags & TargetFlag.ACTIONABLE) == 0) {
            check = "not-actionable";
            hint = "the target is not actionable now: observe again and pick an actionable one";
            return true;
        }
        if (r.explicitPoint() && !inside(t, xQ8, yQ8)) {
            check = "point-outside";
            hint = "the point " + SceneText.pixels(xQ8) + "," + SceneText.pixels(yQ8) + " lies outside the target's"
                + " bounds " + SceneText.pixels(t.boundsXQ8()) + "," + SceneText.pixels(t.boundsYQ8()) + " "
                + SceneText.pixels(t.boundsWidthQ8()) + "x" + SceneText.pixels(t.boundsHeightQ8())
                + ": omit xQ8/yQ8 to use its safe point";
            return true;
        }
        return false;
    }

    /** The kinds a target accepts, as advice. */
    private static String accepts(final TargetFlyweight t) {
        if (t.role() == Role.WINDOW && (t.capabilityBits() & TargetCapability.WINDOW_ACTIVATE) != 0) {
            return "it is a window target: use kind 'window'";
        }
        final StringBuilder kinds = new StringBuilder();
        for (int rest = t.capabilityBits(); rest != 0; rest &= rest - 1) {
            final String word = SceneText.ACTIONS.wordOf(Integer.lowestOneBit(rest));
            if (word != null) {
                kinds.append(kinds.length() == 0 ? "" : ", ").append('\'').append(word).append('\'');
            }
        }
        return kinds.length() == 0 ? "it accepts no action: pick another target, such as the control around it"
            : "it accepts kind " + kinds + ": use one of those";
    }

    /** The title and id of the topmost window above {@code t}'s window covering its safe point, or null. */
    private String occluder(final AgentClient client, final TargetFlyweight t) {
        final long ownWindow = t.windowId();
        final int x = t.safePointXQ8();
        final int y = t.safePointYQ8();
        final CompletionFlyweight windows;
        if (linkFailed) {
            return null;
        }
        try {
            // A fresh builder per read: its conditions accumulate.
            final QueryRequestBuilder query = new QueryRequestBuilder().requestId(REQUEST_ID).scope(ReadScope.DESKTOP)
                .maximumResults(QueryRequestBuilder.MAX_RESULTS).role(Role.WINDOW);
            windows = read.roundTrip(client, query.writeTo(client.requestStore(), client.requestOffset()), REQUEST_ID,
                AgentAbi.QUERY_COMPLETION);
        } catch (final IOException e) {
            linkFailed = true;
            return null;
        }
        if (windows.result() != ResultCode.OK || windows.targetStride() != TargetFlyweight.LENGTH) {
            return null;
        }
        for (long i = 0; i < windows.targetCount(); i++) { // topmost first
            final TargetFlyweight w = window.wrap(windows.bytes(),
                windows.offset() + windows.targetsOffset() + i * TargetFlyweight.LENGTH);
            if (w.windowId() == ownWindow) {
                return null; // the target's own window comes before any window covering it
            }
            if ((w.flags() & TargetFlag.OCCLUDED) == 0 && inside(w, x, y)) {
                final String title = w.textSize() == 0 ? "" : "'" + text(windows, w) + "' ";
                return title + "(" + Long.toUnsignedString(w.targetId()) + ")";
            }
        }
        return null;
    }

    private static String text(final CompletionFlyweight c, final TargetFlyweight t) {
        final byte[] raw = new byte[(int) Math.min(t.textSize(), 200)];
        c.bytes().read(c.offset() + t.textOffset(), raw, 0, raw.length);
        return new String(raw, StandardCharsets.UTF_8);
    }

    private static boolean inside(final TargetFlyweight t, final int xQ8, final int yQ8) {
        return xQ8 >= t.boundsXQ8() && yQ8 >= t.boundsYQ8()
            && (long) xQ8 < (long) t.boundsXQ8() + t.boundsWidthQ8() && (long) yQ8 < (long) t.boundsYQ8() + t.boundsHeightQ8();
    }

    /** The current scene's record of target {@code id} (0 or 1 targets), or null when the read failed. */
    private CompletionFlyweight byId(final AgentClient client, final long id) {
        if (client == null || linkFailed) {
            return null;
        }
        try {
            final QueryRequestBuilder query = new QueryRequestBuilder().requestId(REQUEST_ID).scope(ReadScope.DESKTOP)
                .maximumResults(1).stableId(id);
            final CompletionFlyweight c = read.roundTrip(client, query.writeTo(client.requestStore(),
                client.requestOffset()), REQUEST_ID, AgentAbi.QUERY_COMPLETION);
            return c.result() == ResultCode.OK && c.targetStride() == TargetFlyweight.LENGTH ? c : null;
        } catch (final IOException e) {
            linkFailed = true;
            return null;
        }
    }

    /** The ABI's name of one capability bit, e.g. CLICK. */
    static String capabilityName(final int bit) {
        return AbiNames.TARGET_CAPABILITIES.wordOf(bit, "capability").toUpperCase(Locale.ROOT).replace('-', '_');
    }

    private static String kindWord(final int kind) {
        for (int i = 0; i < ActTool.KIND_CODES.length; i++) {
            if (ActTool.KIND_CODES[i] == kind) {
                return ActTool.KINDS[i];
            }
        }
        return Integer.toString(kind);
    }
}
