package dev.saccade.cli;

import dev.saccade.client.ActionBatchBuilder;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The preconditions of an action batch (spec §3 "Preconditions", §5.7): the state the caller
 * planned against, as an observe completion printed it. Each option given sets its flag; the
 * service then answers STALE_GENERATION instead of acting when that part of the state moved on.
 */
final class PreconditionOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--generation", paramLabel = "G", converter = NumberConverters.U64.class,
        description = "Act only if the scene is still generation G (GENERATION).")
    Long generation;

    @Option(names = "--process", paramLabel = "P", converter = NumberConverters.U64.class,
        description = "Act only if process P is still in the foreground (PROCESS; generation.process_id).")
    Long process;

    @Option(names = "--window", paramLabel = "W", converter = NumberConverters.U64.class,
        description = "Act only if window W is still the active window (WINDOW; generation.window_id).")
    Long window;

    @Option(names = "--display", paramLabel = "D", converter = NumberConverters.U64.class,
        description = "Act only if D is still the current display (DISPLAY; generation.display_id).")
    Long display;

    @Option(names = "--transform", paramLabel = "T", converter = NumberConverters.U64.class,
        description = "Act only if the coordinate transform is still epoch T (TRANSFORM; generation.transform_epoch).")
    Long transform;

    @Option(names = "--permission", paramLabel = "E", converter = NumberConverters.U64.class,
        description = "Act only if the input permission is still epoch E (PERMISSION; generation.permission_epoch).")
    Long permission;

    @Option(names = "--physical-sequence", paramLabel = "S", converter = NumberConverters.U64.class,
        description = "Act only if the physical state is still sequence S with the buttons and modifiers of"
            + " --expect-buttons and --expect-modifiers held (PHYSICAL_STATE; physical_state of a completion).")
    Long physicalSequence;

    @Option(names = "--expect-buttons", paramLabel = "BUTTON", split = ",", converter = ActionNames.HeldButtons.class,
        completionCandidates = ActionNames.HeldButtons.class,
        description = "With --physical-sequence: the synthetic buttons held, comma-separated:"
            + " ${COMPLETION-CANDIDATES} (default: none).")
    List<Integer> expectButtons;

    @Option(names = "--expect-modifiers", paramLabel = "MODIFIER", split = ",",
        converter = ActionNames.HeldModifiers.class, completionCandidates = ActionNames.HeldModifiers.class,
        description = "With --physical-sequence: the synthetic modifiers held, comma-separated:"
            + " ${COMPLETION-CANDIDATES} (default: none; between actions always none).")
    List<Integer> expectModifiers;

    /** Writes the flagged preconditions into {@code batch}; usage errors before any connection. */
    ActionBatchBuilder applyTo(final ActionBatchBuilder batch) {
        if (generation != null) {
            batch.expectGeneration(generation);
        }
        if (process != null) {
            batch.expectProcess(process);
        }
        if (window != null) {
            batch.expectWindow(window);
        }
        if (display != null) {
            batch.expectDisplay(display);
        }
        if (transform != null) {
            batch.expectTransform(transform);
        }
        if (permission != null) {
            batch.expectPermission(permission);
        }
        if (physicalSequence != null) {
            batch.expectPhysicalState(bits(expectButtons), bits(expectModifiers), physicalSequence);
        } else if (expectButtons != null || expectModifiers != null) {
            // One flag covers all three fields: a sequence left 0 would never match (it starts at 1).
            throw new ParameterException(mixee.commandLine(), (expectButtons != null ? "--expect-buttons" : "--expect-modifiers")
                + " needs --physical-sequence S: the PHYSICAL_STATE precondition compares buttons, modifiers and"
                + " the sequence together");
        }
        return batch;
    }

    private static int bits(final List<Integer> words) {
        int bits = 0;
        if (words != null) {
            for (final int bit : words) {
                bits |= bit;
            }
        }
        return bits;
    }
}
