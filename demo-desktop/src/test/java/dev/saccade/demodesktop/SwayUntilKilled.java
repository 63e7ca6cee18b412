package dev.saccade.demodesktop;

import java.util.concurrent.CountDownLatch;

/**
 * A JVM that starts a sway session with a zenity and never closes it; prints "ready", the
 * session's runtime directory and its private directory, tab-separated, once it is up.
 */
public final class SwayUntilKilled {
    private SwayUntilKilled() {
    }

    public static void main(final String[] args) throws InterruptedException {
        final SwayDesktop desktop = SwayDesktop.start(800, 600, false);
        desktop.launch("zenity", false, "zenity", "--entry", "--title=Orphan");
        System.out.println("ready\t" + desktop.runtimeDirectory() + "\t" + desktop.directory().root());
        System.out.flush();
        new CountDownLatch(1).await();  // until the JVM is killed
    }
}
