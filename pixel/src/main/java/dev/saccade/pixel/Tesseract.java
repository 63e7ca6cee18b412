package dev.saccade.pixel;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * Every call into Debian's {@code libtesseract.so.5}: the C API ({@code tesseract/capi.h}), about
 * twenty functions, so no Leptonica binding and no -dev package are needed. Registered on first
 * use by {@link #load()}, after {@code OMP_THREAD_LIMIT} is set: OpenMP reads it once, when the
 * library loads, and its default of one thread per core makes a call ~9× slower on two cores.
 */
final class Tesseract {
    static final String LIBRARY = "libtesseract.so.5";
    // TessPageIteratorLevel
    static final int RIL_TEXTLINE = 2;
    static final int RIL_WORD = 3;
    // TessPageSegMode
    static final int PSM_SINGLE_BLOCK = 6;
    static final int PSM_SINGLE_LINE = 7;
    static final int PSM_SPARSE_TEXT = 11;

    private static Throwable loadFailure;
    private static boolean loaded;

    private Tesseract() {
    }

    /**
     * Loads the library once (OMP_THREAD_LIMIT=1 first unless the environment sets it).
     *
     * @return null, or why it cannot be used
     */
    static synchronized Throwable load() {
        if (!loaded) {
            loaded = true;
            try {
                if (LibC.getenv("OMP_THREAD_LIMIT") == null) {
                    LibC.setenv("OMP_THREAD_LIMIT", "1", 0);
                }
                Native.register(Tesseract.class, NativeLibrary.getInstance(LIBRARY));
            } catch (final Throwable t) {
                loadFailure = t;
            }
        }
        return loadFailure;
    }

    static native String TessVersion();

    static native Pointer TessBaseAPICreate();

    static native void TessBaseAPIDelete(Pointer api);

    static native int TessBaseAPIInit3(Pointer api, String dataPath, String language);

    static native void TessBaseAPIEnd(Pointer api);

    static native int TessBaseAPISetVariable(Pointer api, String name, String value);

    static native void TessBaseAPISetPageSegMode(Pointer api, int mode);

    static native void TessBaseAPISetImage(Pointer api, byte[] data, int width, int height, int bytesPerPixel,
        int bytesPerLine);

    static native void TessBaseAPISetSourceResolution(Pointer api, int ppi);

    static native int TessBaseAPIRecognize(Pointer api, Pointer monitor);

    static native void TessBaseAPIClear(Pointer api);

    static native Pointer TessBaseAPIGetIterator(Pointer api);

    static native Pointer TessResultIteratorGetPageIterator(Pointer iterator);

    static native int TessPageIteratorBoundingBox(Pointer iterator, int level, IntByReference left,
        IntByReference top, IntByReference right, IntByReference bottom);

    static native int TessPageIteratorIsAtBeginningOf(Pointer iterator, int level);

    static native Pointer TessResultIteratorGetUTF8Text(Pointer iterator, int level);

    static native float TessResultIteratorConfidence(Pointer iterator, int level);

    static native int TessResultIteratorNext(Pointer iterator, int level);

    static native void TessResultIteratorDelete(Pointer iterator);

    static native void TessDeleteText(Pointer text);

    static native Pointer TessMonitorCreate();

    static native void TessMonitorDelete(Pointer monitor);

    static native void TessMonitorSetDeadlineMSecs(Pointer monitor, int deadline);
}
