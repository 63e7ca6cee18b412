package dev.saccade.mcp;

/** The MCP server's system property and its default; docs/settings.md lists it. */
public final class McpConfiguration {
    /** How long an idle connection to the agent endpoint is kept before it is given back (mcp §9). */
    public static final String IDLE_RELEASE_MS_PROP_NAME = "saccade.mcp.idle.release.ms";
    public static final long IDLE_RELEASE_MS_DEFAULT = 30_000;

    /**
     * How long after an action the act result waits for the scene to change before it reports
     * effect "no-change" (mcp §7): longer than an application's reaction on a loaded machine.
     */
    public static final String EFFECT_WINDOW_MS_PROP_NAME = "saccade.mcp.effect.window.ms";
    public static final long EFFECT_WINDOW_MS_DEFAULT = 1_500;

    private McpConfiguration() {
    }

    public static long effectWindowMs() {
        return Math.max(1, Long.getLong(EFFECT_WINDOW_MS_PROP_NAME, EFFECT_WINDOW_MS_DEFAULT));
    }

    public static long idleReleaseMs() {
        return Long.getLong(IDLE_RELEASE_MS_PROP_NAME, IDLE_RELEASE_MS_DEFAULT);
    }
}
