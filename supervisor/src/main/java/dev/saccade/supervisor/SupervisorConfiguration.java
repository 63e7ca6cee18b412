package dev.saccade.supervisor;


/**
 * The supervisor's system properties and their defaults; {@link SupervisorContext} starts from
 * these getters. docs/settings.md lists them.
 */
public final class SupervisorConfiguration {
    /** The wait before the first restart of a child that died young. */
    public static final String BACKOFF_INITIAL_MS_PROP_NAME = "saccade.supervisor.backoff.initial.ms";
    /** The first restart waits 250 ms, */
    public static final long BACKOFF_INITIAL_MS_DEFAULT = 250;

    /** The longest wait before a restart; each early death doubles the wait up to this. */
    public static final String BACKOFF_MAX_MS_PROP_NAME = "saccade.supervisor.backoff.max.ms";
    /** doubling to at most 8 s, */
    public static final long BACKOFF_MAX_MS_DEFAULT = 8_000;

    /** A child that ran this long counts as healthy: its exit is an isolated crash and the backoff starts over. */
    public static final String HEALTHY_RESET_MS_PROP_NAME = "saccade.supervisor.healthy.reset.ms";
    /**
     * and a child that ran this long counts as healthy: its exit is an isolated crash, restarted
     * after the first step, and the schedule starts over. The backoff is for children that die
     * during or soon after their start (a bad argument, a missing display), which an owner's start
     * of about a second stays far below; an owner that served for seconds and was killed must be
     * back in about a second every time.
     */
    public static final long HEALTHY_RESET_MS_DEFAULT = 5_000;

    /** How long a new owner may take from process start to ready. */
    public static final String START_TIMEOUT_MS_PROP_NAME = "saccade.supervisor.start.timeout.ms";
    /**
     * A JVM start, the X connection, the first snapshot and the AT-SPI tree of a busy desktop take
     * a few seconds at most.
     */
    public static final long START_TIMEOUT_MS_DEFAULT = 60_000;

    /** Between pings the owner answers on its link while its owner thread lives. */
    public static final String PING_INTERVAL_MS_PROP_NAME = "saccade.supervisor.ping.interval.ms";
    /**
     * 5 s, a coarse liveness check: each ping wakes three threads in two processes, so not every
     * second,
     */
    public static final long PING_INTERVAL_MS_DEFAULT = 5_000;

    /** An owner that has not answered a ping this long is killed and restarted. */
    public static final String UNRESPONSIVE_MS_PROP_NAME = "saccade.supervisor.unresponsive.ms";
    /** and one that has not answered for 10 s (two pings, a long GC pause) is killed and restarted. */
    public static final long UNRESPONSIVE_MS_DEFAULT = 10_000;

    /** The input helper's entry point: a class name or, for tests, a {@code .java} file the JVM runs in its place. */
    public static final String HELPER_MAIN_PROP_NAME = "saccade.supervisor.helper.main";
    public static final String HELPER_MAIN_DEFAULT = SupervisorContext.HELPER_MAIN_CLASS;

    private SupervisorConfiguration() {
    }

    public static long backoffInitialMs() {
        return Long.getLong(BACKOFF_INITIAL_MS_PROP_NAME, BACKOFF_INITIAL_MS_DEFAULT);
    }

    public static long backoffMaxMs() {
        return Long.getLong(BACKOFF_MAX_MS_PROP_NAME, BACKOFF_MAX_MS_DEFAULT);
    }

    public static long healthyResetMs() {
        return Long.getLong(HEALTHY_RESET_MS_PROP_NAME, HEALTHY_RESET_MS_DEFAULT);
    }

    public static long startTimeoutMs() {
        return Long.getLong(START_TIMEOUT_MS_PROP_NAME, START_TIMEOUT_MS_DEFAULT);
    }

    public static long pingIntervalMs() {
        return Long.getLong(PING_INTERVAL_MS_PROP_NAME, PING_INTERVAL_MS_DEFAULT);
    }

    public static long unresponsiveMs() {
        return Long.getLong(UNRESPONSIVE_MS_PROP_NAME, UNRESPONSIVE_MS_DEFAULT);
    }

    public static String helperMain() {
        return System.getProperty(HELPER_MAIN_PROP_NAME, HELPER_MAIN_DEFAULT);
    }
}
