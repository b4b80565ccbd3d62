"""Render the app icon (resources/icons/lorekeeper.svg) to the PNG sizes of the freedesktop icon
theme spec: resources/icons/hicolor/<N>x<N>/apps/lorekeeper.png. The PNGs are committed (the wheel
and the bundle carry them without a build step); re-run after changing the SVG:

    QT_QPA_PLATFORM=offscreen python packaging/render_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(ICONS / "lorekeeper.svg"))
    if not renderer.isValid():
        print("lorekeeper.svg is not a valid SVG", file=sys.stderr)
        return 1
    for n in SIZES:
        image = QImage(n, n, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        out = ICONS / "hicolor" / f"{n}x{n}" / "apps" / "lorekeeper.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(out), "PNG"):
            print(f"could not write {out}", file=sys.stderr)
            return 1
        print(out.relative_to(ROOT))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
