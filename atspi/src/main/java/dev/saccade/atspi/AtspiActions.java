package dev.saccade.atspi;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlag;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.types.UInt32;

/**
 * The action side of the AT-SPI2 source: invoke, read text, set text, set value and select, each
 * a short chain of pipelined calls whose replies complete a future on a dbus-java thread, so the
 * caller (the owner thread, PCP) never waits on an application. Kept apart from the refresh
 * passes: it shares only the bus and tells the source which application it changed.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
final class AtspiActions {
    /** AT-SPI2's editable-text interface (PCP set_value). */
    static final String EDITABLE_TEXT = "org.a11y.atspi.EditableText";

    /** AT-SPI2's value interface (PCP set_value on a slider or spin button). */
    static final String VALUE = "org.a11y.atspi.Value";

    /** AT-SPI2's selection interface (PCP select). */
    static final String SELECTION = "org.a11y.atspi.Selection";
    /**
     * How many containers up {@link AtspiSource#selectInParent} looks for one that implements
     * Selection: a GTK 3 tree row's text is a renderer cell inside the row's cell, which is the
     * tree's child.
     */
    static final int MAX_SELECTION_LEVELS = 3;

    /** The source's bus connection, or null while there is none. */
    private final Supplier<AtspiBus> bus;
    /** Told the bus name of each application an action changed, so it is refreshed without waiting for events. */
    private final Consumer<String> changed;
    private final int maxTextChars;

    AtspiActions(final Supplier<AtspiBus> bus, final Consumer<String> changed, final int maxTextChars) {
        this.bus = bus;
        this.changed = changed;
        this.maxTextChars = maxTextChars;
    }

    /** {@link AtspiSource#invoke(AccessibilityNode, long)}. */
    CompletableFuture<Integer> invoke(final AccessibilityNode node, final long deadlineNs) {
        if (node.hasFlag(TargetFlag.SECURE)) {
            // Typing into a password field is the agent's business; pressing it "activates" it,
            // which in GTK submits the dialog. Refuse rather than guess.
            return CompletableFuture.completedFuture(ResultCode.PLATFORM_PERMISSION);
        }
        return invoke(node.busName(), node.objectPath(), 0, deadlineNs);
    }

    /** {@link AtspiSource#invoke(String, String, int, long)}. */
    CompletableFuture<Integer> invoke(
        final String busName, final String objectPath, final int actionIndex, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = bus.get();
        if (b == null || !b.isConnected()) {
            result.complete(ResultCode.PLATFORM_BACKEND);
            return result;
        }
        final long remainingNs = deadlineNs - System.nanoTime();
        if (remainingNs <= 0) {
            result.complete(ResultCode.PLATFORM_TIMEOUT);
            return result;
        }
        result.completeOnTimeout(ResultCode.PLATFORM_TIMEOUT, remainingNs, TimeUnit.NANOSECONDS);
        final Reply.Sink onDone = call -> {
            if (call.failed()) {
                result.complete(platformCode(call.errorName()));
                return;
            }
            result.complete(Boolean.TRUE.equals(call.value()) ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_BACKEND);
            // The action changed something (or will): refresh the application without waiting for its events.
            changed.accept(busName);
        };
        final Reply.Sink onCount = call -> {
            if (result.isDone()) {
                return;
            }
            if (call.failed()) {
                result.complete(platformCode(call.errorName()));
                return;
            }
            final long count = AtspiCall.asLong(call.value(), 0);
            if (count <= actionIndex) {
                result.complete(ResultCode.PLATFORM_UNSUPPORTED);
                return;
            }
            sendOrFail(result, b, busName, objectPath, AtspiBus.ACTION, "DoAction", "i", onDone, actionIndex);
        };
        // NActions first: DoAction on an object without that action just answers false.
        sendOrFail(result, b, busName, objectPath, AtspiBus.PROPERTIES, "Get", "ss", onCount, AtspiBus.ACTION, "NActions");
        return result;
    }

    /**
     * {@link AtspiSource#focusState}: {@code Accessible.GetState} asked now, not the snapshot's
     * states, which are as old as the last refresh; the answer's FOCUSABLE and FOCUSED bits
     * ({@link AtspiSource#FOCUSABLE}, {@link AtspiSource#FOCUSED}).
     */
    CompletableFuture<Integer> focusState(final AccessibilityNode node, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b == null) {
            return result;
        }
        final Reply.Sink onState = call -> {
            if (call.failed()) {
                result.complete(platformCode(call.errorName()));
                return;
            }
            final long low = AtspiCall.element(call.value(), 0, 0);
            result.complete((int) (low & (1L << AtspiMapping.STATE_FOCUSABLE | 1L << AtspiMapping.STATE_FOCUSED)));
        };
        sendOrFail(result, b, node.busName(), node.leafPath(), AtspiBus.ACCESSIBLE, "GetState", null, onState);
        return result;
    }

    /**
     * {@link AtspiSource#extents}: {@code Component.GetExtents} in screen coordinates asked now;
     * {x, y, width, height}, or null when the application cannot say in time.
     */
    CompletableFuture<int[]> extents(final AccessibilityNode node, final long deadlineNs) {
        final CompletableFuture<int[]> result = new CompletableFuture<>();
        final AtspiBus b = bus.get();
        final long remainingNs = deadlineNs - System.nanoTime();
        if (b == null || !b.isConnected() || remainingNs <= 0) {
            result.complete(null);
            return result;
        }
        result.completeOnTimeout(null, remainingNs, TimeUnit.NANOSECONDS);
        final Reply.Sink onExtents = call -> {
            final Object box = call.failed() ? null : call.value();
            result.complete(box == null || AtspiCall.length(box) != 4 ? null : new int[] {(int) AtspiCall.element(box, 0, 0),
                (int) AtspiCall.element(box, 1, 0), (int) AtspiCall.element(box, 2, 0), (int) AtspiCall.element(box, 3, 0)});
        };
        try {
            b.send(b.call(node.busName(), node.leafPath(), AtspiBus.COMPONENT, "GetExtents", "u", onExtents, 0, 0,
                new UInt32(0)));
        } catch (final DBusException | RuntimeException e) {
            result.complete(null); // not marshallable, or the connection just went away
        }
        return result;
    }

    /** {@link AtspiSource#readText}. */
    CompletableFuture<String> readText(final AccessibilityNode node, final long deadlineNs) {
        final CompletableFuture<String> result = new CompletableFuture<>();
        if (node.hasFlag(TargetFlag.SECURE)) {
            result.complete("");
            return result;
        }
        final AtspiBus b = bus.get();
        final long remainingNs = deadlineNs - System.nanoTime();
        if (b == null || !b.isConnected() || remainingNs <= 0) {
            result.completeExceptionally(new IOException(b == null ? "not connected" : "deadline passed"));
            return result;
        }
        result.orTimeout(remainingNs, TimeUnit.NANOSECONDS);
        final Reply.Sink onText = call -> {
            if (call.failed()) {
                result.completeExceptionally(new IOException(call.errorText()));
            } else {
                result.complete(call.value() instanceof String s ? s : "");
            }
        };
        final Reply.Sink onCount = call -> {
            if (call.failed()) {
                result.completeExceptionally(new IOException(call.errorText()));
                return;
            }
            final int count = (int) Math.min(AtspiCall.asLong(call.value(), 0), maxTextChars);
            if (count <= 0) {
                result.complete("");
                return;
            }
            try {
                b.send(b.call(node.busName(), node.leafPath(), AtspiBus.TEXT, "GetText", "ii", onText, 0, 0, 0, count));
            } catch (final DBusException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        };
        try {
            b.send(b.call(node.busName(), node.leafPath(), AtspiBus.PROPERTIES, "Get", "ss", onCount, 0, 0,
                AtspiBus.TEXT, "CharacterCount"));
        } catch (final DBusException | RuntimeException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /** {@link AtspiSource#setTextContents}. */
    CompletableFuture<Integer> setTextContents(final AccessibilityNode node, final String text, final long deadlineNs) {
        return setText(node, text, false, deadlineNs);
    }

    /** {@link AtspiSource#fillText}. */
    CompletableFuture<Integer> fillText(final AccessibilityNode node, final String text, final long deadlineNs) {
        return setText(node, text, true, deadlineNs);
    }

    /** SetTextContents, and with {@code readBack} the whole text read back and compared (D48). */
    private CompletableFuture<Integer> setText(
        final AccessibilityNode node, final String text, final boolean readBack, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        if (node.hasFlag(TargetFlag.SECURE)) {
            result.complete(ResultCode.PLATFORM_PERMISSION);
            return result;
        }
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b == null) {
            return result;
        }
        final Reply.Sink onReadAgain = call -> result.complete(call.failed() ? platformCode(call.errorName())
            : text.equals(call.value()) ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_UNSUPPORTED);
        // GTK 4.8's entries answer GetText(0, -1) with "" whatever they hold (D65): then the
        // count of characters, and the text up to it when it is the payload's
        final Reply.Sink onCount = call -> {
            final long count = call.failed() ? -1 : AtspiCall.asLong(call.value(), -1);
            if (count != text.codePointCount(0, text.length())) {
                result.complete(call.failed() ? platformCode(call.errorName()) : ResultCode.PLATFORM_UNSUPPORTED);
            } else {
                sendOrFail(result, b, node.busName(), node.leafPath(), AtspiBus.TEXT, "GetText", "ii", onReadAgain, 0,
                    (int) count);
            }
        };
        final Reply.Sink onRead = call -> {
            if (!call.failed() && "".equals(call.value()) && !text.isEmpty()) {
                sendOrFail(result, b, node.busName(), node.leafPath(), AtspiBus.PROPERTIES, "Get", "ss", onCount,
                    AtspiBus.TEXT, "CharacterCount");
            } else {
                result.complete(call.failed() ? platformCode(call.errorName())
                    : text.equals(call.value()) ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_UNSUPPORTED);
            }
        };
        final Reply.Sink onSet = call -> {
            changed.accept(node.busName());
            if (call.failed() || !Boolean.TRUE.equals(call.value())) {
                result.complete(call.failed() ? platformCode(call.errorName()) : ResultCode.PLATFORM_UNSUPPORTED);
            } else if (readBack) {
                // what the application holds now, whole: it may have rewritten or cut what it was given
                sendOrFail(result, b, node.busName(), node.leafPath(), AtspiBus.TEXT, "GetText", "ii", onRead, 0, -1);
            } else {
                result.complete(ResultCode.PLATFORM_OK);
            }
        };
        sendOrFail(result, b, node.busName(), node.leafPath(), EDITABLE_TEXT, "SetTextContents", "s", onSet, text);
        return result;
    }

    /** {@link AtspiSource#setCurrentValue}. */
    CompletableFuture<Integer> setCurrentValue(final AccessibilityNode node, final double value, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b == null) {
            return result;
        }
        final Reply.Sink onDone = call -> {
            result.complete(call.failed() ? platformCode(call.errorName()) : ResultCode.PLATFORM_OK);
            changed.accept(node.busName());
        };
        sendOrFail(result, b, node.busName(), node.leafPath(), AtspiBus.PROPERTIES, "Set", "ssv", onDone, VALUE,
            "CurrentValue", new org.freedesktop.dbus.types.Variant<>(value));
        return result;
    }

    /** {@link AtspiSource#selectInParent}. */
    CompletableFuture<Integer> selectInParent(final AccessibilityNode node, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b != null) {
            selectUp(result, b, node.busName(), node.objectPath(), MAX_SELECTION_LEVELS);
        }
        return result;
    }

    /**
     * One level of {@link AtspiSource#selectInParent}: the parent of {@code path}, its interfaces,
     * then select or climb.
     */
    private void selectUp(
        final CompletableFuture<Integer> result, final AtspiBus b, final String busName, final String path,
        final int levels) {
        final Reply.Sink onParent = parentCall -> {
            final String parentPath = AtspiCall.referencePath(parentCall.value());
            final String named = AtspiCall.referenceBusName(parentCall.value());
            if (parentCall.failed() || parentPath == null || parentPath.endsWith("/null")) {
                // "/org/a11y/atspi/null" is AT-SPI's no-object reference: the top, nothing selects it.
                result.complete(parentCall.failed() ? platformCode(parentCall.errorName()) : ResultCode.PLATFORM_UNSUPPORTED);
                return;
            }
            final String parentName = named == null || named.isEmpty() ? busName : named;
            final Reply.Sink onInterfaces = interfacesCall -> {
                if (interfacesCall.failed()) {
                    result.complete(platformCode(interfacesCall.errorName()));
                } else if (contains(interfacesCall.value(), SELECTION)) {
                    final Reply.Sink onIndex = indexCall -> {
                        final long index = AtspiCall.asLong(indexCall.value(), -1);
                        if (indexCall.failed() || index < 0) {
                            result.complete(indexCall.failed() ? platformCode(indexCall.errorName())
                                : ResultCode.PLATFORM_UNSUPPORTED);
                        } else {
                            sendSelectChild(result, b, parentName, parentPath, (int) index);
                        }
                    };
                    sendOrFail(result, b, busName, path, AtspiBus.ACCESSIBLE, "GetIndexInParent", null, onIndex);
                } else if (levels > 1) {
                    selectUp(result, b, parentName, parentPath, levels - 1);
                } else {
                    result.complete(ResultCode.PLATFORM_UNSUPPORTED);
                }
            };
            sendOrFail(result, b, parentName, parentPath, AtspiBus.ACCESSIBLE, "GetInterfaces", null, onInterfaces);
        };
        sendOrFail(result, b, busName, path, AtspiBus.PROPERTIES, "Get", "ss", onParent, AtspiBus.ACCESSIBLE, "Parent");
    }

    private static boolean contains(final Object names, final String name) {
        for (int i = 0, n = AtspiCall.length(names); i < n; i++) {
            if (name.equals(String.valueOf(AtspiCall.item(names, i)))) {
                return true;
            }
        }
        return false;
    }

    /** {@link AtspiSource#selectChild}. */
    CompletableFuture<Integer> selectChild(final AccessibilityNode container, final int childIndex, final long deadlineNs) {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        final AtspiBus b = connectedOrComplete(result, deadlineNs);
        if (b != null) {
            sendSelectChild(result, b, container.busName(), container.objectPath(), childIndex);
        }
        return result;
    }

    /**
     * The bus, with {@code result} set to complete with PLATFORM_TIMEOUT at the deadline; null
     * after completing {@code result} when there is no bus or the deadline has passed.
     */
    private AtspiBus connectedOrComplete(final CompletableFuture<Integer> result, final long deadlineNs) {
        final AtspiBus b = bus.get();
        final long remainingNs = deadlineNs - System.nanoTime();
        if (b == null || !b.isConnected() || remainingNs <= 0) {
            result.complete(b == null || !b.isConnected() ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_TIMEOUT);
            return null;
        }
        result.completeOnTimeout(ResultCode.PLATFORM_TIMEOUT, remainingNs, TimeUnit.NANOSECONDS);
        return b;
    }

    private void sendSelectChild(
        final CompletableFuture<Integer> result, final AtspiBus b, final String busName, final String path,
        final int childIndex) {
        final Reply.Sink onDone = call -> {
            if (call.failed()) {
                result.complete(platformCode(call.errorName()));
                return;
            }
            if (Boolean.TRUE.equals(call.value())) {
                result.complete(ResultCode.PLATFORM_OK);
                changed.accept(busName);
                return;
            }
            // GTK answers false for a child that is selected already: that is done, not refused.
            final Reply.Sink onSelected = selected -> result.complete(!selected.failed() && Boolean.TRUE.equals(selected.value())
                ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_UNSUPPORTED);
            sendOrFail(result, b, busName, path, SELECTION, "IsChildSelected", "i", onSelected, childIndex);
        };
        sendOrFail(result, b, busName, path, SELECTION, "SelectChild", "i", onDone, childIndex);
    }

    private static void sendOrFail(
        final CompletableFuture<Integer> result, final AtspiBus b, final String busName, final String path,
        final String iface, final String member, final String signature, final Reply.Sink sink,
        final Object... args) {
        try {
            b.send(b.call(busName, path, iface, member, signature, sink, 0, 0, args));
        } catch (final DBusException | RuntimeException e) {
            // Not marshallable (a malformed path) or the connection just went away.
            result.complete(ResultCode.PLATFORM_BACKEND);
        }
    }

    /** The platform code of a D-Bus error answering an action. */
    static int platformCode(final String errorName) {
        if (AppRefresh.isVanished(errorName)) {
            return ResultCode.PLATFORM_NOT_FOUND;
        }
        if (AppRefresh.isUnsupported(errorName)) {
            return ResultCode.PLATFORM_UNSUPPORTED;
        }
        if ("org.freedesktop.DBus.Error.NoReply".equals(errorName) || "org.freedesktop.DBus.Error.Timeout".equals(errorName)
            || "org.freedesktop.DBus.Error.TimedOut".equals(errorName)) {
            return ResultCode.PLATFORM_TIMEOUT;
        }
        if ("org.freedesktop.DBus.Error.AccessDenied".equals(errorName)) {
            return ResultCode.PLATFORM_PERMISSION;
        }
        return ResultCode.PLATFORM_BACKEND;
    }

}
