package dev.saccade.cli;

import dev.saccade.ipc.ListenerHandoff;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.owner.OwnerConfiguration;
import dev.saccade.owner.OwnerContext;
import dev.saccade.owner.source.GridConfiguration;
import dev.saccade.owner.source.GridLayout;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options of a command that starts an owner service ({@code owner run}, {@code up}). */
final class OwnerOptions {
    @Option(names = "--endpoint", paramLabel = "PATH",
        description = "Agent endpoint socket (default: $XDG_RUNTIME_DIR/saccade/saccade-agent-v1.sock, "
            + "else /tmp/saccade-<uid>/saccade-agent-v1.sock).")
    Path endpoint;

    @Option(names = "--runtime-dir", paramLabel = "DIR",
        description = "Runtime directory (0700, ours) for the endpoint and state (default: $XDG_RUNTIME_DIR/saccade).")
    Path runtimeDirectory;

    @Option(names = "--max-clients", paramLabel = "N", defaultValue = "" + OwnerConfiguration.MAX_CLIENTS_DEFAULT,
        description = "Clients served at once; more wait in the listen backlog (default: ${DEFAULT-VALUE}).")
    int maxClients;

    @Option(names = "--grid", paramLabel = "COLSxROWS",
        defaultValue = GridConfiguration.COLUMNS_DEFAULT + "x" + GridConfiguration.ROWS_DEFAULT,
        description = "Grid cells over each display, e.g. 16x9 (default: ${DEFAULT-VALUE}).")
    String grid;

    @Option(names = "--supervisor-link", paramLabel = "PATH", hidden = true,
        description = "Set by `saccade supervisor run`: take the endpoint's listener from this link (nonce in $"
            + ListenerHandoff.NONCE_ENVIRONMENT_VARIABLE + ") instead of binding it.")
    Path supervisorLink;

    /** The options a supervisor passes on to {@code owner run} (the paths it sets itself). */
    java.util.List<String> ownerRunArgs() {
        return java.util.List.of("--max-clients", Integer.toString(maxClients), "--grid", grid);
    }

    @Option(names = "--input-helper", paramLabel = "MODE", defaultValue = "launch",
        description = "launch: start our own input helper (default); external: the supervisor's helper attaches "
            + "(session nonce in " + SessionNonce.ENVIRONMENT_VARIABLE + "); off: no input, batches answer EXECUTOR_LOST.")
    String inputHelper;

    /** A concluded context for {@code display}, on the session bus of the environment. */
    OwnerContext context(final String display) throws IOException {
        return context(display, null);
    }

    /** A concluded context for {@code display}; {@code sessionBus} null keeps the environment's. */
    OwnerContext context(final String display, final String sessionBus) throws IOException {
        final String[] parts = grid.toLowerCase(java.util.Locale.ROOT).split("x");
        final GridLayout layout;
        try {
            layout = new GridLayout(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
        } catch (final RuntimeException e) {
            throw new IllegalArgumentException("--grid " + grid + ": expected COLSxROWS such as 16x9"
                + (e instanceof IllegalArgumentException && !(e instanceof NumberFormatException) ? " (" + e.getMessage() + ")" : ""));
        }
        final OwnerContext context = new OwnerContext().display(display).maxClients(maxClients).grid(layout);
        switch (inputHelper) {
            case "launch":
                break;
            case "off":
                context.inputHelper(false);
                break;
            case "external":
                final String nonce = System.getenv(SessionNonce.ENVIRONMENT_VARIABLE);
                if (nonce == null || nonce.isEmpty()) {
                    throw new IllegalArgumentException("--input-helper external: " + SessionNonce.ENVIRONMENT_VARIABLE
                        + " is not set (the supervisor sets it)");
                }
                context.externalInputHelper(SessionNonce.fromHex(nonce));
                break;
            default:
                throw new IllegalArgumentException("--input-helper " + inputHelper + ": expected launch, external or off");
        }
        if (sessionBus != null) {
            context.sessionBusAddress(sessionBus);
        }
        if (runtimeDirectory != null) {
            context.runtimeDirectory(runtimeDirectory);
        }
        if (endpoint != null) {
            context.endpoint(endpoint);
        }
        if (supervisorLink != null) {
            context.supervisorLink(supervisorLink, System.getenv(ListenerHandoff.NONCE_ENVIRONMENT_VARIABLE));
        }
        return context.conclude();
    }
}
