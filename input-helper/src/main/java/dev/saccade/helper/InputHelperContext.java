package dev.saccade.helper;

/**
 * Settings of one input helper process. Each starts from its {@link InputHelperConfiguration}
 * property or default; setters override; {@link #conclude()} checks them once.
 */
public final class InputHelperContext {
    private long idleParkMs = InputHelperConfiguration.idleParkMs();
    private long leaseMaxMs = InputHelperConfiguration.leaseMaxMs();
    private long ownerSilenceMs = InputHelperConfiguration.ownerSilenceMs();
    private boolean concluded;

    public InputHelperContext idleParkMs(final long ms) {
        idleParkMs = ms;
        return this;
    }

    public InputHelperContext leaseMaxMs(final long ms) {
        leaseMaxMs = ms;
        return this;
    }

    public InputHelperContext ownerSilenceMs(final long ms) {
        ownerSilenceMs = ms;
        return this;
    }

    /** Validates; once. */
    public InputHelperContext conclude() {
        if (concluded) {
            throw new IllegalStateException("InputHelperContext concluded twice");
        }
        concluded = true;
        notNegative(InputHelperConfiguration.IDLE_PARK_MS_PROP_NAME, idleParkMs);
        notNegative(InputHelperConfiguration.LEASE_MAX_MS_PROP_NAME, leaseMaxMs);
        notNegative(InputHelperConfiguration.OWNER_SILENCE_MS_PROP_NAME, ownerSilenceMs);
        return this;
    }

    private static void notNegative(final String property, final long ms) {
        if (ms < 0) {
            throw new IllegalArgumentException(property + "=" + ms + ": must not be negative");
        }
    }

    public long idleParkNs() {
        return idleParkMs * 1_000_000L;
    }

    public long leaseMaxNs() {
        return leaseMaxMs * 1_000_000L;
    }

    public long ownerSilenceNs() {
        return ownerSilenceMs * 1_000_000L;
    }
}
