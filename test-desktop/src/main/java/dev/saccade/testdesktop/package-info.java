/**
 * The test desktop: a real, private, headless Linux desktop that tests and the demo command
 * {@code saccade up} start and stop themselves. {@link dev.saccade.testdesktop.TestDesktop} owns
 * every process of one desktop (Xvfb on a free display, a D-Bus session bus, openbox, the AT-SPI2
 * accessibility bus that D-Bus activates, and the {@link dev.saccade.testdesktop.DemoApp} GTK3,
 * zenity and Qt5 applications), a private 0700 directory for XDG_RUNTIME_DIR, caches, config,
 * HOME and logs, and the environment other processes need to join it; it waits for real readiness
 * (X client list, AT-SPI2 registry) rather than sleeping, and its close leaves no process, socket,
 * lock file or directory behind. {@link dev.saccade.testdesktop.TestDesktopExtension} and
 * {@link dev.saccade.testdesktop.WithTestDesktop} give a JUnit 5 test class one desktop; JUnit is
 * an optional dependency, needed only by them. It needs the Debian packages xvfb, x11-utils,
 * dbus-daemon, dbus-bin, openbox, at-spi2-core and libatk-adaptor, and for the apps
 * gtk-3-examples, zenity and qtbase5-examples (its own tests also use xdotool); it talks to X and
 * D-Bus through their command-line tools, so a dying X server cannot take the JVM down with it.
 */
package dev.saccade.testdesktop;
