package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.TestDesktopExtension;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One owner with AT-SPI and its input helper on the test class's desktop ({@code @WithTestDesktop}),
 * and one client connected to it, for all of the class's tests: resolves {@link DesktopOwner} and
 * {@link AgentClient} parameters (of a {@code @BeforeAll} method, typically).
 *
 * <p>Both live in the class-level store, added after the desktop, so JUnit closes them (client,
 * then owner) before the desktop and whatever the tests' outcome.
 */
final class DesktopOwnerExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(DesktopOwnerExtension.class);
    private static final Duration CLIENT_READ_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
        final Class<?> type = parameter.getParameter().getType();
        return type == DesktopOwner.class || type == AgentClient.class;
    }

    @Override
    public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
        final Owned owned = owned(context);
        return parameter.getParameter().getType() == DesktopOwner.class ? owned.owner : owned.client;
    }

    private static Owned owned(final ExtensionContext context) {
        final TestDesktop desktop = TestDesktopExtension.desktop(context);
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        final String name = "saccade-" + classContext.getRequiredTestClass().getSimpleName();
        return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(Owned.class, key -> start(desktop, name),
            Owned.class);
    }

    private static Owned start(final TestDesktop desktop, final String name) {
        try {
            final DesktopOwner owner = DesktopOwner.withAccessibility(desktop, name);
            try {
                return new Owned(owner, owner.connect(CLIENT_READ_TIMEOUT));
            } catch (final Exception | Error e) {
                owner.close();
                throw e;
            }
        } catch (final Exception e) {
            throw new IllegalStateException("no owner on " + desktop.display(), e);
        }
    }

    /** The owner and its client, closed together when the class's store closes. */
    private record Owned(DesktopOwner owner, AgentClient client) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                client.close();
            } finally {
                owner.close();
            }
        }
    }
}
