"""The app's language: English (the source strings) or French (resources/i18n/lorekeeper_fr.ts).

Which language: `LOREKEEPER_LANG` (`en`, `fr`, `fr_FR.UTF-8`, `system`) if set, else the
operator's choice saved by the status bar's language menu (`ui/language` in the user's
`lorekeeper/ui.ini`, see `preference_path`), else the system locale (`QLocale.system()`), else
English. The Qt Linguist sources (`.ts`) are kept in the repository and compiled to `.qm` by
`make setup`/`make i18n` (pyside6-lrelease); a checkout or wheel without the `.qm` compiles it
once into the user cache at start (the `lrelease` shipped with PySide6).

Dates and numbers follow the chosen language's QLocale (`fmt_int`, `fmt_float`, `fmt_datetime`).
"""

from __future__ import annotations

import os
import re
import string
import subprocess
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QDate, QLibraryInfo, QLocale, QSettings, QTranslator
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QToolButton

from lorekeeper.paths import resources_dir

# The languages the app speaks: code -> its own name (shown in the language menu).
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français"}
DEFAULT_LANGUAGE = "en"
ENV_VAR = "LOREKEEPER_LANG"

_installed: list[QTranslator] = []  # kept alive while installed (Qt does not own them)
_current = DEFAULT_LANGUAGE
_tried = False  # install() ran (it may have found nothing to load)


def i18n_dir() -> Path:
    """Where the `.ts` sources (and the `.qm` compiled from them by `make i18n`) live."""
    return resources_dir() / "i18n"


def ts_path(lang: str) -> Path:
    return i18n_dir() / f"lorekeeper_{lang}.ts"


def _normalise(value: str) -> str:
    """`fr_FR.UTF-8`, `fr-CA`, `FR` -> `fr`; `system`/empty -> ""; an unknown language -> "en"."""
    value = value.strip().lower()
    if not value or value in ("system", "auto"):
        return ""
    code = value.replace("-", "_").split(".")[0].split("_")[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def preference_path() -> Path:
    """The user's UI preferences file (XDG config dir on Linux), shared by every workspace."""
    import platformdirs

    return Path(platformdirs.user_config_dir("lorekeeper", appauthor=False)) / "ui.ini"


def _settings() -> QSettings:
    return QSettings(str(preference_path()), QSettings.Format.IniFormat)


def saved_preference() -> str:
    """The language chosen in the app ("" = follow the system)."""
    return _normalise(str(_settings().value("ui/language", "") or ""))


def save_preference(lang: str) -> None:
    """Remember `lang` ("" or "system": follow the system locale) for the next start."""
    settings = _settings()
    settings.setValue("ui/language", _normalise(lang) or "system")
    settings.sync()


def system_language() -> str:
    for name in QLocale.system().uiLanguages():
        code = _normalise(name)
        if name and code in LANGUAGES and name.lower().startswith(code):
            return code
    return DEFAULT_LANGUAGE


def resolve_language() -> str:
    """The language to start in: LOREKEEPER_LANG, else the saved choice, else the system's."""
    return _normalise(os.environ.get(ENV_VAR, "")) or saved_preference() or system_language()


def source_of_language() -> str:
    """Where the current choice comes from: "env", "preference" or "system" (the menu says it)."""
    if _normalise(os.environ.get(ENV_VAR, "")):
        return "env"
    return "preference" if saved_preference() else "system"


def _cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("lorekeeper", appauthor=False)) / "i18n"


def _lrelease() -> str | None:
    import PySide6

    binary = Path(PySide6.__file__).resolve().parent / ("lrelease.exe" if os.name == "nt" else "lrelease")
    return str(binary) if binary.exists() else None


def qm_path(lang: str) -> Path | None:
    """The compiled catalogue of `lang`: next to its .ts when `make i18n` built it (and it is not
    older), else compiled once into the user cache. None when there is none."""
    ts = ts_path(lang)
    if not ts.exists():
        return None
    built = ts.with_suffix(".qm")
    if built.exists() and built.stat().st_mtime >= ts.stat().st_mtime:
        return built
    cached = _cache_dir() / built.name
    if cached.exists() and cached.stat().st_mtime >= ts.stat().st_mtime:
        return cached
    tool = _lrelease()
    if tool is None:
        return built if built.exists() else None
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(".qm.tmp")
    done = subprocess.run([tool, "-silent", str(ts), "-qm", str(tmp)], capture_output=True, check=False)
    if done.returncode != 0 or not tmp.exists():
        return built if built.exists() else None
    os.replace(tmp, cached)  # atomic: a concurrent start never loads half a file
    return cached


def install(lang: str | None = None, app: QCoreApplication | None = None) -> str:
    """Install the translators of `lang` (default: `resolve_language()`) on the application and
    make it QLocale's default; returns the language now in use. Widgets built afterwards speak it."""
    global _current, _tried
    _tried = True
    app = app or QCoreApplication.instance()
    code = _normalise(lang) if lang is not None else resolve_language()
    code = code or system_language()
    for old in _installed:
        if app is not None:
            app.removeTranslator(old)
    _installed.clear()
    _current = DEFAULT_LANGUAGE
    locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    if code == DEFAULT_LANGUAGE:
        plurals = qm_path(DEFAULT_LANGUAGE)  # English needs only its plural forms ("1 run", "2 runs")
        tr = QTranslator()
        if plurals is not None and app is not None and tr.load(str(plurals)):
            app.installTranslator(tr)
            _installed.append(tr)
    else:
        qm = qm_path(code)
        tr = QTranslator()
        if qm is not None and tr.load(str(qm)) and app is not None:
            app.installTranslator(tr)
            _installed.append(tr)
            qt = QTranslator()  # Qt's own strings (standard buttons: Save, Cancel, Close…)
            if qt.load(f"qtbase_{code}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                app.installTranslator(qt)
                _installed.append(qt)
            _current = code
            locale = QLocale(code)
    QLocale.setDefault(locale)
    return _current


def ensure_installed() -> None:
    """Install `resolve_language()` once if nobody did (`run_app` does it at start; a window or
    panel built by other code — tests, an embedding — still gets its language and plurals)."""
    if not _installed and QCoreApplication.instance() is not None and not _tried:
        install()


def current_language() -> str:
    return _current


# ---------------------------------------------------------------- locale-aware formatting
def fmt_int(value: int) -> str:
    """12345 -> "12,345" (English) or "12 345" (French)."""
    return QLocale().toString(int(value))


def fmt_float(value: float, decimals: int = 1) -> str:
    return QLocale().toString(float(value), "f", decimals)


def fmt_percent(ratio: float, decimals: int = 0) -> str:
    """0.5 -> "50%" / "50 %"."""
    text = fmt_float(ratio * 100, decimals)
    return f"{text} %" if _current == "fr" else f"{text}%"


def fmt_datetime(value: datetime | str | None, seconds: bool = False) -> str:
    """A timestamp as shown in tables and cards: ISO 8601 (2026-12-04 18:05) in English, as
    always, and the locale's short date with a 24-hour time in another language
    (04/12/2026 18:05 in French). The time is shown as stored (UTC where the column says so)."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return str(value)
    time = f"{value:%H:%M:%S}" if seconds else f"{value:%H:%M}"
    if _current == DEFAULT_LANGUAGE:
        return f"{value:%Y-%m-%d} {time}"
    date = QLocale().toString(QDate(value.year, value.month, value.day), QLocale.FormatType.ShortFormat)
    return f"{date} {time}"


def fmt_date(value: object) -> str:
    """A calendar date (a date, datetime or ISO string): 2026-12-04 in English, 04/12/2026 in French."""
    text = str(value or "")
    try:
        day = datetime.fromisoformat(text[:10])
    except ValueError:
        return text
    if _current == DEFAULT_LANGUAGE:
        return f"{day:%Y-%m-%d}"
    return QLocale().toString(QDate(day.year, day.month, day.day), QLocale.FormatType.ShortFormat)


def fmt_day(value: datetime) -> str:
    """A chart tick: "Dec 04" in English (as always), "4 déc." in French."""
    if _current == DEFAULT_LANGUAGE:
        return f"{value:%b %d}"
    return QLocale().toString(QDate(value.year, value.month, value.day), "d MMM")


# ---------------------------------------------------------------- marked constants
def tr_const(context: str, text: str) -> str:
    """A module constant marked `QT_TRANSLATE_NOOP(context, ...)`, translated where it is shown."""
    return QCoreApplication.translate(context, text) if text else text


def header_text(model: object, section: int) -> str:
    """A model's HEADERS[section], translated in the context of the class that defines HEADERS
    (the context lupdate gives its QT_TRANSLATE_NOOP marks)."""
    headers: tuple[str, ...] = getattr(model, "HEADERS", ())
    if not 0 <= section < len(headers):
        return ""
    owner = next((c for c in type(model).__mro__ if "HEADERS" in vars(c)), type(model))
    return QCoreApplication.translate(owner.__name__, headers[section])


def class_text(obj: object, attr: str) -> str:
    """A class attribute marked `QT_TRANSLATE_NOOP("<its class>", ...)` (e.g. a model's
    JOB_NAME), translated in the context of the class that defines it."""
    owner = next((c for c in type(obj).__mro__ if attr in vars(c)), type(obj))
    return QCoreApplication.translate(owner.__name__, str(getattr(obj, attr)))


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Marks `text` for lupdate in `context` and returns it unchanged (Qt's macro, typed `str`):
    translate it where it is shown (`tr_const(context, text)`)."""
    return text


# ---------------------------------------------------------------- the Settings control
def language_button(status: Callable[[str], None] | None = None) -> QToolButton:
    """The status bar's language control: "FR"/"EN" with a menu — Follow the system, English,
    Français. The choice is saved for every workspace (`save_preference`) and applies from the
    next start (LOREKEEPER_LANG, when set, still wins: the menu says so)."""
    button = QToolButton()
    button.setObjectName("languageButton")
    button.setText(current_language().upper())
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    button.setToolTip(QCoreApplication.translate("i18n", "Language of the app (applies at the next start)"))
    menu = QMenu(button)
    group = QActionGroup(menu)
    chosen = saved_preference()
    options = [("", QCoreApplication.translate("i18n", "Follow the system")), *LANGUAGES.items()]
    for code, name in options:
        action = menu.addAction(name)
        action.setCheckable(True)
        action.setChecked(code == chosen)
        action.setData(code)
        group.addAction(action)

    def choose(action: QAction) -> None:
        code = str(action.data() or "")
        save_preference(code)
        target = code or system_language()
        text = QCoreApplication.translate("i18n", "Language: {0} from the next start").format(LANGUAGES[target])
        if _normalise(os.environ.get(ENV_VAR, "")):
            text += QCoreApplication.translate("i18n", " ({0} is set and wins)").format(ENV_VAR)
        if status is not None:
            status(text)

    group.triggered.connect(choose)
    button.setMenu(menu)
    return button


class _LocaleFormatter(string.Formatter):
    """str.format, but numbers with a format spec ("{n:,}", "{x:.2f}", "{r:.1%}") in the current
    language's QLocale: 79,503 / 88.7% in English, 79 503 / 88,7 % in French."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if _current == DEFAULT_LANGUAGE or isinstance(value, bool) or not isinstance(value, int | float):
            return super().format_field(value, format_spec)
        m = re.fullmatch(r"(,)?(?:\.(\d+))?([f%])?", format_spec)
        if not format_spec or m is None:
            return super().format_field(value, format_spec)
        decimals = int(m.group(2)) if m.group(2) is not None else None
        loc = QLocale()
        if m.group(3) == "%":
            return fmt_percent(float(value), decimals or 0)
        if decimals is not None:
            return loc.toString(float(value), "f", decimals)
        if isinstance(value, int):
            return loc.toString(value)
        return super().format_field(value, format_spec)


_FORMATTER = _LocaleFormatter()


def lformat(template: str, /, *args: Any, **kwargs: Any) -> str:
    """`template.format(*args, **kwargs)` with locale-aware numbers (see _LocaleFormatter)."""
    return _FORMATTER.format(template, *args, **kwargs)


# The stored values a table shows (statuses, sources, scopes): their words in the app's language.
# The data keep their English values (filters, the CLI, the store); only the display changes.
VALUE_WORDS = (
    QT_TRANSLATE_NOOP("value", "active"),
    QT_TRANSLATE_NOOP("value", "archived"),
    QT_TRANSLATE_NOOP("value", "candidate"),
    QT_TRANSLATE_NOOP("value", "approved"),
    QT_TRANSLATE_NOOP("value", "rejected"),
    QT_TRANSLATE_NOOP("value", "conflicting"),
    QT_TRANSLATE_NOOP("value", "pending"),
    QT_TRANSLATE_NOOP("value", "open"),
    QT_TRANSLATE_NOOP("value", "resolved"),
    QT_TRANSLATE_NOOP("value", "passed"),
    QT_TRANSLATE_NOOP("value", "failed"),
    QT_TRANSLATE_NOOP("value", "pass"),
    QT_TRANSLATE_NOOP("value", "fail"),
    QT_TRANSLATE_NOOP("value", "fixit"),
    QT_TRANSLATE_NOOP("value", "negative"),
    QT_TRANSLATE_NOOP("value", "manual"),
    QT_TRANSLATE_NOOP("value", "import"),
    QT_TRANSLATE_NOOP("value", "template"),
    QT_TRANSLATE_NOOP("value", "suggest"),
    QT_TRANSLATE_NOOP("value", "generator"),
    QT_TRANSLATE_NOOP("value", "optimiser"),
    QT_TRANSLATE_NOOP("value", "story"),
    QT_TRANSLATE_NOOP("value", "domain"),
    QT_TRANSLATE_NOOP("value", "global"),
    QT_TRANSLATE_NOOP("value", "kept"),
    QT_TRANSLATE_NOOP("value", "merged"),
)


def value_text(value: object) -> str:
    """A stored value as shown in a table cell: "active" -> "actif" in French; anything not in
    VALUE_WORDS (a name, an id) is shown as it is."""
    text = "" if value is None else str(value)
    return QCoreApplication.translate("value", text) if text else text
