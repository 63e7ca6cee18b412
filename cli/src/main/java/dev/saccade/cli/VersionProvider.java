package dev.saccade.cli;

import dev.saccade.protocol.AgentAbi;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code saccade --version}: project version, agent ABI version and the running Java, e.g.
 * {@code saccade 0.1.0-SNAPSHOT (agent ABI 0x00010001, Java 17.0.15+6)}.
 */
final class VersionProvider implements IVersionProvider {
    /** The agent ABI this CLI speaks ({@code spec/agent-abi.md}). */
    static final int AGENT_ABI_VERSION = AgentAbi.API_VERSION;

    /**
     * Written by Maven resource filtering from {@code project.version}, so the version has one
     * source (the POM) and is also right when running from {@code target/classes}, where there
     * is no jar manifest.
     */
    static final String VERSION_RESOURCE = "version.properties";

    @Override
    public String[] getVersion() {
        return new String[] {versionLine(projectVersion(), AGENT_ABI_VERSION, Runtime.version())};
    }

    static String versionLine(final String projectVersion, final int abiVersion, final Runtime.Version java) {
        return String.format("saccade %s (agent ABI 0x%08X, Java %s)", projectVersion, abiVersion, java);
    }

    static String projectVersion() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(VERSION_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(VERSION_RESOURCE + " is missing from the classpath: broken build");
            }
            final Properties properties = new Properties();
            properties.load(in);
            final String version = properties.getProperty("version");
            if (version == null || version.isEmpty() || version.startsWith("${")) {
                throw new IllegalStateException(VERSION_RESOURCE + " has no filtered version: broken build");
            }
            return version;
        } catch (final IOException e) {
            throw new UncheckedIOException("reading " + VERSION_RESOURCE, e);
        }
    }
}
