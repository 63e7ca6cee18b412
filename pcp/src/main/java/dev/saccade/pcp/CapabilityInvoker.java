package dev.saccade.pcp;

import dev.saccade.pcp.CapabilityManifest.Capability;
import dev.saccade.pcp.CapabilityRegistry.RegisteredApp;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Forwarding an invocation to the application that registered the capability (pcp §5.1,
 * "invoke.capability"): one {@code invoke.capability} request on its connection, a bounded wait,
 * and the answer checked to be a CapabilityResult. Used by an {@code auto} invocation and by a
 * confirmed one alike, so both fail the same way. Stateless; the wait blocks only the calling
 * thread.
 */
final class CapabilityInvoker {
    /** The only invocation source (pcp §3.7). */
    static final String SOURCE_SYSTEM_INTELLIGENCE = "SystemIntelligence";

    private final long invocationTimeoutMs;

    CapabilityInvoker(final long invocationTimeoutMs) {
        this.invocationTimeoutMs = invocationTimeoutMs;
    }

    /** Sends the invocation to the registering connection and waits for its CapabilityResult. */
    Map<String, Object> forward(final RegisteredApp app, final Capability capability, final Map<?, ?> values)
        throws PcpError {
        if (!app.peer.isOpen()) {
            throw PcpError.of(PcpError.APP_UNRESPONSIVE, JsonTree.object("app_id", app.appId, "reason", "connection closed"));
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> request = JsonTree.object("capability_id", capability.id, "app_id", app.appId,
            "source", SOURCE_SYSTEM_INTELLIGENCE, "params", new LinkedHashMap<>((Map<String, Object>) values));
        final CompletableFuture<Object> answer = app.peer.request("invoke.capability", request);
        final Object result;
        try {
            result = answer.get(invocationTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (final TimeoutException e) {
            answer.cancel(false);
            throw PcpError.of(PcpError.EXECUTION_TIMEOUT, JsonTree.object("capability_id", capability.id,
                "timeout_ms", invocationTimeoutMs));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw PcpError.of(PcpError.EXECUTION_TIMEOUT, JsonTree.object("capability_id", capability.id));
        } catch (final CancellationException e) {
            throw PcpError.of(PcpError.APP_UNRESPONSIVE, JsonTree.object("app_id", app.appId));
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof PcpError) {
                throw (PcpError) e.getCause(); // the application's own error object
            }
            throw PcpError.of(PcpError.APP_UNRESPONSIVE, JsonTree.object("app_id", app.appId,
                "reason", e.getCause() instanceof IOException ? "connection closed" : String.valueOf(e.getCause())));
        }
        return capabilityResult(capability, result);
    }

    private static Map<String, Object> capabilityResult(final Capability capability, final Object result) throws PcpError {
        if (result instanceof Map) {
            final Object status = ((Map<?, ?>) result).get("status");
            if ("success".equals(status) || "partial".equals(status) || "deferred".equals(status)) {
                final Map<String, Object> out = JsonTree.object("status", status);
                final Object data = ((Map<?, ?>) result).get("data");
                if (data != null) {
                    out.put("data", data);
                }
                return out;
            }
        }
        throw new PcpError(PcpError.INTERNAL_ERROR, "The application answered something other than a CapabilityResult",
            JsonTree.object("capability_id", capability.id));
    }
}
