package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.atspi.AtspiDiagnostics;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetState;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * LibreOffice's documents through their targets (D49): Calc's visible cells are TABLE_CELL targets
 * read without listing the sheet, and a value typed into cell B2 by its target lands in B2 of the
 * saved sheet (exported to CSV by soffice itself). The pointer has not been over Calc's window
 * before that click, so Calc's extents are those it gave before it learnt where its window is: the
 * click lands in B2 only because it aims again once the pointer is there (D54).
 */
@WithTestDesktop(apps = {})
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LibreOfficeDocumentsDesktopTest extends OwnedDesktopTest {
    /** A sheet with "name" in A1 and B2 empty. */
    static final String SHEET = """
        <?xml version="1.0" encoding="UTF-8"?>
        <office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
          xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
          xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
          office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
         <office:body><office:spreadsheet><table:table table:name="Sheet1">
          <table:table-column table:number-columns-repeated="2"/>
          <table:table-row><table:table-cell office:value-type="string"><text:p>name</text:p></table:table-cell>
           <table:table-cell/></table:table-row>
         </table:table></office:spreadsheet></office:body>
        </office:document>
        """;

    @Test
    void aCellTakesAValueByItsTarget() throws Exception {
        final Path dir = Files.createTempDirectory("saccade-lo-docs-");
        final Path sheet = Files.writeString(dir.resolve("sheet.fods"), SHEET.strip());
        final Path profile = dir.resolve("profile");
        final Process soffice = soffice(profile, sheet.toString());
        try {
            final long pid = Await.value(() -> window(desktop, soffice, "sheet", "Calc"), p -> p > 0, Duration.ofSeconds(180),
                none -> "a Calc window of soffice.bin under " + soffice.pid());
            final AccessibilityNode b2 = SwingDesktopTest.node(owner, pid, n -> n.role() == Role.TABLE_CELL && "B2".equals(n.name()), "cell B2");
            final AccessibilityNode a1 = SwingDesktopTest.node(owner, pid, n -> n.role() == Role.TABLE_CELL && "A1".equals(n.name()), "cell A1");
            assertEquals("name", a1.text(), "A1's text, read from soffice");
            assertTrue(b2.hasCapability(TargetCapability.CLICK), b2.toString());
            final long cells = owner.service.accessibility().latest().nodes().stream()
                .filter(n -> n.pid() == pid && n.role() == Role.TABLE_CELL).count();
            assertTrue(cells <= 400, "cells read: " + cells);
            // The sheet is always cut by design (D47): read so, soffice is not read again until it
            // says something changed, where a retry of every cut read re-read it whole every 8 s.
            Await.probe(() -> sofficeApp(pid), a -> a != null && a.fullReads() > 0 && a.retries() == 0,
                Duration.ofSeconds(60), a -> "soffice read as designed, with no re-read scheduled: " + a);
            final long b2Id = SwingDesktopTest.inScene(client, b2);
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.CLICK).targetId(b2Id).buttonBits(Button.LEFT), 0), "click B2");
            key(0x21, 0, "4");
            key(0x1F, 0, "2");
            key(0x28, 0, "Enter");
            final long saved = Files.getLastModifiedTime(sheet).toMillis();
            key(0x16, Modifier.CONTROL, "ctrl+s");
            Await.probe(() -> Files.getLastModifiedTime(sheet).toMillis(), t -> t != saved, Duration.ofSeconds(60),
                t -> "Calc to save " + sheet);
        } finally {
            stop(soffice);
        }
        try {
            final Process convert = desktop.configure(new ProcessBuilder("/usr/lib/libreoffice/program/soffice",
                "--headless", "--norestore", "-env:UserInstallation=" + dir.resolve("convert").toUri(),
                "--convert-to", "csv", "--outdir", dir.toString(), sheet.toString()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            assertTrue(convert.waitFor(120, TimeUnit.SECONDS), "soffice --convert-to csv");
            final List<String> rows = Files.readAllLines(dir.resolve("sheet.csv"), StandardCharsets.UTF_8);
            assertEquals("name,", rows.get(0), String.join("\n", rows));
            assertEquals(",42", rows.get(1), "row 2 of the saved sheet: " + String.join("\n", rows));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @Test
    void aParagraphOfWriterTakesTypedAndFilledTextThatIsSaved() throws Exception {
        final Path dir = Files.createTempDirectory("saccade-lo-writer-");
        final Path letter = Files.writeString(dir.resolve("letter.txt"), "");
        final Path profile = dir.resolve("profile");
        keepForeignFormats(profile);
        final Process soffice = soffice(profile, letter.toString());
        try {
            final long pid = Await.value(() -> window(desktop, soffice, "letter.txt", "Writer"), p -> p > 0, Duration.ofSeconds(180),
                none -> "a Writer window of soffice.bin under " + soffice.pid());
            // the body manages its descendants, yet its paragraphs on screen are read (D59)
            final AccessibilityNode body = SwingDesktopTest.node(owner, pid,
                n -> n.role() == Role.TEXT_FIELD && "LibreOffice Document".equals(n.name()), "Writer's document body");
            final AccessibilityNode paragraph = SwingDesktopTest.node(owner, pid,
                n -> n.parentId() == body.targetId() && n.role() == Role.TEXT_FIELD, "a paragraph in the body");
            assertTrue(paragraph.hasCapability(TargetCapability.TEXT), paragraph.toString());
            final long id = SwingDesktopTest.inScene(client, paragraph);
            final String sentence = "Agents write letters too.";
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, sentence.getBytes(StandardCharsets.UTF_8),
                a -> a.kind(ActionKind.TEXT).targetId(id).buttonBits(Button.LEFT), 0), "TEXT into the paragraph");
            // what soffice reports of its paragraph: the text typed, and the caret's focus (keys go there)
            SwingDesktopTest.node(owner, pid, n -> n.targetId() == id && sentence.equals(n.text())
                && n.hasState(TargetState.FOCUSED), "the paragraph, focused, holding the sentence");
            save(letter, sentence);
            final String filled = "Saccade reads what the application shows and acts on it. ".repeat(12).trim();
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, filled.getBytes(StandardCharsets.UTF_8),
                a -> a.kind(ActionKind.TEXT).flags(ActionFlag.FILL).targetId(id).buttonBits(Button.LEFT), 0),
                "FILL into the paragraph, read back by soffice");
            save(letter, filled);
        } finally {
            stop(soffice);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** Ctrl+S to the focused document; then the file must hold {@code text} (Writer's plain text adds a BOM and a line end). */
    private void save(final Path file, final String text) throws Exception {
        key(0x16, Modifier.CONTROL, "ctrl+s");
        Await.probe(() -> Files.readString(file, StandardCharsets.UTF_8).replace("\uFEFF", "").strip(), text::equals,
            Duration.ofSeconds(60),
            got -> "Writer to save " + text + " in " + file + "; it holds " + got);
    }

    /** A new profile that saves plain text without asking whether to keep the format. */
    private static void keepForeignFormats(final Path profile) throws java.io.IOException {
        final Path user = Files.createDirectories(profile.resolve("user"));
        Files.writeString(user.resolve("registrymodifications.xcu"), """
            <?xml version="1.0" encoding="UTF-8"?>
            <oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
             xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
            <item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="WarnAlienFormat" oor:op="fuse">\
            <value>false</value></prop></item>
            </oor:items>
            """);
    }

    private static List<String> sofficeArgs(final Path profile, final String file) {
        // the launcher, not soffice.bin: a new profile makes soffice.bin exit for a restart, which
        // the launcher's oosplash does
        return List.of("/usr/lib/libreoffice/program/soffice", "--norestore", "--nologo", "--nofirststartwizard",
            "-env:UserInstallation=" + profile.toUri(), file);
    }

    private Process soffice(final Path profile, final String file) throws Exception {
        final ProcessBuilder builder = desktop.configure(new ProcessBuilder(sofficeArgs(profile, file)))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("SAL_USE_VCLPLUGIN", "gtk3");
        return builder.start();
    }

    /**
     * The pid of the soffice.bin under {@code launcher} that shows document {@code name} in
     * {@code module}'s window, else 0 (the first soffice.bin of a new profile exits for a restart).
     */
    static long window(final TestDesktop desktop, final Process launcher, final String name, final String module) {
        final long[] found = launcher.descendants()
            .filter(p -> p.info().command().orElse("").endsWith("soffice.bin")).mapToLong(ProcessHandle::pid).toArray();
        for (final long pid : found) {
            for (final String title : new String[] {name + ".fo" + (module.equals("Calc") ? "ds" : "dt"), name}) {
                try {
                    desktop.awaitWindow(pid, title + " - LibreOffice " + module, 300);
                    return pid;
                } catch (final dev.saccade.demodesktop.TestDesktopException notYet) {
                    // reason: no such window yet; the wait around asks again
                }
            }
        }
        return 0;
    }

    static void stop(final Process soffice) throws InterruptedException {
        soffice.descendants().forEach(ProcessHandle::destroy);
        soffice.destroy();
        if (!soffice.waitFor(20, TimeUnit.SECONDS)) {
            soffice.descendants().forEach(ProcessHandle::destroyForcibly);
            soffice.destroyForcibly();
        }
    }

    private void key(final int usage, final int modifiers, final String what) throws Exception {
        FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(
            modifiers == 0 ? ActionKind.KEY : ActionKind.KEY_CHORD).keyUsage(usage).modifiers(modifiers), 0), what);
    }

    /** soffice's application in the AT-SPI source, or null before it is known. */
    private AtspiDiagnostics.App sofficeApp(final long pid) {
        return owner.service.accessibility().diagnostics().applications().stream().filter(a -> a.pid() == pid)
            .findFirst().orElse(null);
    }
}
