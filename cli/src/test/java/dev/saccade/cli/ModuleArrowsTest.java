package dev.saccade.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module graph of docs/architecture.md "Modules and arrows", checked on the compiled main
 * classes of every module on this test's class path (all but bench): no package cycle, and the
 * arrows that keep the platforms apart.
 */
class ModuleArrowsTest {
    /** The top-level package of every main module this test sees: a rule over fewer would pass for nothing. */
    private static final Set<String> MODULE_PACKAGES = Set.of(
        "protocol", "ipc", "client", "jsonrpc", "wayland", "desktop", "x11", "wlroots", "gnome", "kde", "atspi", "pixel", "owner",
        "pcp", "mcp", "helper", "supervisor", "installer", "cli", "demodesktop", "testdesktop");
    /** The scene source and desktop backend modules. */
    private static final String[] SOURCES = {
        "dev.saccade.desktop..", "dev.saccade.x11..", "dev.saccade.wlroots..", "dev.saccade.gnome..", "dev.saccade.kde..", "dev.saccade.atspi..",
        "dev.saccade.pixel.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar")) // the modules' test-jars
            .importPackages("dev.saccade");
        final Set<String> seen = new TreeSet<>();
        for (final JavaClass c : classes) {
            final String[] parts = c.getPackageName().split("\\.");
            if (parts.length > 2) {
                seen.add(parts[2]);
            }
        }
        assertTrue(seen.containsAll(MODULE_PACKAGES), "classes of every module imported, got " + seen);
    }

    @Test
    void noPackageCycle() {
        slices().matching("dev.saccade.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theInputHelperNeverLinksTheOwnerOrTheSources() {
        noClasses().that().resideInAPackage("dev.saccade.helper..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.owner..", "dev.saccade.atspi..",
                "dev.saccade.pixel..", "dev.saccade.wlroots..", "dev.saccade.gnome..", "dev.saccade.kde..", "dev.saccade.pcp..",
                "dev.saccade.supervisor..",
                "dev.saccade.cli..")
            .check(classes);
    }

    @Test
    void sourcesAndBackendsNeverLinkTheOwner() {
        noClasses().that().resideInAnyPackage(SOURCES)
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.owner..", "dev.saccade.pcp..",
                "dev.saccade.cli..", "dev.saccade.helper..")
            .check(classes);
    }

    @Test
    void theDesktopModelLinksNoSourceOrBackend() {
        noClasses().that().resideInAPackage("dev.saccade.desktop..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.x11..", "dev.saccade.wlroots..",
                "dev.saccade.atspi..", "dev.saccade.pixel..", "dev.saccade.wayland..", "dev.saccade.ipc..")
            .check(classes);
    }

    @Test
    void thePixelSourceLinksNoPlatform() {
        // each backend offers its own capture (DesktopBackend.openCapture): a new platform plugs in without pixel
        noClasses().that().resideInAPackage("dev.saccade.pixel..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.x11..", "dev.saccade.wlroots..",
                "dev.saccade.wayland..")
            .check(classes);
    }

    @Test
    void aDesktopBackendLinksNoOtherBackend() {
        // wlroots reads XWayland's child windows through the X11 backend the owner hands it
        noClasses().that().resideInAPackage("dev.saccade.wlroots..")
            .should().dependOnClassesThat().resideInAPackage("dev.saccade.x11..")
            .check(classes);
        noClasses().that().resideInAPackage("dev.saccade.x11..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.wlroots..", "dev.saccade.wayland..",
                "dev.saccade.kde..")
            .check(classes);
        noClasses().that().resideInAPackage("dev.saccade.kde..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.x11..", "dev.saccade.wlroots..")
            .check(classes);
    }

    @Test
    void theOwnerCoreNamesNoPlatformType() {
        // The loop, the service, the store, the planner and the helper link: only the wiring
        // (DesktopBackends, OwnerService) and the composer know the source modules, and the
        // helper link's release of a lost helper's X input uses the libX11 binding it shares
        // with the helper (OwnerXRelease).
        noClasses().that().resideInAnyPackage("dev.saccade.owner.action..", "dev.saccade.owner.scene..",
                "dev.saccade.owner.helper..")
            .and().doNotHaveSimpleName("OwnerXRelease")
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.x11..", "dev.saccade.wlroots..",
                "dev.saccade.wayland..")
            .check(classes);
    }

    @Test
    void pcpReachesTheOwnerOnlyAsAClientOfTheEndpoint() {
        // pcp §1.1: scene facts and actions through the agent endpoint, never the owner's classes
        noClasses().that().resideInAPackage("dev.saccade.pcp..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.owner..", "dev.saccade.atspi..",
                "dev.saccade.pixel..", "dev.saccade.x11..", "dev.saccade.wlroots..", "dev.saccade.desktop..")
            .check(classes);
    }

    @Test
    void theProductLinksNoTestCode() {
        // what ships in the distribution: test-desktop's JUnit extension and test-support stay in tests
        noClasses().that().resideOutsideOfPackages("dev.saccade.testdesktop..", "dev.saccade.testsupport..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.saccade.testdesktop..",
                "dev.saccade.testsupport..", "org.junit..")
            .check(classes);
    }
}
