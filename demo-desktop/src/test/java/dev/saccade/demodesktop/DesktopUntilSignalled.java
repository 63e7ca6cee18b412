package dev.saccade.demodesktop;

import java.util.concurrent.CountDownLatch;

/**
 * A JVM that starts a desktop and never closes it, like {@code saccade up} waiting for Ctrl-C:
 * only the shutdown hook can stop the desktop. Prints "ready", the display, the runtime dir and
 * the private directory, tab-separated, once the desktop is up.
 */
public final class DesktopUntilSignalled {
    private DesktopUntilSignalled() {
    }

    public static void main(final String[] args) throws InterruptedException {
        final TestDesktop desktop = TestDesktop.start(DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY);
        System.out.println("ready\t" + desktop.display() + "\t" + desktop.runtimeDir() + "\t" + desktop.directory());
        System.out.flush();
        new CountDownLatch(1).await();  // until the JVM is signalled
    }
}
