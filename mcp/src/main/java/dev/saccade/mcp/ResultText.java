package dev.saccade.mcp;

/** The result texts of mcp.md §8, which tool results and messages quote. */
final class ResultText {
    private static final String[] TEXTS = {
        "ok", "invalid message", "capability denied", "stale generation", "target not found",
        "target inaccessible", "action unsupported", "permission denied", "secure surface", "focus changed",
        "invalid transform", "timeout", "cancelled", "executor lost", "backend failure", "capacity exhausted"};

    private ResultText() {
    }

    static String of(final int result) {
        return result <= 0 && -result < TEXTS.length ? TEXTS[-result] : "unknown result";
    }
}
