package dev.saccade.ipc;

/** The child JVMs' system property; docs/settings.md lists it. */
public final class ChildJvmConfiguration {
    /** JVM flags a child JVM (owner, input helper) gets instead of this JVM's own (set by the build for tests). */
    public static final String JVM_FLAGS_PROP_NAME = "saccade.jvm.flags";
    public static final String JVM_FLAGS_DEFAULT = "";

    private ChildJvmConfiguration() {
    }

    /** The flags, trimmed; empty when unset. */
    public static String jvmFlags() {
        return System.getProperty(JVM_FLAGS_PROP_NAME, JVM_FLAGS_DEFAULT).trim();
    }
}
