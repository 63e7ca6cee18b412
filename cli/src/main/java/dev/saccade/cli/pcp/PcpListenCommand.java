package dev.saccade.cli.pcp;

import dev.saccade.cli.ExitCodes;
import dev.saccade.pcp.JsonTree;
import dev.saccade.pcp.PcpClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code saccade pcp listen EVENTS...}: subscribes and prints each pushed event as one JSON line. */
@Command(name = "listen", mixinStandardHelpOptions = true, header = "Print PCP events as they are pushed.",
    description = {"Subscribes to the event types and prints every notification as one JSON line, until interrupted",
        "or until --count events were printed. The first line is the subscription result."})
public final class PcpListenCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    PcpSocketOptions socket;
    @Parameters(arity = "1..*", paramLabel = "EVENT",
        description = "surface.focus_changed, surface.created, surface.destroyed, element.state_changed, generation.published")
    List<String> events;
    @Option(names = "--surface-id", paramLabel = "ID", description = "Only events of this surface.")
    String surfaceId;
    @Option(names = "--app-id", paramLabel = "ID", description = "Only events of this application.")
    String appId;
    @Option(names = "--count", paramLabel = "N", description = "Stop after N events (default: never).")
    long count = Long.MAX_VALUE;

    @Override
    public Integer call() throws IOException {
        final Map<String, Object> params = JsonTree.object("event_types", List.copyOf(events));
        if (surfaceId != null) {
            params.put("surface_id", surfaceId);
        }
        if (appId != null) {
            params.put("app_id", appId);
        }
        final PrintWriter out = spec.commandLine().getOut();
        return socket.with(spec, null, client -> listen(client, params, out));
    }

    private int listen(final PcpClient client, final Map<String, Object> params, final PrintWriter out) throws IOException {
        // An event can overtake the subscription's own answer on the wire: keep it, print it after.
        final List<Map<String, Object>> early = new java.util.ArrayList<>();
        final int code = PcpOutput.print(spec, client.call("subscribe.events", params, early::add));
        if (code != ExitCodes.SUCCESS) {
            return code;
        }
        long printed = 0;
        for (final Map<String, Object> event : early) {
            if (printed < count) {
                out.println(JsonTree.write(event));
                printed++;
            }
        }
        out.flush();
        while (printed < count) {
            final String line;
            try {
                line = client.readLine();
            } catch (final SocketTimeoutException quiet) {
                continue; // no event within --timeout-ms: keep listening
            }
            out.println(line);
            out.flush();
            printed++;
        }
        return ExitCodes.SUCCESS;
    }
}
