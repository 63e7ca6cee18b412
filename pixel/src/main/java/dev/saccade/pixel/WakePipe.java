package dev.saccade.pixel;

/**
 * The pipe that wakes the pixel thread out of its capture's {@code poll()} (a new desktop, a new
 * tree, close), whichever platform the capture is on.
 */
final class WakePipe {
    private WakePipe() {
    }

    static int[] open() {
        final int[] fds = new int[2];
        if (LibC.pipe(fds) != 0) {
            throw new IllegalStateException("pipe() failed");
        }
        return fds;
    }

    static void wake(final int writeFd) {
        LibC.write(writeFd, new byte[] {1}, 1);
    }

    static void close(final int fd) {
        LibC.close(fd);
    }
}
