package dev.saccade.pcp;

import java.util.Map;

/**
 * PCP Core as a Java interface: the seed's in-process transport. A call takes the method name
 * and its parameters as {@link JsonTree} values and returns the result value or throws the
 * {@link PcpError} a socket client would receive as the error object, so the socket server is
 * only framing around this interface and tests can call it directly.
 *
 * <p>The host-side operations ({@link #confirm}, {@link #deny}, {@link #revokeByHost}) are
 * deliberately not PCP methods: a confirmation is approved by the user (pcp §5.3), never by the
 * caller that asked for it.
 */
public interface PcpCore {
    /**
     * Runs one PCP method for {@code caller}.
     *
     * @param params the request's {@code params} object; an empty map when it had none.
     * @return the JSON-RPC {@code result} value.
     * @throws PcpError the JSON-RPC error to answer.
     */
    Object call(PcpPeer caller, String method, Map<String, Object> params) throws PcpError;

    /**
     * Approves a pending confirmation with the code the user was shown, for a process
     * ({@code confirmerPid}, -1 unknown) that is not the requester nor its descendant (pcp §5.3):
     * the capability runs in its application and its {@code CapabilityResult} is returned (and
     * also pushed to the caller that invoked it).
     */
    Map<String, Object> confirm(String confirmationId, String code, long confirmerPid) throws PcpError;

    /** Denies a pending confirmation; its invoker is told -32006. */
    void deny(String confirmationId) throws PcpError;

    /**
     * revoke.app on the host socket: the user revokes any application, and a replayed manifest
     * of it is refused afterwards (pcp §3.11).
     */
    Object revokeByHost(PcpPeer host, Map<String, Object> params) throws PcpError;

    /** {@code peer}'s connection ended: its subscriptions end, its application is gone. */
    void disconnected(PcpPeer peer);
}
