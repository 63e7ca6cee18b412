package dev.saccade.pixel;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The libc calls of the pixel source: the shared segment capture reads through, the pipe and
 * {@code poll()} its thread sleeps on, and {@code setenv} for OpenMP's thread limit, which must
 * be in the C environment before libtesseract loads.
 */
final class LibC {
    static final int IPC_PRIVATE = 0;
    static final int IPC_CREAT = 01000;
    static final int IPC_RMID = 0;

    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {
    }

    static native int shmget(int key, long size, int flags);

    static native Pointer shmat(int id, Pointer address, int flags);

    static native int shmdt(Pointer address);

    static native int shmctl(int id, int command, Pointer buffer);

    static native int pipe(int[] fds);

    static native int poll(Pointer fds, long count, int timeoutMs);

    static native long write(int fd, byte[] buffer, long count);

    static native int close(int fd);

    static native long read(int fd, byte[] buffer, long count);

    static native String getenv(String name);

    static native int setenv(String name, String value, int overwrite);
}
