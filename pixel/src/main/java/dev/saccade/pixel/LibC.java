package dev.saccade.pixel;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The libc calls of the pixel source: the pipe and {@code poll()} its thread sleeps on, and
 * {@code setenv} for OpenMP's thread limit, which must be in the C environment before
 * libtesseract loads.
 */
final class LibC {
    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {
    }

    static native int pipe(int[] fds);

    static native int poll(Pointer fds, long count, int timeoutMs);

    static native long write(int fd, byte[] buffer, long count);

    static native int close(int fd);

    static native long read(int fd, byte[] buffer, long count);

    static native String getenv(String name);

    static native int setenv(String name, String value, int overwrite);
}
