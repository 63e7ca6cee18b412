package dev.saccade.cli.pcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.saccade.pcp.JsonTree;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code saccade pcp call METHOD [JSON]}: one JSON-RPC request; prints the response line. */
@Command(name = "call", mixinStandardHelpOptions = true, header = "Send one PCP request and print its response.",
    description = "Prints the JSON-RPC response as one line. Exit 0 for a result, 4 for an error response.")
public final class PcpCallCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    PcpSocketOptions socket;
    @Parameters(index = "0", paramLabel = "METHOD", description = "PCP method, e.g. query.capabilities or health.check.")
    String method;
    @Parameters(index = "1", arity = "0..1", paramLabel = "JSON", description = "The params object (default: none).")
    String params;

    @Override
    @SuppressWarnings("unchecked")
    public Integer call() throws IOException {
        Map<String, Object> parsed = null;
        if (params != null) {
            final Object value;
            try {
                value = JsonTree.parse(params);
            } catch (final JsonProcessingException e) {
                throw new ParameterException(spec.commandLine(), "JSON is not valid JSON: " + e.getOriginalMessage());
            }
            if (!(value instanceof Map)) {
                throw new ParameterException(spec.commandLine(), "JSON must be an object (PCP takes named parameters)");
            }
            parsed = (Map<String, Object>) value;
        }
        final Map<String, Object> request = parsed;
        return socket.with(spec, null, client -> PcpOutput.print(spec, client.call(method, request, null)));
    }
}
