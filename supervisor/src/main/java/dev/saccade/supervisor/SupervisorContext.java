package dev.saccade.supervisor;

import static dev.saccade.supervisor.SupervisorConfiguration.BACKOFF_INITIAL_MS_PROP_NAME;
import static dev.saccade.supervisor.SupervisorConfiguration.BACKOFF_MAX_MS_PROP_NAME;
import static dev.saccade.supervisor.SupervisorConfiguration.HEALTHY_RESET_MS_PROP_NAME;
import static dev.saccade.supervisor.SupervisorConfiguration.PING_INTERVAL_MS_PROP_NAME;
import static dev.saccade.supervisor.SupervisorConfiguration.START_TIMEOUT_MS_PROP_NAME;
import static dev.saccade.supervisor.SupervisorConfiguration.UNRESPONSIVE_MS_PROP_NAME;

import dev.saccade.ipc.ListenerHandoff;
import dev.saccade.ipc.RuntimeDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of one supervisor. Each starts from its {@link SupervisorConfiguration} property or
 * default; the CLI overrides them through the setters; {@link #conclude()} fills what depends
 * on the environment and checks everything once.
 */
public final class SupervisorContext {
    /** The input helper's entry point; it is started by class name, never linked. */
    public static final String HELPER_MAIN_CLASS = "dev.saccade.helper.InputHelperMain";
    /**
     * What the helper never loads, by jar file name or build directory (the ipc module's ChildJvm):
     * the owner's sources and semantics, the CLI, tests and benchmarks; the same list as the
     * owner's InputHelperLauncher#LEFT_OUT.
     */
    public static final List<String> HELPER_LEFT_OUT = List.of(
        "saccade-owner-service", "saccade-atspi", "saccade-pixel", "saccade-wlroots", "saccade-kde", "saccade-gnome",
        "saccade-cli",
        "saccade-test-desktop", "saccade-demo-desktop", "saccade-supervisor", "saccade-installer",
        "picocli", "jackson", "HdrHistogram", "junit", "opentest4j", "apiguardian", "surefire",
        "owner-service/target/classes", "atspi/target/classes", "pixel/target/classes", "wlroots/target/classes",
        "kde/target/classes", "gnome/target/classes", "cli/target/classes", "test-desktop/target/classes",
        "demo-desktop/target/classes", "test-classes");
    public static final String OWNER_LOG_NAME = "saccade-owner.log";
    public static final String HELPER_LOG_NAME = "saccade-helper.log";

    private Path runtimeDirectory;
    private Path endpoint;
    private Path distribution;
    /** Set by {@link #display(String)} (an argument); else looked up at {@link #conclude()} and while waiting. */
    private String displayArgument;
    private volatile SessionDisplay sessionDisplay = SessionDisplay.waiting();
    private java.util.function.Supplier<java.util.Map<String, String>> managerEnvironment =
        SessionDisplay::userManagerEnvironment;
    private java.util.Map<String, String> environment = System.getenv();
    private InputHelperMode inputHelper = InputHelperMode.SUPERVISED;
    private String sessionBusAddress = System.getenv("DBUS_SESSION_BUS_ADDRESS");
    /**
     * Run on the conductor thread each time the session becomes ready, i.e. an action would be
     * accepted: an owner serves (its first scene published) and, when it has one, its input
     * helper is attached (e.g. `up`'s banner).
     */
    private java.util.function.LongConsumer onReady = pid -> { };
    private final List<String> ownerArgs = new ArrayList<>();
    private String ownerJavaOptions = "";
    private String helperMain = SupervisorConfiguration.helperMain();
    private String notifySocket = System.getenv(SystemdNotifier.NOTIFY_SOCKET);
    private long backoffInitialMs = SupervisorConfiguration.backoffInitialMs();
    private long backoffMaxMs = SupervisorConfiguration.backoffMaxMs();
    private long healthyResetMs = SupervisorConfiguration.healthyResetMs();
    private long startTimeoutMs = SupervisorConfiguration.startTimeoutMs();
    private long pingIntervalMs = SupervisorConfiguration.pingIntervalMs();
    private long unresponsiveMs = SupervisorConfiguration.unresponsiveMs();
    private boolean concluded;
    private Path xAuthority;
    private boolean stopWhenDisplayGone;

    public SupervisorContext runtimeDirectory(final Path dir) {
        runtimeDirectory = dir;
        return this;
    }

    /** The agent endpoint the supervisor binds and hands to each owner (default {@code $RUN/saccade-agent-v1.sock}). */
    public SupervisorContext endpoint(final Path path) {
        endpoint = path;
        return this;
    }

    /** The distribution whose owner to start (default: the one this JVM runs from). */
    public SupervisorContext distribution(final Path home) {
        distribution = home;
        return this;
    }

    /** The X display to own, given as an argument: it wins over every environment. */
    public SupervisorContext display(final String x11Display) {
        displayArgument = x11Display;
        return this;
    }

    /**
     * The X authority file of the display given as an argument (a demo desktop's cookie, D29):
     * the children get it as {@code XAUTHORITY}.
     */
    public SupervisorContext xAuthority(final Path file) {
        xAuthority = file;
        return this;
    }

    /** Our environment and the user manager's, for the display look-up (tests). */
    SupervisorContext environments(final java.util.Map<String, String> own,
        final java.util.function.Supplier<java.util.Map<String, String>> manager) {
        environment = own;
        managerEnvironment = manager;
        return this;
    }

    /** Who starts the input helper: see {@link InputHelperMode}. */
    public SupervisorContext inputHelper(final InputHelperMode mode) {
        inputHelper = mode;
        return this;
    }

    /** The D-Bus session bus the owner finds AT-SPI2 on (its environment's DBUS_SESSION_BUS_ADDRESS). */
    public SupervisorContext sessionBusAddress(final String address) {
        sessionBusAddress = address;
        return this;
    }

    public SupervisorContext onReady(final java.util.function.LongConsumer action) {
        onReady = action;
        return this;
    }

    /** Extra arguments of {@code saccade owner run}. */
    public SupervisorContext ownerArgs(final List<String> args) {
        ownerArgs.clear();
        ownerArgs.addAll(args);
        return this;
    }

    /** JVM options of the owner (its launcher's {@code SACCADE_JAVA_OPTS}). */
    public SupervisorContext ownerJavaOptions(final String options) {
        ownerJavaOptions = options == null ? "" : options;
        return this;
    }

    public SupervisorContext helperMain(final String mainClassOrSourceFile) {
        helperMain = mainClassOrSourceFile;
        return this;
    }

    public String helperMain() {
        return helperMain;
    }

    public SupervisorContext notifySocket(final String socket) {
        notifySocket = socket;
        return this;
    }

    public SupervisorContext backoffInitialMs(final long ms) {
        backoffInitialMs = ms;
        return this;
    }

    public SupervisorContext backoffMaxMs(final long ms) {
        backoffMaxMs = ms;
        return this;
    }

    public SupervisorContext healthyResetMs(final long ms) {
        healthyResetMs = ms;
        return this;
    }

    public SupervisorContext startTimeoutMs(final long ms) {
        startTimeoutMs = ms;
        return this;
    }

    public SupervisorContext pingIntervalMs(final long ms) {
        pingIntervalMs = ms;
        return this;
    }

    public SupervisorContext unresponsiveMs(final long ms) {
        unresponsiveMs = ms;
        return this;
    }

    /**
     * Fills defaults and validates; once.
     *
     * @throws IOException when our uid cannot be read (default runtime directory).
     * @throws IllegalArgumentException naming the bad setting.
     */
    public SupervisorContext conclude() throws IOException {
        if (concluded) {
            throw new IllegalStateException("SupervisorContext concluded twice");
        }
        concluded = true;
        if (runtimeDirectory == null) {
            runtimeDirectory = RuntimeDirectory.resolve(System.getenv());
        }
        if (endpoint == null) {
            endpoint = runtimeDirectory.resolve(RuntimeDirectory.AGENT_SOCKET_NAME);
        }
        if (distribution == null) {
            distribution = Distribution.ofThisJvm();
            if (distribution == null) {
                throw new IllegalArgumentException("not running from a Saccade distribution: pass --distribution DIR");
            }
        }
        lookUpDisplay(); // none yet: the supervisor waits for one (SessionDisplay)
        positive(BACKOFF_INITIAL_MS_PROP_NAME, backoffInitialMs);
        positive(HEALTHY_RESET_MS_PROP_NAME, healthyResetMs);
        positive(START_TIMEOUT_MS_PROP_NAME, startTimeoutMs);
        positive(PING_INTERVAL_MS_PROP_NAME, pingIntervalMs);
        if (backoffMaxMs < backoffInitialMs) {
            throw new IllegalArgumentException(BACKOFF_MAX_MS_PROP_NAME + "=" + backoffMaxMs + ": below the initial " + backoffInitialMs);
        }
        if (unresponsiveMs <= pingIntervalMs) {
            throw new IllegalArgumentException(UNRESPONSIVE_MS_PROP_NAME + "=" + unresponsiveMs + ": must exceed the ping interval");
        }
        return this;
    }

    private static void positive(final String name, final long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + "=" + value + ": must be positive");
        }
    }

    public Path runtimeDirectory() {
        return runtimeDirectory;
    }

    public Path endpoint() {
        return endpoint;
    }

    public Path controlSocket() {
        return runtimeDirectory.resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME);
    }

    public Path linkSocket() {
        return runtimeDirectory.resolve(ListenerHandoff.LINK_SOCKET_NAME);
    }

    public Path distribution() {
        return distribution;
    }

    /** The X display the children use, null while waiting for one. */
    public String display() {
        return sessionDisplay.display;
    }

    /** Where the display came from ("argument", "environment", "user manager") or "waiting". */
    public String displaySource() {
        return sessionDisplay.source.label;
    }

    /** Extra environment for the children that came with the display (XAUTHORITY from the user manager). */
    java.util.Map<String, String> displayEnvironment() {
        if (xAuthority == null) {
            return sessionDisplay.environment;
        }
        final java.util.Map<String, String> withAuthority = new java.util.LinkedHashMap<>(sessionDisplay.environment);
        withAuthority.put("XAUTHORITY", xAuthority.toString());
        return withAuthority;
    }

    /** Why there is no display and what to do; null once one is known. */
    public String displayHint() {
        return sessionDisplay.known() ? null : SessionDisplay.waitingHint(environment);
    }

    /**
     * Looks for the display again while none is known (the conductor, every few seconds).
     *
     * @return whether one is known now.
     */
    boolean lookUpDisplay() {
        if (!sessionDisplay.known()) {
            final SessionDisplay found = displayArgument != null && !displayArgument.isEmpty()
                ? SessionDisplay.of(displayArgument, SessionDisplay.Source.ARGUMENT)
                : SessionDisplay.lookUp(environment, managerEnvironment);
            // a local display whose server is gone (or not up yet) is waited for, not served
            sessionDisplay = found.known() && !SessionDisplay.answers(found.display) ? SessionDisplay.waiting() : found;
        }
        return sessionDisplay.known();
    }

    /** Whether the display the children use still has its X server (see {@link SessionDisplay#answers}). */
    boolean displayAnswers() {
        return sessionDisplay.known() && SessionDisplay.answers(sessionDisplay.display);
    }

    /** The display's X server went away: look for one again, as before the first. */
    void forgetDisplay() {
        sessionDisplay = SessionDisplay.waiting();
    }

    /**
     * Stop, rather than wait, when the display's X server goes away: for a display that came
     * with the supervisor and dies with it (the demo desktop of {@code saccade up}).
     */
    public SupervisorContext stopWhenDisplayGone(final boolean stop) {
        stopWhenDisplayGone = stop;
        return this;
    }

    boolean stopWhenDisplayGone() {
        return stopWhenDisplayGone;
    }

    /** Whether the supervisor itself starts and restarts the helper. */
    public boolean inputHelper() {
        return inputHelper == InputHelperMode.SUPERVISED;
    }

    public InputHelperMode inputHelperMode() {
        return inputHelper;
    }

    public String sessionBusAddress() {
        return sessionBusAddress;
    }

    public java.util.function.LongConsumer onReady() {
        return onReady;
    }

    public List<String> ownerArgs() {
        return List.copyOf(ownerArgs);
    }

    public String ownerJavaOptions() {
        return ownerJavaOptions;
    }

    public String notifySocket() {
        return notifySocket;
    }

    public long backoffInitialMs() {
        return backoffInitialMs;
    }

    public long backoffMaxMs() {
        return backoffMaxMs;
    }

    public long healthyResetMs() {
        return healthyResetMs;
    }

    public long startTimeoutMs() {
        return startTimeoutMs;
    }

    public long pingIntervalMs() {
        return pingIntervalMs;
    }

    public long unresponsiveMs() {
        return unresponsiveMs;
    }
}
