package dev.saccade.client;

/** The agent client's system property and its default; docs/settings.md lists it. */
public final class ClientConfiguration {
    /**
     * The settle window of a verified batch: how long after a newer generation no other may come
     * (0 turns settling off); unset: {@code SACCADE_VERIFY_SETTLE_MS}, else the default.
     */
    public static final String VERIFY_SETTLE_MS_PROP_NAME = "saccade.verify.settle.ms";
    /** Longer than the gaps between one reaction's generations (measured). */
    public static final long VERIFY_SETTLE_MS_DEFAULT = 300;
    /** The environment variable read when the property is not set. */
    public static final String VERIFY_SETTLE_MS_ENV = "SACCADE_VERIFY_SETTLE_MS";

    private ClientConfiguration() {
    }

    /** The property's text, else the environment variable's, else null (the caller checks it). */
    public static String verifySettleMs() {
        final String value = System.getProperty(VERIFY_SETTLE_MS_PROP_NAME);
        return value != null ? value : System.getenv(VERIFY_SETTLE_MS_ENV);
    }
}
