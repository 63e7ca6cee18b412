package dev.saccade.pcp;

import java.util.Map;

/**
 * The host side of confirmations: the dispatcher of {@code $RUN/saccade-pcp-host-v1.sock}, where
 * {@code saccade pcp confirm|deny ID} (the user, same uid) approves or refuses what a PCP caller
 * asked for. Kept off the PCP socket on purpose: a PCP caller cannot approve its own request
 * through PCP.
 *
 * <p>Methods: {@code confirm} → the application's {@code CapabilityResult}; {@code deny} →
 * {@code {"denied": true}}; both take {@code confirmation_id}.
 */
public final class HostConfirmations implements PcpDispatcher {
    public static final String SOCKET_NAME = "saccade-pcp-host-v1.sock";
    private final PcpCore core;

    public HostConfirmations(final PcpCore core) {
        this.core = core;
    }

    @Override
    public Object dispatch(final PcpPeer caller, final String method, final Map<String, Object> params) throws PcpError {
        final String id = Params.requiredString(params, "confirmation_id");
        switch (method) {
            case "confirm":
                return core.confirm(id);
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
