package dev.saccade.ipc.link;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * Every libc call of the link's alive lock ({@link OwnerAliveLock}): a robust, process-shared
 * pthread mutex at an address inside the shared mapping. "Robust" is what makes it a death
 * notice: the kernel walks a dying thread's robust list as the thread exits (before its address
 * space is torn down), marks each mutex it held OWNER_DIED and wakes one waiter, whose lock call
 * returns {@link #EOWNERDEAD}. Linux and glibc 2.30 or newer ({@code pthread_mutex_clocklock});
 * {@link #available()} says whether this process has them.
 */
final class RobustMutex {
    static final int OK = 0;
    static final int ETIMEDOUT = 110;
    static final int EOWNERDEAD = 130;
    private static final int PTHREAD_PROCESS_SHARED = 1;
    private static final int PTHREAD_MUTEX_ROBUST = 1;
    private static final int CLOCK_MONOTONIC = 1;
    private static final boolean AVAILABLE = register();

    private RobustMutex() {
    }

    private static boolean register() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return false;
        }
        try {
            Native.register(RobustMutex.class, NativeLibrary.getInstance("c"));
            return true;
        } catch (final LinkageError e) {
            return false; // no glibc, or one without pthread_mutex_clocklock: the lifeline alone
        }
    }

    static boolean available() {
        return AVAILABLE;
    }

    /** Initialises the mutex at {@code address}: process-shared and robust. */
    static int init(final long address) {
        final Memory attr = new Memory(64); // pthread_mutexattr_t is 4 bytes on glibc
        int rc = pthread_mutexattr_init(attr);
        if (rc == OK) {
            rc = pthread_mutexattr_setpshared(attr, PTHREAD_PROCESS_SHARED);
        }
        if (rc == OK) {
            rc = pthread_mutexattr_setrobust(attr, PTHREAD_MUTEX_ROBUST);
        }
        if (rc == OK) {
            rc = pthread_mutex_init(new Pointer(address), attr);
        }
        pthread_mutexattr_destroy(attr);
        return rc;
    }

    static int lock(final long address) {
        return pthread_mutex_lock(new Pointer(address));
    }

    /**
     * Waits for the mutex until {@code deadlineNs} on CLOCK_MONOTONIC (Java's {@code nanoTime}
     * on Linux): {@link #OK}, {@link #EOWNERDEAD} (its holder died; we hold it now, inconsistent)
     * or {@link #ETIMEDOUT}.
     */
    static int lockUntil(final long address, final long deadlineNs, final Memory timespec) {
        timespec.setLong(0, deadlineNs / 1_000_000_000L);
        timespec.setLong(Long.BYTES, deadlineNs % 1_000_000_000L);
        return pthread_mutex_clocklock(new Pointer(address), CLOCK_MONOTONIC, timespec);
    }

    /** After {@link #EOWNERDEAD}: the mutex may be locked and unlocked normally again. */
    static int consistent(final long address) {
        return pthread_mutex_consistent(new Pointer(address));
    }

    static int unlock(final long address) {
        return pthread_mutex_unlock(new Pointer(address));
    }

    private static native int pthread_mutexattr_init(Pointer attr);

    private static native int pthread_mutexattr_setpshared(Pointer attr, int shared);

    private static native int pthread_mutexattr_setrobust(Pointer attr, int robust);

    private static native int pthread_mutexattr_destroy(Pointer attr);

    private static native int pthread_mutex_init(Pointer mutex, Pointer attr);

    private static native int pthread_mutex_lock(Pointer mutex);

    private static native int pthread_mutex_clocklock(Pointer mutex, int clock, Pointer timespec);

    private static native int pthread_mutex_consistent(Pointer mutex);

    private static native int pthread_mutex_unlock(Pointer mutex);
}
