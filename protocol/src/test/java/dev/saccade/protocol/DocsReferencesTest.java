package dev.saccade.protocol;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the repository's references to its contracts honest (docs/architecture.md, "How code
 * cites the docs"). Scans every {@code *.java} under a module's {@code src/} and every
 * {@code *.md} outside {@code target/}, and reports, all at once, with file and line:
 * <ul>
 *   <li>text that points at the documents outside the repository this project was started from
 *       (the sibling directory named "shared", its "spec" and "seeds" folders, and its upper-case
 *       ARCHITECTURE, STYLE and NOTES documents);</li>
 *   <li>a {@code §} reference that does not name a numbered heading of the document it means: a
 *       bare {@code §5.8} means docs/spec/agent-abi.md; {@code mcp §8}, {@code mcp.md §8},
 *       {@code pcp §3}, {@code agent-abi.md §5.4} name the others; in a range or a list
 *       ({@code §4.1–§4.4}, {@code mcp.md §1, §2}) each member means the document of the first.</li>
 * </ul>
 */
class DocsReferencesTest {
    /**
     * Files excused from both checks because their references predate docs/ (a bare section
     * number that means a section of mcp.md, or a document outside the repository); none is left.
     * An entry whose file has no problem left, or no longer exists, fails the test, so the list
     * only shrinks.
     */
    static final Set<String> KNOWN_UNRESOLVED_UNTIL_REFERENCE_PASS = Set.of();

    /** The documents a {@code §} may name, by the word that names them. */
    private static final Map<String, String> DOCUMENTS = Map.of(
        "agent-abi", "docs/spec/agent-abi.md",
        "mcp", "docs/spec/mcp.md",
        "pcp", "docs/spec/pcp.md");

    private static final String BARE_DOCUMENT = "agent-abi";

    /** One reference: an optional document word right before it, then § and a section number. */
    private static final Pattern REFERENCE = Pattern.compile(
        "(?:\\b(agent-abi|mcp|pcp)(?:\\.md)?\\s*)?§\\s?([0-9]+(?:\\.[0-9]+)*)",
        Pattern.CASE_INSENSITIVE);

    /** What may stand between two members of a range or list so the second inherits the document. */
    private static final Pattern CHAIN = Pattern.compile("\\s*(?:,|;|–|—|-|/|\\band\\b|\\bor\\b|\\bto\\b)\\s*");

    /** A numbered heading: {@code ## 5. Semantics}, {@code ### 5.8 Per-action rules}. */
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+§?([0-9]+(?:\\.[0-9]+)*)\\.?(?:\\s|$)");

    /** Pointers at documents outside the repository. Spelled so that this file does not match itself. */
    private static final Pattern OUTSIDE = Pattern.compile(
        "\\.\\./shared\\b|\\bshared/(?:spec|seeds)\\b|/work/(?:shared)\\b"
            + "|\\bARCHITECTURE\\.md\\b|\\bSTYLE\\.md\\b|\\bNOTES-linux-desktop\\.md\\b"
            + "|(?<![\\w/-])seeds/[\\w-]+\\.md\\b");

    @Test
    void everyReferenceResolvesAndNothingPointsOutside() throws IOException {
        final Path root = repositoryRoot();
        final Map<String, Set<String>> headings = new HashMap<>();
        for (final Map.Entry<String, String> d : DOCUMENTS.entrySet()) {
            headings.put(d.getKey(), headingNumbers(root.resolve(d.getValue())));
        }

        final List<String> problems = new ArrayList<>();
        final Set<String> excusedWithProblems = new HashSet<>();
        int scanned = 0;
        for (final Path file : scannedFiles(root)) {
            scanned++;
            final String relative = root.relativize(file).toString().replace('\\', '/');
            final List<String> found = problems(file, relative, headings);
            if (KNOWN_UNRESOLVED_UNTIL_REFERENCE_PASS.contains(relative)) {
                if (!found.isEmpty()) {
                    excusedWithProblems.add(relative);
                }
            } else {
                problems.addAll(found);
            }
        }
        for (final String listed : new TreeSet<>(KNOWN_UNRESOLVED_UNTIL_REFERENCE_PASS)) {
            if (!excusedWithProblems.contains(listed)) {
                problems.add(listed + ": listed in KNOWN_UNRESOLVED_UNTIL_REFERENCE_PASS but has no unresolved"
                    + " reference (or does not exist): remove it from the list");
            }
        }
        assertTrue(scanned > 100, "the scan found only " + scanned + " files under " + root);
        assertTrue(!headings.get(BARE_DOCUMENT).isEmpty(), "docs/spec/agent-abi.md has no numbered heading");
        if (!problems.isEmpty()) {
            fail(problems.size() + " reference problem(s); a bare § means docs/spec/agent-abi.md, 'mcp §N' and"
                + " 'pcp §N' the others (docs/architecture.md, \"How code cites the docs\"):\n  "
                + String.join("\n  ", problems));
        }
    }

    @Test
    void theConventionResolvesRangesListsAndDocumentNames() {
        final Map<String, Set<String>> headings = Map.of(
            "agent-abi", Set.of("1", "1.3", "1.4", "4.1", "4.4", "5", "5.8"),
            "mcp", Set.of("1", "2", "8"),
            "pcp", Set.of("3"));
        // \u00a7 is the section sign, escaped so that this file's own scan does not read these lines.
        assertEquals(List.of(), unresolved("see \u00a75.8 rule C and \u00a71.3, \u00a71.4; \u00a74.1\u2013\u00a74.4", headings));
        assertEquals(List.of(), unresolved("mcp.md \u00a71, \u00a72 row 1; MCP \u00a78; pcp \u00a73; agent-abi.md \u00a75.", headings));
        assertEquals(List.of("\u00a78"), unresolved("a bare \u00a78 is unresolved", headings));
        assertEquals(List.of("mcp \u00a75.8"), unresolved("mcp.md \u00a71\u2013\u00a75.8", headings));
        assertEquals(List.of("\u00a72", "\u00a79"), unresolved("\u00a72 and \u00a79 and mcp \u00a72", headings));
        assertEquals(List.of("pcp \u00a71"), unresolved("pcp.md \u00a71", headings));
        assertTrue(OUTSIDE.matcher("see " + "..".concat("/shared/") + "spec/mcp.md").find());
        assertTrue(OUTSIDE.matcher("see " + "ARCHITECTURE" + ".md").find());
        assertTrue(OUTSIDE.matcher("the protocol of " + "seeds" + "/pcp-core-messages.md").find());
        assertTrue(!OUTSIDE.matcher("ipc-shared/src/main and docs/architecture.md").find());
    }

    private static void assertEquals(final List<String> expected, final List<String> actual) {
        org.junit.jupiter.api.Assertions.assertEquals(expected, actual);
    }

    private static List<String> problems(final Path file, final String relative, final Map<String, Set<String>> headings) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i);
            final Matcher outside = OUTSIDE.matcher(line);
            while (outside.find()) {
                out.add(relative + ":" + (i + 1) + ": points outside the repository ('" + outside.group()
                    + "'): cite docs/ instead: " + line.strip());
            }
            for (final String ref : unresolved(line, headings)) {
                out.add(relative + ":" + (i + 1) + ": " + ref + " names no heading: " + line.strip());
            }
        }
        return out;
    }

    /** The references of one line that name no heading, as "§N" (bare) or "mcp §N". */
    static List<String> unresolved(final String line, final Map<String, Set<String>> headings) {
        final List<String> out = new ArrayList<>();
        final Matcher m = REFERENCE.matcher(line);
        String previousDocument = null;
        int previousEnd = -1;
        while (m.find()) {
            final String named = m.group(1);
            final String document;
            if (named != null) {
                document = named.toLowerCase(Locale.ROOT);
            } else if (previousDocument != null && CHAIN.matcher(line.substring(previousEnd, m.start())).matches()) {
                document = previousDocument;
            } else {
                document = BARE_DOCUMENT;
            }
            final String number = m.group(2);
            if (!headings.getOrDefault(document, Set.of()).contains(number)) {
                out.add((document.equals(BARE_DOCUMENT) && named == null ? "" : document + " ") + "§" + number);
            }
            previousDocument = document;
            previousEnd = m.end();
        }
        return out;
    }

    /** Section numbers of the numbered headings of a Markdown document (none if it is missing). */
    static Set<String> headingNumbers(final Path document) throws IOException {
        final Set<String> numbers = new HashSet<>();
        if (!Files.isRegularFile(document)) {
            return numbers;
        }
        boolean fenced = false;
        for (final String line : Files.readAllLines(document, StandardCharsets.UTF_8)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            final Matcher h = HEADING.matcher(line);
            if (!fenced && h.find()) {
                numbers.add(h.group(1));
            }
        }
        return numbers;
    }

    /** Every {@code *.java} under a {@code src/} folder and every {@code *.md}, outside build output and dot folders. */
    private static List<Path> scannedFiles(final Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile)
                .filter(p -> {
                    final Path rel = root.relativize(p);
                    for (final Path part : rel) {
                        final String s = part.toString();
                        if (s.equals("target") || s.equals("node_modules") || s.startsWith(".")) {
                            return false;
                        }
                    }
                    final String name = p.getFileName().toString();
                    if (name.endsWith(".md")) {
                        return true;
                    }
                    return name.endsWith(".java") && rel.getNameCount() > 2 && rel.getName(1).toString().equals("src");
                })
                .sorted()
                .collect(Collectors.toList());
        }
    }

    /** The directory holding both the root pom.xml and docs/, found by walking up from user.dir. */
    private static Path repositoryRoot() {
        Path p = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        while (p != null) {
            if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("docs"))) {
                return p;
            }
            p = p.getParent();
        }
        throw new IllegalStateException("no directory with pom.xml and docs/ above " + System.getProperty("user.dir"));
    }
}
