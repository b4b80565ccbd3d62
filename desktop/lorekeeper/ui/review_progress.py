"""A review queue's progress line: "12 of 40 reviewed", its bar, and where the current item is."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QSizePolicy, QWidget

from lorekeeper.ui.widgets import label, set_progress


class ProgressLine(QWidget):
    """`show_state(reviewed, remaining, row)`: the count, the bar and "item 3 of 37" (row -1: none)."""

    def __init__(self, noun: str) -> None:
        super().__init__()
        self.noun = noun
        self.label = label("", "queueProgress")
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(6)
        self.bar.setMaximumWidth(160)
        self.position = label("", "hintText")
        top = QHBoxLayout(self)
        top.setContentsMargins(0, 0, 0, 0)
        # the bar takes what the two texts leave (a narrow list cut "0 of 1 reviewed" and
        # "conflict 1 of 1" to make room for a 160 px bar at 1024x640)
        self.bar.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        top.addWidget(self.label)
        top.addWidget(self.bar, 1)
        top.addStretch(1)
        top.addWidget(self.position)

    def show_state(self, reviewed: int, remaining: int, row: int) -> None:
        whole = reviewed + remaining
        self.label.setText(
            self.tr("{reviewed} of {whole} reviewed").format(reviewed=reviewed, whole=whole)
            if whole
            else self.tr("Nothing to review")
        )
        set_progress(self.bar, reviewed, max(whole, 1))
        self.position.setText(
            self.tr("{noun} {0} of {remaining}").format(row + 1, noun=self.noun, remaining=remaining)
            if row >= 0
            else ""
        )
