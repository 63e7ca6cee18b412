/**
 * The demo desktop: a real, private, headless Linux desktop that the demo command
 * {@code saccade up} and the tests start and stop themselves. {@link dev.saccade.demodesktop.TestDesktop} owns
 * every process of one desktop (Xvfb on a free display, a D-Bus session bus, openbox, the AT-SPI2
 * accessibility bus that D-Bus activates, and the {@link dev.saccade.demodesktop.DemoApp} GTK3,
 * zenity and Qt5 applications), a private 0700 directory for XDG_RUNTIME_DIR, caches, config,
 * HOME and logs, and the environment other processes need to join it; it waits for real readiness
 * (X client list, AT-SPI2 registry) rather than sleeping, and its close leaves no process, socket,
 * lock file or directory behind. {@link dev.saccade.demodesktop.SwayDesktop} is the same for a
 * headless sway session. This package ships in the product, so it has no JUnit; the JUnit 5
 * extension that gives a test class one desktop lives in the test-desktop module. It needs the
 * Debian packages xvfb, x11-utils, dbus-daemon, dbus-bin, openbox, at-spi2-core and
 * libatk-adaptor, and for the apps gtk-3-examples, zenity and qtbase5-examples (its own tests also
 * use xdotool); it talks to X and D-Bus through their command-line tools, so a dying X server
 * cannot take the JVM down with it.
 */
package dev.saccade.demodesktop;
