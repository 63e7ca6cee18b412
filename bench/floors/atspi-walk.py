#!/usr/bin/python3
"""One whole read of every application on the accessibility bus, as a plain AT-SPI client (a
screen reader) makes it: each object's role, name, states, extents and text. Prints the objects
read. Used by swing-read-memory to measure what being read at all costs an application."""
import gi

gi.require_version('Atspi', '2.0')
from gi.repository import Atspi  # noqa: E402

count = 0


def walk(node, depth=0):
    global count
    if node is None or depth > 64:
        return
    count += 1
    node.get_role()
    node.get_name()
    node.get_state_set()
    try:
        node.get_extents(Atspi.CoordType.SCREEN)
        text = node.get_text()
        if text is not None:
            text.get_text(0, -1)
    except Exception:  # an object without Component or Text
        pass
    for i in range(node.get_child_count()):
        walk(node.get_child_at_index(i), depth + 1)


desktop = Atspi.get_desktop(0)
for i in range(desktop.get_child_count()):
    walk(desktop.get_child_at_index(i))
print(count)
