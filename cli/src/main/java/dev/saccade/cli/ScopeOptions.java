package dev.saccade.cli;

import dev.saccade.client.ReadScope;
import dev.saccade.protocol.ScopeKind;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --scope}, {@code --scope-id}, {@code --rect}, {@code --source}: the Scope of a read (spec §5.3). */
final class ScopeOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--scope", paramLabel = "KIND", defaultValue = "desktop",
        converter = AbiNames.ScopeKinds.class, completionCandidates = AbiNames.ScopeKinds.class,
        description = {
            "Part of the scene to read: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            "desktop: every target; active-window: the active window's targets (--scope-id WINDOW_ID makes"
                + " sure that window is still the active one, else TARGET_NOT_FOUND); display: the targets on"
                + " display --scope-id DISPLAY_ID; rect: the targets whose bounds intersect --rect; window: the"
                + " targets of window --scope-id WINDOW_ID, active or not, each with its background disposition."})
    int kind;

    @Option(names = "--scope-id", paramLabel = "ID", converter = NumberConverters.U64.class,
        description = "Window id (--scope active-window or window) or display id (--scope display), a decimal u64 as"
            + " --json prints them.")
    Long stableId;

    @Option(names = "--rect", paramLabel = RectArgument.FORMAT, converter = RectArgument.Converter.class,
        description = "The rect of --scope rect, in desktop units (decimals allowed, e.g. 0,0,640.5,480).")
    RectArgument rect;

    @Option(names = "--source", paramLabel = "MODE", defaultValue = "fused",
        converter = AbiNames.SourceModes.class, completionCandidates = AbiNames.SourceModes.class,
        description = {
            "Which sources' targets to keep: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            "fused: all; pixel: found by pixels or the neural model; semantic: from accessibility;"
                + " grid: grid cells."})
    int sourceMode;

    /** The scope these options give; a usage error for combinations that make no sense. */
    ReadScope scope() {
        final String scopeWord = new AbiNames.ScopeKinds().wordOf(kind);
        switch (kind) {
            case ScopeKind.RECT:
                if (rect == null) {
                    throw usage("--scope rect needs --rect " + RectArgument.FORMAT);
                }
                if (stableId != null) {
                    throw usage("--scope-id does not apply to --scope rect");
                }
                return new ReadScope(kind, sourceMode, 0, rect.q8());
            case ScopeKind.DISPLAY:
                if (stableId == null) {
                    throw usage("--scope display needs --scope-id DISPLAY_ID (see generation.display_id in --json)");
                }
                break;
            case ScopeKind.WINDOW:
                if (stableId == null || stableId == 0) {
                    throw usage("--scope window needs --scope-id WINDOW_ID (see window_id in --json)");
                }
                break;
            case ScopeKind.ACTIVE_WINDOW:
                break;
            default:
                if (stableId != null) {
                    throw usage("--scope-id applies only to --scope active-window, window or display, not " + scopeWord);
                }
                break;
        }
        if (rect != null) {
            throw usage("--rect applies only to --scope rect, not " + scopeWord);
        }
        return new ReadScope(kind, sourceMode, stableId == null ? 0 : stableId, null);
    }

    private ParameterException usage(final String message) {
        return new ParameterException(mixee.commandLine(), message);
    }
}
