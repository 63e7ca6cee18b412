package dev.saccade.cli;

import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;

/**
 * Creates the commands, mixins and converters of {@code saccade}: every {@link OutputOptions}
 * writes to the given standard output (tests run the real command line with a stream of their
 * own, so they see the exact bytes a command writes), every other class of ours is made by its
 * no-argument constructor.
 *
 * <p>Not through picocli's default factory, which calls a package-private class's constructor
 * first without access: each of the ~30 converters, candidates and mixins of a command cost two
 * {@code IllegalAccessException}s, stack traces filled in by the interpreter, before it was made
 * (a one-shot run is to take at most 250 ms). What it is still needed for, a collection or map type
 * of an option, goes to it.
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
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            return CommandLine.defaultFactory().create(type); // List, Set, Map...: picocli's choice of class
        }
        final Constructor<K> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        return constructor.newInstance();
    }
}
