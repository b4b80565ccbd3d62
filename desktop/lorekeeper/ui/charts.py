"""The one chart base every panel uses: a static pyqtgraph plot in the app's palette."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QWidget


class ThemedPlot(pg.PlotWidget):
    """No mouse panning, no context menu, a light horizontal grid, axes and background from the palette."""

    def __init__(
        self, ylabel: str, *, min_height: int = 150, max_height: int | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setMinimumHeight(min_height)
        if max_height is not None:
            self.setMaximumHeight(max_height)
        self.setMenuEnabled(False)
        self.setMouseEnabled(False, False)
        self.hideButtons()
        self.plotItem.showGrid(y=True, alpha=0.25)
        self.plotItem.getAxis("left").setLabel(ylabel)
        self.apply_palette()

    def apply_palette(self) -> None:
        pal = QApplication.palette()
        self.setBackground(pal.color(QPalette.ColorRole.Base))
        for axis in ("left", "bottom"):
            ax = self.plotItem.getAxis(axis)
            ax.setPen(pg.mkPen(pal.color(QPalette.ColorRole.Mid)))
            ax.setTextPen(pg.mkPen(pal.color(QPalette.ColorRole.Text)))
