"""While the main window is up, full garbage collections stop walking the long-lived heap and the
interpreter lock changes hands quickly (the GUI-stall causes measured in issue 9); closing the
window gives both back, so nothing the window held stays uncollectable."""

from __future__ import annotations

import gc
import sys

from lorekeeper import gcpolicy


def test_the_window_freezes_the_heap_while_it_is_up_and_releases_it_on_close(qtbot, ui_workspace):
    from lorekeeper.ui.main_window import MainWindow

    before = sys.getswitchinterval()
    assert gc.get_freeze_count() == 0
    win = MainWindow(ui_workspace)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    assert gc.get_freeze_count() > 10_000  # the imports, services and widgets: out of the collector's walks
    assert sys.getswitchinterval() <= gcpolicy.SWITCH_INTERVAL
    win.hide()
    win.show()  # showing again does not freeze twice
    win.close()
    assert gc.get_freeze_count() == 0
    assert sys.getswitchinterval() == before


def test_a_cycle_made_after_the_window_came_up_is_still_collected(qtbot, ui_workspace):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(ui_workspace)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a
    ref = id(a)
    del a, b
    gc.collect()
    assert all(id(o) != ref for o in gc.get_objects() if isinstance(o, Node))
    win.close()
