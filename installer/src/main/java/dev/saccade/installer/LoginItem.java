package dev.saccade.installer;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The file that makes the platform start {@code saccade supervisor run} at login, and the
 * commands that switch it on and off (which the platform's own tool runs, not us, except
 * {@code systemctl --user} on Linux).
 */
public interface LoginItem {
    /** The file's text. */
    String text();

    /** How the text is stored: UTF-8, except the task XML, which {@code schtasks} wants in UTF-16. */
    default Charset charset() {
        return StandardCharsets.UTF_8;
    }

    /** The file's bytes as written. */
    default byte[] bytes() {
        return text().getBytes(charset());
    }

    /** The one command that registers and starts the item. */
    List<String> enableCommand();

    /** The one command that stops and unregisters it. */
    List<String> disableCommand();

    /** The generator for the layout's platform. */
    static LoginItem of(final InstallLayout layout, final String version) {
        switch (layout.platform()) {
            case LINUX:
                return new SystemdUserUnit(layout, version);
            case MACOS:
                return new LaunchAgentPlist(layout, version);
            case WINDOWS:
                return new LogonTaskXml(layout, version, System.getenv());
            default:
                throw new IllegalArgumentException(layout.platform().toString());
        }
    }

    /**
     * A command as one line to paste into the platform's shell (POSIX sh here; cmd.exe for the
     * task): words with blanks or quotes are quoted, and a {@code $(id -u)} is left for the shell
     * to expand.
     */
    default String commandLine(final List<String> command) {
        final StringBuilder line = new StringBuilder();
        for (final String word : command) {
            if (line.length() > 0) {
                line.append(' ');
            }
            if (word.matches("[A-Za-z0-9_./:=@%+-]+")) {
                line.append(word);
            } else if (word.matches("[A-Za-z0-9_./:=@%+ -]*\\$\\(id -u\\)[A-Za-z0-9_./:=@%+ -]*")) {
                line.append('"').append(word).append('"'); // double quotes: the shell still substitutes
            } else {
                line.append('\'').append(word.replace("'", "'\\''")).append('\'');
            }
        }
        return line.toString();
    }

    /** Text escaped for an XML element or attribute value. */
    static String xml(final String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
