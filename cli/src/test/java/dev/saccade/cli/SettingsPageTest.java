package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/settings.md is the {@link SettingsPage} the {@code *Configuration} classes render, and
 * every {@code saccade.*} property the product reads is on it. A stale page fails; to rewrite it,
 * run this test with {@code -Dsaccade.settings.write=true} (the page's first lines say how).
 */
class SettingsPageTest {
    /** Set to {@code true} to rewrite docs/settings.md from the classes instead of comparing. */
    private static final String WRITE_PROP = "saccade.settings.write";
    /** Strings that look like properties but name files: the Windows launcher. */
    private static final Set<String> NOT_PROPERTIES = Set.of("saccade.cmd");
    private static final Pattern JAVA_PROPERTY = Pattern.compile("\"(saccade(?:\\.[A-Za-z0-9]+)+)\"");
    private static final Pattern SCRIPT_PROPERTY = Pattern.compile("-D(saccade(?:\\.[A-Za-z0-9]+)+)=");

    @Test
    void docsSettingsIsWhatTheConfigurationClassesRender() throws IOException {
        final Path root = SettingsPage.repositoryRoot();
        final Path file = root.resolve(SettingsPage.PATH);
        final String rendered = SettingsPage.render(root);
        if (Boolean.getBoolean(WRITE_PROP)) {
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
        }
        final String onDisk = Files.isRegularFile(file) ? SettingsPage.read(file) : "";
        assertEquals(rendered, onDisk, SettingsPage.PATH + " is stale: rerun this test with -D" + WRITE_PROP
            + "=true (its first lines give the whole command) and commit the file");
    }

    @Test
    void everyModuleWithSettingsHasAConfigurationClassFound() throws IOException {
        final List<Class<?>> classes = SettingsPage.configurationClasses();
        final Set<String> modules = new TreeSet<>();
        final Path root = SettingsPage.repositoryRoot();
        for (final Class<?> type : classes) {
            modules.add(root.relativize(SettingsPage.sourceOf(root, type)).getName(0).toString());
            assertTrue(Modifier.isFinal(type.getModifiers()), type + " is final");
            for (final Constructor<?> c : type.getDeclaredConstructors()) {
                assertTrue(Modifier.isPrivate(c.getModifiers()), type + " has only a private constructor");
            }
            assertTrue(!SettingsPage.settingsOf(type, SettingsPage.read(SettingsPage.sourceOf(root, type))).isEmpty(),
                type + " declares at least one *" + SettingsPage.SUFFIX_PROP_NAME);
        }
        assertTrue(modules.containsAll(Set.of("owner-service", "pcp", "mcp", "supervisor", "input-helper", "installer",
            "agent-client", "ipc-shared")), "modules with a configuration: " + modules);
    }

    @Test
    void everySaccadePropertyTheSourcesReadIsDocumented() throws IOException {
        final Path root = SettingsPage.repositoryRoot();
        final Set<String> documented = SettingsPage.documented(SettingsPage.render(root));
        final List<String> missing = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (final Path f : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                final String rel = root.relativize(f).toString().replace('\\', '/');
                final Pattern pattern;
                if (rel.matches("[^/]+/src/main/java/.*\\.java")) {
                    pattern = JAVA_PROPERTY;
                } else if (rel.matches("[^/]+/src/main/dist/bin/[^/]+|scripts/[^/]+")) {
                    pattern = SCRIPT_PROPERTY;
                } else {
                    continue;
                }
                final Matcher m = pattern.matcher(SettingsPage.read(f));
                while (m.find()) {
                    final String name = m.group(1);
                    if (!documented.contains(name) && !NOT_PROPERTIES.contains(name) && !name.startsWith("saccade.bench.")) {
                        missing.add(rel + ": " + name);
                    }
                }
            }
        }
        assertTrue(missing.isEmpty(), "read but not in " + SettingsPage.PATH
            + " (declare each in its package's *Configuration class): " + missing);
        assertTrue(documented.size() >= 70, "only " + documented.size() + " settings documented");
    }
}
