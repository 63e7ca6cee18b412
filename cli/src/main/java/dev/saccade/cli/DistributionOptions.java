package dev.saccade.cli;

import dev.saccade.installer.Distribution;
import dev.saccade.installer.InstallException;
import dev.saccade.installer.InstallLayout;
import dev.saccade.installer.InstallPlan;
import dev.saccade.installer.LoginItem;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import picocli.CommandLine.Option;

/**
 * {@code --from} and {@code --dry-run} of install and upgrade: which distribution to install, and
 * whether to only print what would be written. By default the distribution is the one this
 * command runs from: the CLI jar sits in its {@code lib/}, so the directory above is it.
 */
final class DistributionOptions {
    @Option(names = "--from", paramLabel = "DIST",
        description = "Distribution to install: a directory with bin/saccade and lib/*.jar, as `mvn package`"
            + " builds in cli/target/saccade. Default: the one this saccade runs from.")
    Path from;

    @Option(names = "--dry-run",
        description = "Print every directory, file (path, mode and content) and link that would be written,"
            + " and the command that would switch the login item on; write nothing.")
    boolean dryRun;

    Distribution distribution() throws InstallException {
        if (from != null) {
            return Distribution.at(from);
        }
        final Path running = runningDistribution();
        if (running == null) {
            throw new InstallException(InstallException.Kind.DISTRIBUTION,
                "this saccade does not run from a distribution (bin/saccade, lib/*.jar): pass --from DIST");
        }
        return Distribution.at(running);
    }

    InstallPlan plan(final InstallLayout layout) throws InstallException {
        final Distribution distribution = distribution();
        return InstallPlan.of(layout, distribution, LoginItem.of(layout, distribution.version()));
    }

    /** The distribution whose {@code lib/} holds the jar of this class, or null (run from classes). */
    static Path runningDistribution() {
        final CodeSource source = DistributionOptions.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return null;
        }
        final Path jar;
        try {
            jar = Path.of(source.getLocation().toURI());
        } catch (final URISyntaxException | IllegalArgumentException ignore) {
            return null; // ignore: not a file location, so not a distribution
        }
        final Path lib = jar.getParent();
        if (!Files.isRegularFile(jar) || lib == null || !"lib".equals(String.valueOf(lib.getFileName()))) {
            return null;
        }
        return lib.getParent();
    }
}
