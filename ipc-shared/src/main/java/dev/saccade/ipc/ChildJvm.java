package dev.saccade.ipc;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a Saccade process starts another JVM of ours (the owner its input helper, the supervisor
 * its children): the same Java, the JVM flags Chronicle Bytes and JNA need, and for the input
 * helper a classpath without what the caller says it must not load. The caller names the
 * modules above this one (the helper's main class, what it leaves out), so this module names none.
 */
public final class ChildJvm {
    /** System properties with this prefix are the helper's settings, passed on to it. */
    public static final String HELPER_PROPERTY_PREFIX = "saccade.helper.";
    private ChildJvm() {
    }

    /** The {@code java} of this JVM's own Java home. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The JVM flags Chronicle Bytes and JNA need: the build's list when given (tests), else the
     * ones this JVM was started with by {@code bin/saccade} (with its idle-friendly collector and
     * no perf data, so the helper wakes no more than the rest).
     */
    public static List<String> jvmFlags() {
        final List<String> flags = new ArrayList<>();
        // the helper's own settings given to this JVM (-Dsaccade.helper.*) go on to the helper
        for (final String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(HELPER_PROPERTY_PREFIX)) {
                flags.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        final String given = ChildJvmConfiguration.jvmFlags();
        if (!given.isEmpty()) {
            for (final String flag : given.split("\\s+")) {
                flags.add(flag);
            }
            return flags;
        }
        for (final String arg : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("--enable-native-access")
                || arg.startsWith("--sun-misc-unsafe-memory-access") || arg.startsWith("-Dchronicle.")
                || arg.startsWith("-Dorg.slf4j.") || arg.equals("-XX:+UseSerialGC") || arg.equals("-XX:-UsePerfData")) {
                flags.add(arg);
            }
        }
        return flags;
    }

    /**
     * The classpath entries the helper needs: everything but the entries whose jar file name (the
     * distribution, Maven's repository) or path (a module's build directory) contains one of
     * {@code leftOut}.
     */
    public static String helperClasspath(final String classpath, final List<String> leftOut) {
        final StringBuilder kept = new StringBuilder();
        for (final String entry : classpath.split(File.pathSeparator)) {
            if (entry.endsWith(File.separator + "*")) {
                // bin/saccade's `lib/*`: the JVM expands it, java.class.path does not
                final File[] jars = new File(entry.substring(0, entry.length() - 2)).listFiles(
                    f -> f.getName().endsWith(".jar"));
                if (jars != null) {
                    for (final File jar : jars) {
                        keep(kept, jar.getPath(), jar.getName(), leftOut);
                    }
                }
            } else {
                keep(kept, entry, entry.endsWith(".jar") ? new File(entry).getName() : entry, leftOut);
            }
        }
        return kept.toString();
    }

    private static void keep(final StringBuilder kept, final String entry, final String judgedBy,
        final List<String> leftOut) {
        for (final String excluded : leftOut) {
            if (judgedBy.contains(excluded)) {
                return;
            }
        }
        kept.append(kept.length() == 0 ? "" : File.pathSeparator).append(entry);
    }
}
