package dev.saccade.pcp;

import java.util.Map;

/**
 * The host side of confirmations: the dispatcher of {@code $RUN/saccade-pcp-host-v1.sock}, where
 * {@code saccade pcp confirm ID CODE} and {@code deny ID} (the user, same uid) approve or refuse
 * what a PCP caller asked for, and {@code saccade pcp revoke APP_ID} revokes any application.
 * Kept off the PCP socket on purpose: a PCP caller cannot approve its own request through PCP;
 * and {@code confirm} needs the code only the user was shown, from a process that is not the
 * requester nor its descendant (pcp §5.3).
 *
 * <p>Methods: {@code confirm} ({@code confirmation_id}, {@code code}) → the application's
 * {@code CapabilityResult}; {@code deny} ({@code confirmation_id}) → {@code {"denied": true}};
 * {@code revoke.app} ({@code app_id}, optional {@code reason}) → as on the PCP socket.
 */
public final class HostConfirmations implements PcpDispatcher {
    public static final String SOCKET_NAME = "saccade-pcp-host-v1.sock";
    private final PcpCore core;

    public HostConfirmations(final PcpCore core) {
        this.core = core;
    }

    @Override
    public Object dispatch(final PcpPeer caller, final String method, final Map<String, Object> params) throws PcpError {
        if ("revoke.app".equals(method)) {
            return core.revokeByHost(caller, params);
        }
        final String id = Params.requiredString(params, "confirmation_id");
        switch (method) {
            case "confirm":
                return core.confirm(id, Params.optionalString(params, "code"), caller.pid());
            case "deny":
                core.deny(id);
                return JsonTree.object("denied", true, "confirmation_id", id);
            default:
                throw new PcpError(PcpError.METHOD_NOT_FOUND, "Method not found", JsonTree.object("method", method));
        }
    }

    @Override
    public void disconnected(final PcpPeer peer) {
        // A confirmer holds no state here.
    }
}
