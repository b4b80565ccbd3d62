"""Light and dark themes: Fusion style, a palette, and a QSS file from resources/themes/.

`ui.theme` in lorekeeper.toml chooses `system` (default: follow the OS colour scheme, live),
`light` or `dark`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from lorekeeper.paths import resources_dir

LIGHT = "light"
DARK = "dark"


def themes_dir() -> Path:
    return resources_dir() / "themes"


def icons_dir() -> Path:
    return resources_dir() / "icons"


@cache
def icon(name: str) -> QIcon:
    """An icon from resources/icons/<name>.svg (an empty icon when missing: never crash on art)."""
    path = icons_dir() / f"{name}.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()


def _palette(mode: str) -> QPalette:
    p = QPalette()
    if mode == DARK:
        colors = {
            QPalette.ColorRole.Window: "#1f2433",
            QPalette.ColorRole.WindowText: "#e3e7f0",
            QPalette.ColorRole.Base: "#171b26",
            QPalette.ColorRole.AlternateBase: "#232838",
            QPalette.ColorRole.ToolTipBase: "#2a3142",
            QPalette.ColorRole.ToolTipText: "#e3e7f0",
            QPalette.ColorRole.Text: "#e3e7f0",
            QPalette.ColorRole.Button: "#2a3142",
            QPalette.ColorRole.ButtonText: "#e3e7f0",
            QPalette.ColorRole.BrightText: "#ff6b6b",
            QPalette.ColorRole.Highlight: "#3b6cc4",
            QPalette.ColorRole.HighlightedText: "#ffffff",
            QPalette.ColorRole.Link: "#8ab4ff",
            QPalette.ColorRole.PlaceholderText: "#7d869a",
            QPalette.ColorRole.Mid: "#3a4256",
            QPalette.ColorRole.Dark: "#12151e",
            QPalette.ColorRole.Light: "#3a4256",
        }
        disabled = "#6c7488"
    else:
        colors = {
            QPalette.ColorRole.Window: "#f6f7fa",
            QPalette.ColorRole.WindowText: "#1f2637",
            QPalette.ColorRole.Base: "#ffffff",
            QPalette.ColorRole.AlternateBase: "#f7f9fc",
            QPalette.ColorRole.ToolTipBase: "#ffffff",
            QPalette.ColorRole.ToolTipText: "#1f2637",
            QPalette.ColorRole.Text: "#1f2637",
            QPalette.ColorRole.Button: "#eef0f4",
            QPalette.ColorRole.ButtonText: "#1f2637",
            QPalette.ColorRole.BrightText: "#c62828",
            QPalette.ColorRole.Highlight: "#2f5fb3",
            QPalette.ColorRole.HighlightedText: "#ffffff",
            QPalette.ColorRole.Link: "#2f5fb3",
            QPalette.ColorRole.PlaceholderText: "#8a93a5",
        }
        disabled = "#9aa2b1"
    for role, value in colors.items():
        p.setColor(role, QColor(value))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled))
    return p


def system_mode() -> str:
    hints = QGuiApplication.styleHints()
    scheme = hints.colorScheme() if hasattr(hints, "colorScheme") else Qt.ColorScheme.Unknown
    return DARK if scheme == Qt.ColorScheme.Dark else LIGHT


def current_mode() -> str:
    app = QApplication.instance()
    return str(app.property("lorekeeperTheme") or LIGHT) if app else LIGHT


def apply_theme(app: QApplication, mode: str) -> None:
    app.setStyle("Fusion")
    app.setPalette(_palette(mode))
    qss = themes_dir() / f"{mode}.qss"
    app.setStyleSheet(qss.read_text(encoding="utf-8") if qss.is_file() else "")
    app.setProperty("lorekeeperTheme", mode)


class ThemeFollower(QObject):
    """Applies the configured theme and, for `system`, follows the OS colour scheme live."""

    def __init__(self, app: QApplication, preference: str = "system") -> None:
        super().__init__(app)
        self.app = app
        self.preference = preference if preference in ("system", LIGHT, DARK) else "system"
        self.apply()
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self.on_scheme_changed)

    def mode(self) -> str:
        return system_mode() if self.preference == "system" else self.preference

    def apply(self) -> None:
        apply_theme(self.app, self.mode())

    @Slot(Qt.ColorScheme)
    def on_scheme_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self.preference == "system":
            self.apply()


def color(name: str, mode: str | None = None) -> QColor:
    """Semantic colours that read well on both themes (`mode`: the current theme's unless given)."""
    dark = (mode or current_mode()) == DARK
    table = {
        "pass": ("#1f7a45", "#7ddc9c"),
        "fail": ("#b3261e", "#ff8a80"),
        "info": ("#2f5fb3", "#8ab4ff"),
        "muted": ("#6b7587", "#9aa4b8"),
        "trigger": ("#8a4b00", "#ffc266"),
        "keyword": ("#2f5fb3", "#8ab4ff"),
        "fork": ("#7440b8", "#c9a6ff"),
        "diff_del": ("#fbe3e1", "#4a2323"),
        "diff_add": ("#e1f5e6", "#1f3d29"),
        "diff_chg": ("#fff3d1", "#463b1d"),
        "hl_trigger": ("#ffe2a8", "#6b4b10"),
        "hl_keyword": ("#d6e4ff", "#23406e"),
    }
    light_value, dark_value = table[name]
    return QColor(dark_value if dark else light_value)


# --------------------------------------------------------------------------- contrast (WCAG 2.x)

BLACK = QColor("#000000")
WHITE = QColor("#ffffff")


def relative_luminance(c: QColor) -> float:
    """WCAG 2.x relative luminance of an sRGB colour (0 black .. 1 white)."""

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio, 1..21 (body text needs 4.5)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill: QColor) -> QColor:
    """Black or white, whichever reads better on `fill`: at least 4.58:1 whatever the fill."""
    return BLACK if contrast_ratio(BLACK, fill) >= contrast_ratio(WHITE, fill) else WHITE


@dataclass(frozen=True)
class GaugeColors:
    chunk: QColor  # the filled part
    groove: QColor  # the empty part
    border: QColor
    text_on_chunk: QColor
    text_on_groove: QColor


#: a pressure level (context/pack) -> the semantic colour its gauge fills with
PRESSURE_LEVELS = {"none": "pass", "compress": "trigger", "evict": "fail"}


def gauge_colors(level: str = "info", mode: str | None = None) -> GaugeColors:
    """The colours of a gauge filled with the semantic colour `level` in theme `mode` (the current
    one unless given): the text over the fill is black or white by the fill's luminance, the text
    over the groove is the theme's text colour on its base colour, so both parts read (>= 4.5:1)."""
    mode = mode or current_mode()
    palette = _palette(mode)
    chunk = color(level, mode)
    groove = palette.color(QPalette.ColorRole.Base)
    border = QColor("#3a4256") if mode == DARK else QColor("#c4c9d4")
    return GaugeColors(chunk, groove, border, text_on(chunk), palette.color(QPalette.ColorRole.Text))
