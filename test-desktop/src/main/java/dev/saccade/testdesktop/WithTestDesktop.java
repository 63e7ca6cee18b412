package dev.saccade.testdesktop;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.demodesktop.TestDesktopContext;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against one {@link TestDesktop}, started before its
 * {@code @BeforeAll} methods and stopped after the class, whatever the outcome of its tests.
 * Declare a {@link TestDesktop} parameter on a test method, constructor or {@code @BeforeAll}
 * method to get it.
 *
 * <pre>{@code
 * @WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR})
 * class SceneSourceTest {
 *     @Test @Timeout(30)
 *     void listsGtkWindow(TestDesktop desktop) { ... }
 * }
 * }</pre>
 *
 * <p>It tags the class {@code desktop}: {@code mvn -Pfast verify} leaves such classes out.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(TestDesktopExtension.class)
@Tag("desktop")
public @interface WithTestDesktop {
    /** Apps started with the desktop (one instance per entry). */
    DemoApp[] apps() default {};

    /** Screen width in pixels; 0 keeps {@link TestDesktopContext#SCREEN_WIDTH_DEFAULT} (or its property). */
    int width() default 0;

    /** Screen height in pixels; 0 keeps {@link TestDesktopContext#SCREEN_HEIGHT_DEFAULT} (or its property). */
    int height() default 0;
}
