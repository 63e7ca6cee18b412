package dev.saccade.pcp;

import java.util.Map;

/** What a JSON-RPC connection calls for each request: PCP Core, or the host-side confirmation service. */
public interface PcpDispatcher {
    Object dispatch(PcpPeer caller, String method, Map<String, Object> params) throws PcpError;

    /** The connection of {@code peer} ended. */
    void disconnected(PcpPeer peer);

    /** {@code peer} connected. */
    default void connected(final PcpPeer peer) {
    }
}
