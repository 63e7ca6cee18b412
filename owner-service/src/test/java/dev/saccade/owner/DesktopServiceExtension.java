package dev.saccade.owner;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.TestDesktopExtension;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link WithDesktopService}: resolves {@link DesktopService} parameters to
 * the one service of the test class, started on the class's test desktop on first use.
 *
 * <p>The service lives in the class-level store, added after the desktop, so JUnit closes it
 * before the desktop and whatever the tests' outcome (as the desktop itself is closed).
 */
public final class DesktopServiceExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(DesktopServiceExtension.class);

    @Override
    public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
        return parameter.getParameter().getType() == DesktopService.class;
    }

    @Override
    public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
        final TestDesktop desktop = TestDesktopExtension.desktop(context);
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        final WithDesktopService settings = settings(classContext.getRequiredTestClass());
        return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(DesktopService.class,
            key -> start(desktop, settings), DesktopService.class);
    }

    private static DesktopService start(final TestDesktop desktop, final WithDesktopService settings) {
        final Map<String, String> previous = new HashMap<>();
        try {
            for (final String property : settings.properties()) {
                final int equals = property.indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException("not name=value: " + property);
                }
                final String name = property.substring(0, equals);
                previous.put(name, System.setProperty(name, property.substring(equals + 1)));
            }
            return settings.inputHelper() ? DesktopService.withInputHelper(desktop) : DesktopService.start(desktop);
        } catch (final Exception e) {
            throw new IllegalStateException("no owner service on " + desktop.display(), e);
        } finally {
            previous.forEach((name, value) -> {
                if (value == null) {
                    System.clearProperty(name);
                } else {
                    System.setProperty(name, value);
                }
            });
        }
    }

    /** On the class, its superclasses or meta-annotations, else on an enclosing class (@Nested). */
    private static WithDesktopService settings(final Class<?> testClass) {
        Class<?> candidate = testClass;
        while (candidate != null) {
            final Optional<WithDesktopService> found =
                AnnotationSupport.findAnnotation(candidate, WithDesktopService.class);
            if (found.isPresent()) {
                return found.get();
            }
            candidate = candidate.getEnclosingClass();
        }
        throw new IllegalStateException(testClass + " has no @WithDesktopService");
    }
}
