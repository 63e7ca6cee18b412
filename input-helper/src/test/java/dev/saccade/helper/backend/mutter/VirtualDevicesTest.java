package dev.saccade.helper.backend.mutter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The seat's pointer in the extension's window list (the list itself is GnomeDesktopTest's). */
class VirtualDevicesTest {
    @Test
    void thePointerAndItsModifiersAreReadFromTheWindowListAndAnOlderListHasNone() {
        assertArrayEquals(new int[] {-3, 640, 17}, VirtualDevices.pointer("{\"windows\":[],\"monitors\":[{\"x\":0,"
            + "\"y\":0,\"width\":1280,\"height\":800,\"primary\":true}],\"overview\":false,"
            + "\"pointer\":{\"px\":-3,\"py\":640,\"mods\":17}}"));
        assertNull(VirtualDevices.pointer("{\"windows\":[],\"monitors\":[],\"overview\":false}"));
    }
}
