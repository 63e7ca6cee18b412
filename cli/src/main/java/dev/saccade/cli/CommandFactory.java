package dev.saccade.cli;

import java.io.OutputStream;

import picocli.CommandLine;
import picocli.CommandLine.IFactory;

/**
 * Creates the commands, mixins and converters of {@code saccade}: picocli's default factory,
 * except that every {@link OutputOptions} writes to the given standard output. Tests run the real
 * command line with a stream of their own, so they see the exact bytes a command writes.
 */
final class CommandFactory implements IFactory {
    private final OutputStream stdout;

    CommandFactory(final OutputStream stdout) {
        this.stdout = stdout;
    }

    @Override
    public <K> K create(final Class<K> type) throws Exception {
        if (type == OutputOptions.class) {
            return type.cast(new OutputOptions(stdout));
        }
        return CommandLine.defaultFactory().create(type);
    }
}
