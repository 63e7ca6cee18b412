package dev.saccade.mcp;

/** The MCP server's system property and its default; docs/settings.md lists it. */
public final class McpConfiguration {
    /** How long an idle connection to the agent endpoint is kept before it is given back (mcp §9). */
    public static final String IDLE_RELEASE_MS_PROP_NAME = "saccade.mcp.idle.release.ms";
    public static final long IDLE_RELEASE_MS_DEFAULT = 30_000;

    private McpConfiguration() {
    }

    public static long idleReleaseMs() {
        return Long.getLong(IDLE_RELEASE_MS_PROP_NAME, IDLE_RELEASE_MS_DEFAULT);
    }
}
