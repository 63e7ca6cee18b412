package dev.saccade.owner;

import dev.saccade.testdesktop.WithTestDesktop;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One {@link DesktopService} for the annotated test class, on the class's test desktop
 * ({@link WithTestDesktop}): started on first use and closed with the class, before the desktop,
 * whatever the outcome of its tests. Declare a {@link DesktopService} parameter on a
 * {@code @BeforeAll} method (or a test method) to get it.
 *
 * <pre>{@code
 * @WithTestDesktop(apps = DemoApp.GTK3_DEMO)
 * @WithDesktopService(properties = AtspiConfiguration.MAX_NODES_PER_APP_PROP_NAME + "=50")
 * class SomeDesktopTest { ... }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(DesktopServiceExtension.class)
public @interface WithDesktopService {
    /** Whether the service launches its real input helper: only where the helper is on the test class path (pcp). */
    boolean inputHelper() default false;

    /**
     * System properties, each {@code name=value}, set while the service starts and restored after:
     * the settings (pixel serving, AT-SPI budgets) the service's contexts read when they conclude.
     */
    String[] properties() default {};
}
