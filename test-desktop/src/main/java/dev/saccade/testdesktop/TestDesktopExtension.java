package dev.saccade.testdesktop;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.demodesktop.TestDesktopContext;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * JUnit 5 extension behind {@link WithTestDesktop}: one {@link TestDesktop} per test class.
 *
 * <p>The desktop lives in the class-level {@link ExtensionContext.Store}. JUnit closes
 * {@link AutoCloseable} values of a store when its context ends, also after failed, aborted or
 * timed-out tests and failed {@code @BeforeAll} methods, so no {@code AfterAllCallback} is needed
 * (and none could be skipped). The TestDesktop's JVM shutdown hook covers a JVM that dies first.
 *
 * <p>The desktop is started lazily by whichever comes first: {@code beforeAll}, or resolving a
 * constructor parameter of a {@code PER_CLASS} test instance (created before {@code beforeAll}).
 * Nested test classes share the desktop of their enclosing class: a store lookup falls back to
 * the parent context.
 */
public final class TestDesktopExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(TestDesktopExtension.class);

    @Override
    public void beforeAll(final ExtensionContext context) {
        desktop(context);
    }

    @Override
    public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
        return parameter.getParameter().getType() == TestDesktop.class;
    }

    @Override
    public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
        return desktop(context);
    }

    /** The desktop of the test class that {@code context} belongs to; starts it on first use. */
    public static TestDesktop desktop(final ExtensionContext context) {
        final ExtensionContext classContext = classContext(context);
        return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(
            TestDesktop.class, key -> TestDesktop.start(contextFor(classContext)), TestDesktop.class);
    }

    private static ExtensionContext classContext(final ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
            current = current.getParent().get();
        }
        return current;
    }

    private static TestDesktopContext contextFor(final ExtensionContext classContext) {
        final TestDesktopContext desktop = new TestDesktopContext();
        final Optional<WithTestDesktop> settings = findSettings(classContext.getTestClass());
        if (settings.isPresent()) {
            final WithTestDesktop annotation = settings.get();
            desktop.apps(annotation.apps());
            if (annotation.width() > 0 || annotation.height() > 0) {
                desktop.screenSize(
                    annotation.width() > 0 ? annotation.width() : desktop.screenWidth(),
                    annotation.height() > 0 ? annotation.height() : desktop.screenHeight());
            }
        }
        return desktop;
    }

    /** On the class, its superclasses or meta-annotations, else on an enclosing class (@Nested). */
    private static Optional<WithTestDesktop> findSettings(final Optional<Class<?>> testClass) {
        Class<?> candidate = testClass.orElse(null);
        while (candidate != null) {
            final Optional<WithTestDesktop> found = AnnotationSupport.findAnnotation(candidate, WithTestDesktop.class);
            if (found.isPresent()) {
                return found;
            }
            candidate = candidate.getEnclosingClass();
        }
        return Optional.empty();
    }
}
