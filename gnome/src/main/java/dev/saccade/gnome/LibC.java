package dev.saccade.gnome;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/** The libc call of this package: the {@code poll()} the capture sleeps on the pixel source's wake pipe in. */
final class LibC {
    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {
    }

    static native int poll(Pointer fds, long count, int timeoutMs);
}
