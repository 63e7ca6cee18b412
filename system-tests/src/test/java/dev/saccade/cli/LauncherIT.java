package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs the packaged launcher {@code target/saccade/bin/saccade} as a process: once on real JVMs
 * (Java 17, and the newest installed Java 24 or later) to show the flags it picks are accepted
 * and silence the JDK's warnings, and once on a stand-in {@code java} that prints its arguments,
 * to check exactly which flags each Java version gets without needing every JDK installed.
 */
class LauncherIT {
    private static final Path DIST = Path.of(System.getProperty("saccade.dist.dir"));
    private static final Path LAUNCHER = DIST.resolve("bin/saccade");
    private static final String PROJECT_VERSION = System.getProperty("saccade.project.version");
    /**
     * The root pom's saccade.jvm.flags, then the collector and perf-data flags that keep an idle
     * daemon from waking: the launcher must pass exactly these on every Java.
     */
    private static final List<String> BASE_FLAGS = java.util.stream.Stream.concat(
        java.util.stream.Stream.of(System.getProperty("saccade.jvm.flags").trim().split("\\s+")),
        java.util.stream.Stream.of("-XX:+UseSerialGC", "-XX:-UsePerfData")).toList();
    private static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** One-shot commands: the first JIT tier only, for a quick start. */
    private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    /** ...and compiled only after ten times the usual calls. */
    private static final String LATE_COMPILES = "-XX:CompileThresholdScaling=10";
    private static final String UNSAFE_MEMORY_ACCESS = "--sun-misc-unsafe-memory-access=allow";
    private static final int CANNOT_START = 127;
    private static final long PROCESS_TIMEOUT_S = 30;

    // ---- real JVMs

    @Test
    @Timeout(120)
    void runsVersionAndHelpOnJava17FromJavaHome() throws Exception {
        final Path java17 = javaHome(feature -> feature == 17).orElse(null);
        assumeTrue(java17 != null, "no Java 17 installed");
        final Map<String, String> env = Map.of("JAVA_HOME", java17.toString());

        final Result version = run(env, LAUNCHER.toString(), "--version");
        assertEquals(0, version.exitCode, version::describe);
        assertVersionLine(version.out, "17");
        assertEquals("", version.err, version::describe);

        final Result help = run(env, LAUNCHER.toString(), "--help");
        assertEquals(0, help.exitCode, help::describe);
        assertTrue(help.out.contains("\nUsage: saccade [-hV] COMMAND\n"), help::describe);
        assertTrue(help.out.contains("Commands:"), help::describe);
        assertEquals("", help.err, help::describe);

        final Result withOpts = run(merge(env, "SACCADE_JAVA_OPTS", "-Xshare:auto"), LAUNCHER.toString(), "--version");
        assertEquals(0, withOpts.exitCode, withOpts::describe);
        assertVersionLine(withOpts.out, "17");
    }

    @Test
    @Timeout(120)
    void runsVersionAndHelpOnNewestJavaWithoutWarnings() throws Exception {
        final Path javaNew = javaHome(feature -> feature >= 24).orElse(null);
        assumeTrue(javaNew != null, "no Java 24 or newer installed (Temurin 25 is expected at /usr/lib/jvm)");
        final String feature = Integer.toString(featureOf(javaNew));
        final Map<String, String> env = Map.of("JAVA_HOME", javaNew.toString());

        for (final String option : List.of("--version", "--help")) {
            final Result result = run(env, LAUNCHER.toString(), option);
            assertEquals(0, result.exitCode, result::describe);
            assertNoWarnings(result);
            assertEquals("", result.err, result::describe);
        }
        final Result version = run(env, LAUNCHER.toString(), "--version");
        assertVersionLine(version.out, feature);

        final Result withOpts = run(merge(env, "SACCADE_JAVA_OPTS", "-Xshare:auto"), LAUNCHER.toString(), "--version");
        assertEquals(0, withOpts.exitCode, withOpts::describe);
        assertNoWarnings(withOpts);
        assertVersionLine(withOpts.out, feature);
    }

    @Test
    @Timeout(120)
    void findsJavaOnPathAndItselfThroughSymlinks(@TempDir final Path dir) throws Exception {
        final Path java17 = javaHome(feature -> feature == 17).orElse(null);
        assumeTrue(java17 != null, "no Java 17 installed");
        // Two hops, like /usr/bin/java -> /etc/alternatives/java -> <home>/bin/java on Debian.
        final Path alternatives = Files.createDirectories(dir.resolve("alternatives"));
        Files.createSymbolicLink(alternatives.resolve("java"), java17.resolve("bin/java"));
        final Path pathBin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(pathBin.resolve("java"), Path.of("../alternatives/java"));
        // The launcher itself reached through a relative link from elsewhere, as from ~/.local/bin.
        final Path linkedLauncher = pathBin.resolve("saccade");
        Files.createSymbolicLink(linkedLauncher, pathBin.relativize(LAUNCHER.toAbsolutePath()));

        final Result version = run(Map.of("PATH", pathBin + ":/usr/bin:/bin"), linkedLauncher.toString(), "--version");

        assertEquals(0, version.exitCode, version::describe);
        assertVersionLine(version.out, "17");
        assertEquals("", version.err, version::describe);
    }

    // ---- stand-in java: which arguments each Java gets

    @ParameterizedTest(name = "JAVA_VERSION=\"{0}\"")
    @CsvSource({
        "17.0.15, false, false",
        "21.0.2,  false, false",
        "22,      true,  false",
        "23.0.1,  true,  false",
        "24,      true,  true",
        "25.0.3,  true,  true",
        "26-ea,   true,  true",
    })
    @Timeout(60)
    void addsFlagsByJavaFeatureVersion(final String javaVersion, final boolean nativeAccess, final boolean unsafeMemory,
            @TempDir final Path dir) throws Exception {
        final Path fakeHome = fakeJavaHome(dir, javaVersion);

        final Result result = run(Map.of("JAVA_HOME", fakeHome.toString()), LAUNCHER.toString(), "--version");

        assertEquals(0, result.exitCode, result::describe);
        final List<String> expected = new ArrayList<>(BASE_FLAGS);
        if (nativeAccess) {
            expected.add(NATIVE_ACCESS);
        }
        if (unsafeMemory) {
            expected.add(UNSAFE_MEMORY_ACCESS);
        }
        expected.addAll(oneShotFlags(javaVersion));
        expected.addAll(List.of("-cp", DIST.toRealPath() + "/lib/*", "dev.saccade.cli.Main", "--version"));
        assertEquals(expected, argumentsOf(result));
    }

    /**
     * Daemons keep the whole JIT; every other command, {@code supervisor status} included, runs
     * with C1 only; the class-data archive goes only to the Java it was dumped by.
     */
    @Test
    @Timeout(60)
    void daemonsKeepTheWholeJitAndTheArchiveGoesOnlyToItsJava(@TempDir final Path dir) throws Exception {
        final Path fakeHome = fakeJavaHome(dir, "99.0.1");
        final Map<String, String> env = Map.of("JAVA_HOME", fakeHome.toString());
        for (final List<String> daemon : List.of(List.of("owner", "run"), List.of("supervisor", "run"), List.of("helper", "run"),
            List.of("up"), List.of("up", "--headless"))) {
            final List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
            command.addAll(daemon);
            final List<String> arguments = argumentsOf(run(env, command.toArray(new String[0])));
            assertFalse(arguments.contains(C1_ONLY) || arguments.contains(LATE_COMPILES), daemon + ": " + arguments);
        }
        for (final List<String> oneShot : List.of(List.of("supervisor", "status"), List.of("query", "--role", "window"),
            List.of("mcp"), List.of("owner"))) {
            final List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
            command.addAll(oneShot);
            final List<String> arguments = argumentsOf(run(env, command.toArray(new String[0])));
            assertTrue(arguments.contains(C1_ONLY), oneShot + ": " + arguments);
            assertTrue(arguments.stream().noneMatch(a -> a.startsWith("-XX:SharedArchiveFile")),
                "no archive was dumped by Java 99.0.1: " + arguments);
        }
        final List<String> archives = archivedVersions();
        assertFalse(archives.isEmpty(), "the build dumps lib/saccade-<java version>.jsa (src/cds/make-cds)");
        final Path matching = fakeJavaHome(Files.createDirectory(dir.resolve("matching")), archives.get(0));
        final List<String> arguments = argumentsOf(run(Map.of("JAVA_HOME", matching.toString()), LAUNCHER.toString(), "--version"));
        assertTrue(arguments.contains("-XX:SharedArchiveFile=" + DIST.toRealPath() + "/lib/saccade-" + archives.get(0) + ".jsa"),
            arguments::toString);
    }

    /**
     * An install under a directory whose name has a space: the archive and the native library
     * options are one argument each (they were split at the space, and Java refused to start),
     * and the CLI starts on the real Java.
     */
    @Test
    @Timeout(120)
    void worksFromADirectoryWithASpaceInItsName(@TempDir final Path dir) throws Exception {
        final Path copy = Files.createDirectories(dir.resolve("My Programs")).resolve("saccade");
        copyTree(DIST.toRealPath(), copy);
        final Path launcher = copy.resolve("bin/saccade");
        final List<String> archives = archivedVersions();
        assertFalse(archives.isEmpty(), "the build dumps lib/saccade-<java version>.jsa (src/cds/make-cds)");
        final Path fakeHome = fakeJavaHome(Files.createDirectory(dir.resolve("fake")), archives.get(0));
        final List<String> arguments = argumentsOf(run(Map.of("JAVA_HOME", fakeHome.toString()), launcher.toString(),
            "--version"));
        assertTrue(arguments.contains("-XX:SharedArchiveFile=" + copy + "/lib/saccade-" + archives.get(0) + ".jsa"),
            arguments::toString);
        assertTrue(arguments.stream().noneMatch(a -> a.startsWith("Programs/")), arguments::toString);
        final Result real = run(Map.of("JAVA_HOME", System.getProperty("java.home")), launcher.toString(), "--version");
        assertEquals(0, real.exitCode, real::describe);
        assertTrue(real.out.contains(PROJECT_VERSION), real::describe);
    }

    private static void copyTree(final Path from, final Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (final Path source : (Iterable<Path>) files::iterator) {
                final Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** The flags of a one-shot command on Java {@code javaVersion}: C1 only, and the archive if one was dumped by it. */
    private static List<String> oneShotFlags(final String javaVersion) throws IOException {
        final List<String> flags = new ArrayList<>(List.of(C1_ONLY, LATE_COMPILES));
        final Path archive = DIST.toRealPath().resolve("lib/saccade-" + javaVersion + ".jsa");
        if (Files.isReadable(archive)) {
            flags.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off"));
        }
        flags.addAll(nativeLibraryFlags());
        return flags;
    }

    /** junixsocket's library extracted by make-cds into lib/native, passed to every command. */
    private static List<String> nativeLibraryFlags() throws IOException {
        final Path dir = DIST.toRealPath().resolve("lib/native");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("libjunixsocket-native-") && n.endsWith(".so")).sorted()
                .map(n -> "-Dorg.newsclub.net.unix.library.override=" + dir.resolve(n)).toList();
        }
    }

    /** The Java versions the distribution has class-data archives for. */
    private static List<String> archivedVersions() throws IOException {
        try (Stream<Path> files = Files.list(DIST.resolve("lib"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("saccade-") && n.endsWith(".jsa"))
                .map(n -> n.substring("saccade-".length(), n.length() - ".jsa".length())).sorted().toList();
        }
    }

    @Test
    @Timeout(60)
    void addsOnlyTheFlagsEveryJavaAcceptsWhenTheVersionIsUnknown(@TempDir final Path dir) throws Exception {
        final Path fakeHome = fakeJavaHome(dir, "25.0.3");
        Files.delete(fakeHome.resolve("release"));

        final Result result = run(Map.of("JAVA_HOME", fakeHome.toString()), LAUNCHER.toString(), "--version");

        assertEquals(0, result.exitCode, result::describe);
        final List<String> arguments = argumentsOf(result);
        assertEquals(BASE_FLAGS, arguments.subList(0, BASE_FLAGS.size()));
        final List<String> expected = new ArrayList<>(List.of(C1_ONLY, LATE_COMPILES));
        expected.addAll(nativeLibraryFlags()); // the extracted library needs no version
        expected.add("-cp");
        assertEquals(expected, arguments.subList(BASE_FLAGS.size(), BASE_FLAGS.size() + expected.size()),
            "no version, no archive");
    }

    @Test
    @Timeout(60)
    void readsTheVersionOfTheJavaOnPathFromItsResolvedHome(@TempDir final Path dir) throws Exception {
        final Path fakeHome = fakeJavaHome(dir, "25.0.3");
        final Path pathBin = Files.createDirectories(dir.resolve("path-bin"));
        Files.createSymbolicLink(pathBin.resolve("java"), fakeHome.resolve("bin/java"));

        final Result result = run(Map.of("PATH", pathBin + ":/usr/bin:/bin"), LAUNCHER.toString(), "--version");

        assertEquals(0, result.exitCode, result::describe);
        final List<String> arguments = argumentsOf(result);
        assertTrue(arguments.contains(NATIVE_ACCESS), arguments::toString);
        assertTrue(arguments.contains(UNSAFE_MEMORY_ACCESS), arguments::toString);
    }

    @Test
    @Timeout(60)
    void splitsSaccadeJavaOptsAfterOurFlagsAndKeepsArgumentsIntact(@TempDir final Path dir) throws Exception {
        final Path fakeHome = fakeJavaHome(dir, "17.0.15");
        // A file named like the glob proves that `*` is not expanded against the working directory.
        Files.createFile(dir.resolve("glob-match"));
        final Map<String, String> env = Map.of("JAVA_HOME", fakeHome.toString(), "SACCADE_JAVA_OPTS", " -Xmx64m  -Dsaccade.x=glob* ");

        final Result result = runIn(dir, env, LAUNCHER.toString(), "a b", "", "glob*", "--json");

        assertEquals(0, result.exitCode, result::describe);
        final List<String> expected = new ArrayList<>(BASE_FLAGS);
        expected.addAll(oneShotFlags("17.0.15"));
        expected.addAll(List.of("-Xmx64m", "-Dsaccade.x=glob*",
                "-cp", DIST.toRealPath() + "/lib/*", "dev.saccade.cli.Main", "a b", "", "glob*", "--json"));
        assertEquals(expected, argumentsOf(result));
    }

    @Test
    @Timeout(60)
    void limitsOpenMpToOneThreadForOcrUnlessTheEnvironmentSaysOtherwise(@TempDir final Path dir) throws Exception {
        final Path fakeHome = fakeJavaHome(dir, "17.0.15");
        // this java prints what OpenMP would read when the owner loads libtesseract
        Files.writeString(fakeHome.resolve("bin/java"), "#!/bin/sh\nprintf '%s\\0' \"OMP_THREAD_LIMIT=${OMP_THREAD_LIMIT-unset}\"\n");
        final Result defaulted = run(Map.of("JAVA_HOME", fakeHome.toString()), LAUNCHER.toString(), "owner", "run");
        assertEquals(List.of("OMP_THREAD_LIMIT=1"), argumentsOf(defaulted), defaulted::describe);
        final Result kept = run(Map.of("JAVA_HOME", fakeHome.toString(), "OMP_THREAD_LIMIT", "2"), LAUNCHER.toString(),
            "owner", "run");
        assertEquals(List.of("OMP_THREAD_LIMIT=2"), argumentsOf(kept), kept::describe);
    }

    @Test
    @Timeout(60)
    void behavesTheSameUnderBash(@TempDir final Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "no /bin/bash");
        final Path fakeHome = fakeJavaHome(dir, "25.0.3");
        final Map<String, String> env = Map.of("JAVA_HOME", fakeHome.toString());

        final Result bySh = run(env, LAUNCHER.toString(), "x y");
        final Result byBash = run(env, "/bin/bash", LAUNCHER.toString(), "x y");

        assertEquals(0, bySh.exitCode, bySh::describe);
        assertEquals(0, byBash.exitCode, byBash::describe);
        assertEquals(argumentsOf(bySh), argumentsOf(byBash));
    }

    @ParameterizedTest(name = "JAVA_VERSION=\"{0}\"")
    @CsvSource({"1.8.0_392, 8", "11.0.22, 11"})
    @Timeout(60)
    void refusesJavaOlderThan17(final String javaVersion, final String feature, @TempDir final Path dir) throws Exception {
        final Path fakeHome = fakeJavaHome(dir, javaVersion);

        final Result result = run(Map.of("JAVA_HOME", fakeHome.toString()), LAUNCHER.toString(), "--version");

        assertEquals(CANNOT_START, result.exitCode, result::describe);
        assertEquals("", result.out, result::describe);
        assertTrue(result.err.contains("is Java " + feature + "; Saccade needs Java 17 or newer"), result::describe);
    }

    @Test
    @Timeout(60)
    void reportsAJavaHomeWithoutJava(@TempDir final Path dir) throws Exception {
        final Result result = run(Map.of("JAVA_HOME", dir.toString()), LAUNCHER.toString(), "--version");

        assertEquals(CANNOT_START, result.exitCode, result::describe);
        assertTrue(result.err.startsWith("saccade: JAVA_HOME is " + dir), result::describe);
    }

    @Test
    @Timeout(60)
    void reportsNoJavaOnPath(@TempDir final Path dir) throws Exception {
        // PATH with only the tools the launcher runs besides java; a shell finds its builtins itself.
        final Path tools = Files.createDirectories(dir.resolve("tools"));
        for (final String tool : List.of("dirname", "readlink", "sed")) {
            final Path real = Stream.of("/usr/bin", "/bin").map(d -> Path.of(d, tool)).filter(Files::isExecutable)
                    .findFirst().orElseThrow(() -> new AssertionError("no " + tool));
            Files.createSymbolicLink(tools.resolve(tool), real);
        }

        final Result result = run(Map.of("PATH", tools.toString()), LAUNCHER.toString(), "--version");

        assertEquals(CANNOT_START, result.exitCode, result::describe);
        assertTrue(result.err.startsWith("saccade: no java found"), result::describe);
    }

    // ---- helpers

    private static void assertVersionLine(final String out, final String javaFeature) {
        final String prefix = "saccade " + PROJECT_VERSION + " (agent ABI 0x00010001, Java " + javaFeature;
        assertTrue(out.startsWith(prefix) && out.endsWith(")\n") && out.indexOf('\n') == out.length() - 1,
                () -> "expected one line starting with '" + prefix + "', got: " + out);
    }

    private static void assertNoWarnings(final Result result) {
        final boolean warned = result.err.lines().anyMatch(line -> line.contains("WARNING"));
        assertFalse(warned, () -> "the JVM warned (restricted or sun.misc.Unsafe methods?): " + result.describe());
    }

    /**
     * A directory shaped like a Java home whose {@code bin/java} prints each argument followed by
     * NUL (an argument may contain anything but NUL), and whose {@code release} names the version.
     */
    private static Path fakeJavaHome(final Path dir, final String javaVersion) throws IOException {
        final Path home = Files.createDirectories(dir.resolve("fake-jdk"));
        final Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("release"),
                "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + javaVersion + "\"\nJAVA_VERSION_DATE=\"2025-01-01\"\n");
        return home;
    }

    private static List<String> argumentsOf(final Result result) {
        assertTrue(result.out.endsWith("\0"), result::describe);
        return Arrays.asList(result.out.substring(0, result.out.length() - 1).split("\0", -1));
    }

    /** Installed Java homes matching the feature version, newest first: this JVM's and /usr/lib/jvm/*. */
    private static Optional<Path> javaHome(final IntPredicate featureMatches) throws IOException {
        final List<Path> candidates = new ArrayList<>();
        candidates.add(Path.of(System.getProperty("java.home")));
        final Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> homes = Files.list(jvms)) {
                homes.sorted().forEach(candidates::add);
            }
        }
        return candidates.stream()
                .filter(home -> Files.isExecutable(home.resolve("bin/java")) && Files.isReadable(home.resolve("release")))
                .filter(home -> featureMatches.test(featureOf(home)))
                .max(Comparator.comparingInt(LauncherIT::featureOf));
    }

    private static int featureOf(final Path home) {
        try {
            for (final String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=\"")) {
                    final String version = line.substring("JAVA_VERSION=\"".length(), line.length() - 1);
                    return Runtime.Version.parse(version).feature();
                }
            }
            return 0;
        } catch (final IOException | IllegalArgumentException e) {
            return 0;
        }
    }

    private static Map<String, String> merge(final Map<String, String> env, final String name, final String value) {
        final Map<String, String> merged = new TreeMap<>(env);
        merged.put(name, value);
        return merged;
    }

    private static Result run(final Map<String, String> env, final String... command) throws Exception {
        return runIn(Path.of("").toAbsolutePath(), env, command);
    }

    /**
     * Runs a process with the inherited environment less everything that steers a JVM (the JDK
     * would print "Picked up ..." for those), plus {@code env}; output goes to files, so neither
     * pipe can fill up and stall the child.
     */
    private static Result runIn(final Path workingDir, final Map<String, String> env, final String... command)
            throws Exception {
        final Path out = Files.createTempFile("saccade-it-", ".out");
        final Path err = Files.createTempFile("saccade-it-", ".err");
        try {
            final ProcessBuilder builder = new ProcessBuilder(command).directory(workingDir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            final Map<String, String> environment = builder.environment();
            for (final String name : List.of("JAVA_HOME", "SACCADE_JAVA_OPTS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")) {
                environment.remove(name);
            }
            environment.putAll(env);
            final Process process = builder.start();
            if (!process.waitFor(PROCESS_TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                fail(String.join(" ", command) + " did not finish in " + PROCESS_TIMEOUT_S + " s");
            }
            return new Result(String.join(" ", command), process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private record Result(String command, int exitCode, String out, String err) {
        String describe() {
            return command + " exited " + exitCode + "\n--- stdout\n" + out.replace('\0', '|') + "\n--- stderr\n" + err;
        }
    }
}
