package dev.saccade.pcp;

import java.util.List;
import java.util.Map;

/**
 * What PCP Core reads from and does to the desktop: surfaces, their element trees and
 * structural actions. The owner's implementation answers from the agent protocol's own scene
 * generations and acts through its action path, so PCP is no second way to inject input.
 */
public interface PcpScene {
    /** Top-level windows as query.surface reports them (surface_id, app_id, title, state, geometry, tier). */
    List<Map<String, Object>> surfaces() throws PcpError;

    /** query.elements' result: {@code {"root": {...}}}; -32001, -32002 or -32020 as the seed says. */
    Map<String, Object> elements(String surfaceId, String focusId) throws PcpError;

    /** invoke.action's result: {@code {"executed": true, "result": {...}}}, planned against the latest generation. */
    default Map<String, Object> invokeAction(String surfaceId, String elementId, String action, Object value) throws PcpError {
        return invokeAction(surfaceId, elementId, action, value, 0);
    }

    /**
     * invoke.action planned against {@code generation} (0: the latest): refused with -32002 and
     * what changed when the desktop is no longer that generation's (pcp §6.4).
     */
    Map<String, Object> invokeAction(String surfaceId, String elementId, String action, Object value, long generation)
        throws PcpError;

    /** System-level conditions for query.session_context (input mode, lock state where readable). */
    Map<String, Object> systemState();
}
