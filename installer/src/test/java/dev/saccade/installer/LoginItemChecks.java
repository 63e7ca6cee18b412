package dev.saccade.installer;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The checks every generated login item must pass, shared by the installer's tests and the CLI's
 * {@code install --dry-run} tests: the real {@code systemd-analyze verify --user} on the unit,
 * the JDK's XML parser on the plist, and the JDK's XSD validator with our subset of the Task
 * Scheduler schema ({@code task-subset.xsd}) on the task XML.
 */
public final class LoginItemChecks {
    public static final String TASK_SUBSET_XSD = "task-subset.xsd";

    private LoginItemChecks() {
    }

    /** What {@code systemd-analyze verify} said. */
    public record Verdict(int exitCode, String stdout, String stderr) {
    }

    /**
     * Runs {@code systemd-analyze verify --user unit} with {@code HOME=home} (so {@code %h} is that
     * home) and {@code XDG_RUNTIME_DIR} a fresh 0700 directory under {@code scratch}. Fails with a
     * pointer to scripts/install-deps when systemd-analyze is missing: tests install nothing.
     */
    public static Verdict systemdAnalyzeVerify(final Path unit, final Path home, final Path scratch) throws Exception {
        final Path analyze = Path.of("/usr/bin/systemd-analyze");
        if (!Files.isExecutable(analyze) && !Files.isExecutable(Path.of("/bin/systemd-analyze"))) {
            throw new AssertionError("systemd-analyze is not installed: run scripts/install-deps (Debian package systemd)");
        }
        final Path runtime = Files.createTempDirectory(scratch, "xdg-runtime");
        Files.setPosixFilePermissions(runtime, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        final Path out = scratch.resolve("verify.out");
        final Path err = scratch.resolve("verify.err");
        final ProcessBuilder pb = new ProcessBuilder("systemd-analyze", "verify", "--user", unit.toString())
            .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        pb.environment().remove("SYSTEMD_LOG_LEVEL");
        final Process process = pb.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("systemd-analyze verify did not finish in 60 s");
        }
        return new Verdict(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** The unit file's sections as ordered key to value maps (a repeated key keeps its last value). */
    public static Map<String, Map<String, String>> unitSections(final String text) {
        final Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        Map<String, String> section = null;
        for (final String raw : text.split("\n")) {
            final String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                section = sections.computeIfAbsent(line.substring(1, line.length() - 1), k -> new LinkedHashMap<>());
            } else {
                final int eq = line.indexOf('=');
                if (section == null || eq < 0) {
                    throw new AssertionError("not a key=value line in a section: " + raw);
                }
                section.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return sections;
    }

    /**
     * The plist's top-level dict as Java values: {@code String}, {@code Long}, {@code Boolean},
     * {@code List} and {@code Map}. The DTD named in the DOCTYPE is not fetched.
     */
    public static Map<String, Object> plist(final byte[] bytes) throws Exception {
        final Document doc = parse(bytes, false);
        final Element root = doc.getDocumentElement();
        if (!"plist".equals(root.getTagName()) || !"1.0".equals(root.getAttribute("version"))) {
            throw new AssertionError("root is not <plist version=\"1.0\">");
        }
        final List<Element> children = elements(root);
        if (children.size() != 1 || !"dict".equals(children.get(0).getTagName())) {
            throw new AssertionError("plist does not hold exactly one dict");
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> dict = (Map<String, Object>) plistValue(children.get(0));
        return dict;
    }

    private static Object plistValue(final Element e) {
        switch (e.getTagName()) {
            case "string":
                return e.getTextContent();
            case "integer":
                return Long.parseLong(e.getTextContent().strip());
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            case "array": {
                final List<Object> list = new ArrayList<>();
                for (final Element child : elements(e)) {
                    list.add(plistValue(child));
                }
                return list;
            }
            case "dict": {
                final Map<String, Object> map = new LinkedHashMap<>();
                final List<Element> children = elements(e);
                if (children.size() % 2 != 0) {
                    throw new AssertionError("dict with a key and no value");
                }
                for (int i = 0; i < children.size(); i += 2) {
                    if (!"key".equals(children.get(i).getTagName())) {
                        throw new AssertionError("dict entry without <key>: " + children.get(i).getTagName());
                    }
                    if (map.put(children.get(i).getTextContent(), plistValue(children.get(i + 1))) != null) {
                        throw new AssertionError("duplicate key " + children.get(i).getTextContent());
                    }
                }
                return map;
            }
            default:
                throw new AssertionError("not a plist value element: " + e.getTagName());
        }
    }

    /** Parses the task XML (namespace aware) and validates it against the schema subset; throws when invalid. */
    public static Document taskXml(final byte[] bytes) throws Exception {
        final Document doc = parse(bytes, true);
        final SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        final URL xsd = LoginItemChecks.class.getResource(TASK_SUBSET_XSD);
        if (xsd == null) {
            throw new AssertionError(TASK_SUBSET_XSD + " is not on the test classpath");
        }
        final Schema schema = factory.newSchema(xsd);
        schema.newValidator().validate(new DOMSource(doc));
        return doc;
    }

    /** The text of the single element at the slash-separated path of local names below the root. */
    public static String text(final Document doc, final String path) {
        Element e = doc.getDocumentElement();
        for (final String name : path.split("/")) {
            Element found = null;
            for (final Element child : elements(e)) {
                if (name.equals(child.getLocalName())) {
                    if (found != null) {
                        throw new AssertionError("two " + name + " elements at " + path);
                    }
                    found = child;
                }
            }
            if (found == null) {
                throw new AssertionError("no element " + path);
            }
            e = found;
        }
        return e.getTextContent().strip();
    }

    private static Document parse(final byte[] bytes, final boolean namespaces) throws Exception {
        final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(namespaces);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        final DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(new DefaultHandler() {
            @Override
            public void warning(final org.xml.sax.SAXParseException e) throws SAXException {
                throw e;
            }

            @Override
            public void error(final org.xml.sax.SAXParseException e) throws SAXException {
                throw e;
            }
        });
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            return builder.parse(in);
        }
    }

    private static List<Element> elements(final Element parent) {
        final List<Element> list = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                list.add((Element) n);
            } else if (n.getNodeType() == Node.TEXT_NODE && !n.getTextContent().isBlank()) {
                throw new AssertionError("stray text in <" + parent.getTagName() + ">: " + n.getTextContent().strip());
            }
        }
        return list;
    }

    /** Reads a file as UTF-8 text. */
    public static String utf8(final Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
