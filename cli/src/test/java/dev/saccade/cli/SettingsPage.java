package dev.saccade.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * docs/settings.md, rendered from every {@code dev.saccade..*Configuration} class on the class
 * path: each {@code X_PROP_NAME} constant is a setting, {@code X_DEFAULT} (when present) its
 * default, and the javadoc of {@code X_PROP_NAME} in the class's source its description.
 */
final class SettingsPage {
    static final String PATH = "docs/settings.md";
    static final String SUFFIX_PROP_NAME = "_PROP_NAME";
    static final String SUFFIX_DEFAULT = "_DEFAULT";
    private static final String BASE_PACKAGE = "dev/saccade/";
    private static final Pattern JAVADOC_BEFORE_PROP = Pattern.compile(
        "/\\*\\*((?:[^*]|\\*(?!/))*)\\*/\\s*public static final String (\\w+)" + SUFFIX_PROP_NAME + "\\s*=");
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(?:code|link|value|linkplain) ([^}]*)}");

    /** One setting as the page shows it. */
    record Setting(String property, String defaultValue, String unit, String description) {
    }

    private SettingsPage() {
    }

    /** The repository's root: the directory holding the root pom.xml and docs/, walking up from user.dir. */
    static Path repositoryRoot() {
        Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (p != null && !(Files.isDirectory(p.resolve("docs")) && Files.isRegularFile(p.resolve("pom.xml")))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no repository root above " + System.getProperty("user.dir"));
        }
        return p;
    }

    /** Every class named {@code *Configuration} under {@code dev.saccade}, by name. */
    static List<Class<?>> configurationClasses() throws IOException {
        final TreeSet<String> names = new TreeSet<>();
        final Enumeration<URL> roots = SettingsPage.class.getClassLoader().getResources(BASE_PACKAGE);
        while (roots.hasMoreElements()) {
            final URL root = roots.nextElement();
            if ("jar".equals(root.getProtocol())) {
                final JarURLConnection connection = (JarURLConnection) root.openConnection();
                connection.setUseCaches(false);
                try (JarFile jar = connection.getJarFile()) {
                    for (final Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                        addIfConfiguration(e.nextElement().getName(), names);
                    }
                }
            } else {
                final Path dir = toPath(root);
                final Path classesRoot = dir.getParent().getParent();
                try (Stream<Path> files = Files.walk(dir)) {
                    files.forEach(f -> addIfConfiguration(classesRoot.relativize(f).toString().replace('\\', '/'), names));
                }
            }
        }
        final List<Class<?>> classes = new ArrayList<>();
        for (final String name : names) {
            try {
                classes.add(Class.forName(name, false, SettingsPage.class.getClassLoader()));
            } catch (final ClassNotFoundException e) {
                throw new IllegalStateException(name, e);
            }
        }
        return classes;
    }

    private static Path toPath(final URL url) {
        try {
            return Path.of(url.toURI());
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(url.toString(), e);
        }
    }

    private static void addIfConfiguration(final String entry, final TreeSet<String> names) {
        if (entry.startsWith(BASE_PACKAGE) && entry.endsWith("Configuration.class") && !entry.contains("$")) {
            names.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
        }
    }

    /** The source file of a main class: {@code <module>/src/main/java/<package path>/<Name>.java}. */
    static Path sourceOf(final Path root, final Class<?> type) throws IOException {
        final String relative = "src/main/java/" + type.getName().replace('.', '/') + ".java";
        try (Stream<Path> modules = Files.list(root)) {
            return modules.map(m -> m.resolve(relative)).filter(Files::isRegularFile).findFirst()
                .orElseThrow(() -> new IllegalStateException("no source " + relative + " in any module of " + root));
        }
    }

    /** The settings one configuration class declares, in declaration order. */
    static List<Setting> settingsOf(final Class<?> type, final String source) {
        final Map<String, String> descriptions = new TreeMap<>();
        final Matcher m = JAVADOC_BEFORE_PROP.matcher(source);
        while (m.find()) {
            descriptions.put(m.group(2), oneLine(m.group(1)));
        }
        final List<Setting> settings = new ArrayList<>();
        for (final Field field : type.getDeclaredFields()) {
            if (!field.getName().endsWith(SUFFIX_PROP_NAME) || !isConstant(field)) {
                continue;
            }
            final String base = field.getName().substring(0, field.getName().length() - SUFFIX_PROP_NAME.length());
            final String property = (String) read(field);
            final Object defaultValue = defaultOf(type, base);
            final String description = descriptions.get(base);
            if (description == null || description.isEmpty()) {
                throw new IllegalStateException(type.getName() + "." + field.getName() + " has no javadoc to describe it");
            }
            settings.add(new Setting(property, renderDefault(defaultValue), unitOf(property, defaultValue), description));
        }
        return settings;
    }

    private static boolean isConstant(final Field field) {
        final int m = field.getModifiers();
        return Modifier.isStatic(m) && Modifier.isFinal(m) && Modifier.isPublic(m) && field.getType() == String.class;
    }

    private static Object defaultOf(final Class<?> type, final String base) {
        try {
            return read(type.getDeclaredField(base + SUFFIX_DEFAULT));
        } catch (final NoSuchFieldException e) {
            return null;
        }
    }

    private static Object read(final Field field) {
        try {
            return field.get(null);
        } catch (final IllegalAccessException e) {
            throw new IllegalStateException(field.toString(), e);
        }
    }

    /** A javadoc's text on one line: stars and tags gone, whitespace collapsed. */
    private static String oneLine(final String javadoc) {
        final StringBuilder text = new StringBuilder();
        for (final String line : javadoc.split("\n")) {
            text.append(line.strip().replaceFirst("^\\*\\s?", "")).append(' ');
        }
        final String flat = INLINE_TAG.matcher(text.toString()).replaceAll(r -> "`" + Matcher.quoteReplacement(
            r.group(1).replaceFirst("^#", "").replace('#', '.')) + "`");
        return flat.replaceAll("\\s+", " ").strip().replace("|", "\\|");
    }

    private static String renderDefault(final Object value) {
        if (value == null) {
            return "(unset)";
        }
        if (value instanceof String s) {
            return s.isEmpty() ? "(empty)" : "`" + s + "`";
        }
        return "`" + value + "`";
    }

    private static String unitOf(final String property, final Object defaultValue) {
        if (property.endsWith(".ms")) {
            return "ms";
        }
        if (property.endsWith(".ns")) {
            return "ns";
        }
        if (property.endsWith(".bytes")) {
            return "bytes";
        }
        if (property.endsWith(".chars")) {
            return "characters";
        }
        if (defaultValue instanceof Boolean) {
            return "boolean";
        }
        if (defaultValue instanceof Number) {
            return "number";
        }
        return "text";
    }

    /** The whole page, as it must read. */
    static String render(final Path root) throws IOException {
        final Map<String, List<Class<?>>> byModule = new TreeMap<>();
        final Map<Class<?>, List<Setting>> settings = new TreeMap<>(Comparator.comparing(Class::getName));
        for (final Class<?> type : configurationClasses()) {
            final Path source = sourceOf(root, type);
            final String module = root.relativize(source).getName(0).toString();
            byModule.computeIfAbsent(module, k -> new ArrayList<>()).add(type);
            settings.put(type, settingsOf(type, Files.readString(source, StandardCharsets.UTF_8)));
        }
        final StringBuilder page = new StringBuilder();
        page.append("# Settings\n\n")
            .append("<!-- Generated from the *Configuration classes by cli's SettingsPageTest; do not edit by hand.\n")
            .append("     Regenerate: mvn -B -o -pl cli -am test -Dtest=SettingsPageTest")
            .append(" -Dsurefire.failIfNoSpecifiedTests=false -Dsaccade.settings.write=true -->\n\n")
            .append("Every setting is a Java system property with a default. Give one to the CLI, and so to the\n")
            .append("owner, supervisor and input helper it starts, with `SACCADE_JAVA_OPTS`, for example\n")
            .append("`SACCADE_JAVA_OPTS=-Dsaccade.owner.max.clients=64 saccade serve`. Each module keeps its\n")
            .append("settings in one `*Configuration` class per package that reads them (names, defaults,\n")
            .append("getters); its `*Context` starts from those and checks them once in `conclude()`\n")
            .append("(docs/architecture.md, \"Configuration\"). The benchmark harnesses' own knobs\n")
            .append("(`saccade.bench.*`) are described in bench/README.md.\n");
        for (final Map.Entry<String, List<Class<?>>> module : byModule.entrySet()) {
            page.append("\n## ").append(module.getKey()).append('\n');
            for (final Class<?> type : module.getValue()) {
                page.append("\n### ").append(type.getSimpleName()).append(" (`").append(type.getPackageName())
                    .append("`)\n\n| Property | Default | Unit | Description |\n|---|---|---|---|\n");
                for (final Setting s : settings.get(type)) {
                    page.append("| `").append(s.property()).append("` | ").append(s.defaultValue()).append(" | ")
                        .append(s.unit()).append(" | ").append(s.description()).append(" |\n");
                }
            }
        }
        return page.toString();
    }

    /** Every property name the page documents. */
    static TreeSet<String> documented(final String page) {
        final TreeSet<String> names = new TreeSet<>();
        final Matcher m = Pattern.compile("^\\| `(saccade\\.[^`]+)`", Pattern.MULTILINE).matcher(page);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    static String read(final Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
