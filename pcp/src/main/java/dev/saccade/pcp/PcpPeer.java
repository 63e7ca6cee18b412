package dev.saccade.pcp;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The other end of one PCP connection, as PCP Core sees it: where pushed events go, and, for a
 * connection that registered an application, where that application's invocations are sent as
 * JSON-RPC requests.
 */
public interface PcpPeer {
    /** A name for logs and the audit trail: {@code unix:<pid>}, {@code tcp:<port>}, {@code in-process}. */
    String name();

    boolean isOpen();

    /** The peer's process id (SO_PEERCRED at accept); -1 when unknown (TCP, in process). */
    default long pid() {
        return -1;
    }

    /** Pushes a notification (no id); {@code false} when the peer is gone or its queue is full. */
    boolean notify(String method, Map<String, Object> params);

    /**
     * Sends a request to the peer. The future completes with the response's {@code result}, or
     * exceptionally with a {@link PcpError} carrying the peer's error object, or with
     * {@link java.io.IOException} when the connection ends first.
     */
    CompletableFuture<Object> request(String method, Map<String, Object> params);
}
