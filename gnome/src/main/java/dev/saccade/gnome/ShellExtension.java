package dev.saccade.gnome;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Saccade's GNOME Shell extension (docs/desktops/gnome.md, D34): GNOME Shell 43 closed its
 * {@code Eval} to all but unsafe mode, and mutter lists no windows to clients, so a few lines of
 * JavaScript inside the shell export the window list, window activation and a screenshot as
 * {@code dev.saccade.Shell1} at {@value #OBJECT_PATH} on {@code org.gnome.Shell}. Its files ship
 * as resources of this module; {@link #install} writes them where the shell looks for the
 * user's extensions.
 */
public final class ShellExtension {
    public static final String UUID = "saccade@saccade.dev";
    public static final String OBJECT_PATH = "/dev/saccade/Shell";
    public static final String INTERFACE = "dev.saccade.Shell1";
    private static final List<String> FILES = List.of("metadata.json", "extension.js");

    private ShellExtension() {
    }

    /** The extension's files by name, from this module's resources. */
    public static Map<String, String> files() {
        final Map<String, String> files = new LinkedHashMap<>();
        for (final String name : FILES) {
            try (InputStream in = ShellExtension.class.getResourceAsStream("extension/" + name)) {
                if (in == null) {
                    throw new IllegalStateException("the extension's " + name + " is missing from the jar");
                }
                files.put(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (final IOException e) {
                throw new IllegalStateException("cannot read the extension's " + name, e);
            }
        }
        return files;
    }

    /**
     * Writes the extension under {@code dataHome/gnome-shell/extensions/UUID} (the user's
     * {@code XDG_DATA_HOME}, usually {@code ~/.local/share}), directories 0700, and returns its directory.
     * A running shell loads it after the next login (Wayland sessions cannot restart the shell).
     */
    public static Path install(final Path dataHome) throws IOException {
        final Path directory = dataHome.resolve("gnome-shell").resolve("extensions").resolve(UUID);
        Files.createDirectories(directory);
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
        for (final Map.Entry<String, String> file : files().entrySet()) {
            Files.writeString(directory.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
        }
        return directory;
    }
}
