"""English and French (issue 30, deliverable 6).

The catalogue test runs pyside6-lupdate on the UI sources into a copy of the committed
resources/i18n/lorekeeper_fr.ts (lupdate keeps its translations) and fails on any message that
has no finished French translation — so a new tr() string without French fails CI. The GUI test
starts the app in French, walks every panel and fails when one shows an English text of the
catalogue (a string the translation changes) or when the texts an operator reads first are not
French.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "desktop" / "lorekeeper" / "ui"
TS = ROOT / "resources" / "i18n" / "lorekeeper_fr.ts"
TS_EN = ROOT / "resources" / "i18n" / "lorekeeper_en.ts"  # English: only the plural forms
FIELD = re.compile(r"\{([^{}]*)\}")


def _lupdate() -> str:
    tool = Path(sys.executable).parent / "pyside6-lupdate"
    if not tool.exists():
        pytest.fail(f"pyside6-lupdate is missing next to {sys.executable} (PySide6-Essentials installs it)")
    return str(tool)


def _fields(text: str) -> set[str]:
    """The str.format fields of a message ("{n}", "{0:.2f}" -> "n", "0"), escaped braces excluded."""
    return {f.split(":")[0].split("!")[0] for f in FIELD.findall(text.replace("{{", "").replace("}}", ""))}


def _messages(ts: Path) -> list[tuple[str, str, ET.Element]]:
    root = ET.parse(ts).getroot()
    out = []
    for ctx in root.iter("context"):
        name = ctx.findtext("name") or ""
        for msg in ctx.iter("message"):
            out.append((name, msg.findtext("source") or "", msg))
    return out


def _refresh(committed: Path, out: Path, lang: str, *extra: str) -> Path:
    """lupdate over today's UI sources, merged into a copy of a committed catalogue."""
    shutil.copyfile(committed, out)
    sources = sorted(str(p) for p in UI.rglob("*.py"))
    cmd = [_lupdate(), "-silent", "-locations", "none", "-no-obsolete", *extra, "-target-language", lang]
    done = subprocess.run([*cmd, *sources, "-ts", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def fresh_catalogue(tmp_path_factory) -> Path:
    return _refresh(TS, tmp_path_factory.mktemp("i18n") / "lorekeeper_fr.ts", "fr")


def _unfinished(ts: Path) -> list[str]:
    missing = []
    for ctx, source, msg in _messages(ts):
        tr = msg.find("translation")
        assert tr is not None
        forms = [f.text or "" for f in tr.findall("numerusform")] if msg.get("numerus") == "yes" else [tr.text or ""]
        if tr.get("type") in ("unfinished", "vanished") or not all(f.strip() for f in forms):
            missing.append(f"{ctx}: {source!r}")
    return missing


def test_every_ui_string_has_a_finished_french_translation(fresh_catalogue: Path) -> None:
    messages = _messages(fresh_catalogue)
    assert len(messages) > 900, "lupdate found too few strings: are the tr()/translate() calls still there?"
    missing = _unfinished(fresh_catalogue)
    assert not missing, (
        f"{len(missing)} UI string(s) without a finished French translation — run `make i18n`, then "
        "translate them in resources/i18n/lorekeeper_fr.ts (Qt Linguist or by hand):\n  " + "\n  ".join(missing[:40])
    )


def test_every_english_plural_has_its_forms(tmp_path) -> None:
    """English shows "1 run" / "2 runs" from lorekeeper_en.ts (lupdate -pluralonly): a new
    %n string needs its English forms too."""
    fresh = _refresh(TS_EN, tmp_path / "lorekeeper_en.ts", "en", "-pluralonly")
    messages = _messages(fresh)
    assert messages and all(m.get("numerus") == "yes" for _c, _s, m in messages)
    missing = _unfinished(fresh)
    assert not missing, (
        "plural string(s) without English forms — run `make i18n`, then fill them in "
        + str(TS_EN)
        + ":\n  "
        + "\n  ".join(missing)
    )


def test_french_translations_keep_the_placeholders(fresh_catalogue: Path) -> None:
    """A translation may only use the source's fields (else .format() raises at run time), keeps
    every named one, and keeps %n in plural forms."""
    wrong = []
    for ctx, source, msg in _messages(fresh_catalogue):
        tr = msg.find("translation")
        assert tr is not None
        forms = [f.text or "" for f in tr.findall("numerusform")] or [tr.text or ""]
        src = _fields(source)
        for form in forms:
            got = _fields(form)
            named_lost = {f for f in src - got if not f.isdigit()}
            if got - src or named_lost or ("%n" in source and "%n" not in form):
                wrong.append(f"{ctx}: {source!r} -> {form!r}")
    assert not wrong, "translations that break their placeholders:\n  " + "\n  ".join(wrong)


def test_the_language_comes_from_the_env_then_the_saved_choice_then_the_system(monkeypatch, tmp_path) -> None:
    from lorekeeper.ui import i18n

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # this test's own preferences file
    monkeypatch.setattr(i18n, "system_language", lambda: "fr")
    monkeypatch.delenv("LOREKEEPER_LANG", raising=False)
    assert i18n.resolve_language() == "fr"  # a French desktop, nothing chosen
    i18n.save_preference("en")
    assert i18n.resolve_language() == "en"
    assert i18n.preference_path().exists()
    monkeypatch.setenv("LOREKEEPER_LANG", "fr_FR.UTF-8")
    assert i18n.resolve_language() == "fr"
    monkeypatch.setenv("LOREKEEPER_LANG", "de")  # a language the app does not speak: English
    assert i18n.resolve_language() == "en"
    monkeypatch.setenv("LOREKEEPER_LANG", "system")
    i18n.save_preference("system")
    assert i18n.resolve_language() == "fr"


@pytest.fixture
def french(qapp):
    from lorekeeper.ui import i18n

    assert i18n.install("fr") == "fr"
    try:
        yield
    finally:
        i18n.install("en")


def _visible_texts(root) -> list[str]:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QGroupBox,
        QLabel,
        QLineEdit,
        QListWidget,
        QPlainTextEdit,
        QTabBar,
    )

    texts: list[str] = []
    for w in root.findChildren(QLabel):
        if w.isVisibleTo(root):
            texts.append(w.text())
    for w in root.findChildren(QAbstractButton):
        if w.isVisibleTo(root):
            texts += [w.text(), w.toolTip()]
    for w in root.findChildren(QGroupBox):
        if w.isVisibleTo(root):
            texts.append(w.title())
    for w in root.findChildren(QTabBar):
        if w.isVisibleTo(root):
            texts += [w.tabText(i) for i in range(w.count())]
    for w in root.findChildren(QLineEdit) + root.findChildren(QPlainTextEdit):
        if w.isVisibleTo(root):
            texts.append(w.placeholderText())
    for w in root.findChildren(QComboBox):
        if w.isVisibleTo(root):
            texts += [w.itemText(i) for i in range(w.count())]
    for w in root.findChildren(QListWidget):
        texts += [w.item(i).text() for i in range(w.count())]
    for view in root.findChildren(QAbstractItemView):
        model = view.model()
        if view.isVisibleTo(root) and model is not None:
            from PySide6.QtCore import QModelIndex

            try:
                columns = model.columnCount(QModelIndex())
            except TypeError:  # a private columnCount (a list model inside a widget)
                continue
            texts += [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(columns)]
    return [t for t in texts if t]


def _english_of_the_catalogue() -> tuple[set[str], list[re.Pattern[str]]]:
    """The English texts the French build must never show: exact sources, and sources with
    fields as patterns (a field matches anything)."""
    exact: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for _ctx, source, msg in _messages(TS):
        tr = msg.find("translation")
        french = (tr.text or "") if tr is not None else ""
        if msg.get("numerus") == "yes" or french == source or "<" in source:
            continue
        if not _fields(source):
            if len(source.strip()) > 3:
                exact.add(source.strip())
        else:
            literal = FIELD.split(source.replace("{{", "{").replace("}}", "}"))[::2]
            if sum(len(p.strip()) for p in literal) >= 12:
                patterns.append(re.compile(".+".join(re.escape(p) for p in literal) + r"\Z", re.S))
    return exact, patterns


def test_the_french_app_shows_french_in_every_panel(qtbot, ui_workspace, sync_workers, french) -> None:
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(ui_workspace)
    qtbot.addWidget(win)
    win.resize(1024, 640)
    win.show()
    qtbot.waitExposed(win)
    exact, patterns = _english_of_the_catalogue()
    assert "Proposals" in exact and "Approve (A)" in exact
    english: dict[str, set[str]] = {}
    for panel_id in win.panel_ids:
        panel = win.select_panel(panel_id)
        panel.showcase()
        qtbot.wait(1)
        for text in _visible_texts(win):
            t = text.strip()
            if t in exact or any(p.match(t) for p in patterns):
                english.setdefault(panel_id, set()).add(t)
    assert not english, f"English texts of the catalogue in the French app: {english}"
    sidebar = [win.sidebar.item(i).text() for i in range(win.sidebar.count())]
    assert {"Propositions", "Revue des faits", "Conflits", "Apprentissages", "Purges"} <= set(sidebar)
    assert win.jobs_label.text() == "Inactif"
    proposals = win.select_panel("proposals")
    buttons = {b.text() for b in proposals.findChildren(__import__("PySide6.QtWidgets").QtWidgets.QPushButton)}
    assert "Approuver (A)" in buttons and "Rejeter (R)" in buttons
    win.close()


def test_french_numbers_and_dates_follow_the_locale(french) -> None:
    from datetime import datetime

    from lorekeeper.ui import i18n

    assert i18n.fmt_int(12345).replace("\u202f", " ").replace("\u00a0", " ") == "12 345"
    assert i18n.fmt_float(0.5, 2) == "0,50"
    assert i18n.fmt_datetime(datetime(2026, 12, 4, 18, 5)) == "04/12/2026 18:05"


def test_the_language_menu_saves_the_choice(qtbot, window, monkeypatch, tmp_path) -> None:
    from lorekeeper.ui import i18n

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    button = window.language_button
    assert button.isVisibleTo(window) and button.text() == "EN"
    french = next(a for a in button.menu().actions() if a.data() == "fr")
    french.trigger()
    assert i18n.saved_preference() == "fr"
    assert "Français" in window.statusBar().currentMessage()


def test_every_panel_fits_a_laptop_window_in_french(qtbot, ui_workspace, sync_workers, french) -> None:
    """French is longer than English: the fit rule of tests/ui/test_fit.py holds in French too."""
    from PySide6.QtCore import QSize
    from PySide6.QtWidgets import QApplication

    from lorekeeper.ui.main_window import MainWindow
    from lorekeeper.ui.theme import DARK, LIGHT, apply_theme, current_mode
    from ui.test_fit import check_panels_fit

    win = MainWindow(ui_workspace)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    for panel_id in win.panel_ids:
        win.select_panel(panel_id).showcase()
    for size in (QSize(1024, 640), QSize(1280, 800)):
        check_panels_fit(win, size)
    # with each theme's style sheet, as the app runs (its paddings widen buttons: the Skills
    # panel needed 849 px in 833 in the light theme, a sideways scroll bar)
    app = QApplication.instance()
    before = current_mode()
    try:
        for mode in (LIGHT, DARK):
            apply_theme(app, mode)
            check_panels_fit(win, QSize(1024, 640))
    finally:
        apply_theme(app, before)
    win.close()


def test_a_checkout_without_the_compiled_catalogue_compiles_it_once_into_the_cache(tmp_path, monkeypatch, qapp):
    """A wheel or checkout built without `make` has only the .ts: the app compiles it once (the
    lrelease shipped with PySide6) into the user cache, and speaks French all the same."""
    from PySide6.QtCore import QCoreApplication

    from lorekeeper.ui import i18n

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shutil.copyfile(TS, tmp_path / TS.name)  # no .qm next to it
    monkeypatch.setattr(i18n, "i18n_dir", lambda: tmp_path)
    qm = i18n.qm_path("fr")
    assert qm is not None and qm.exists() and qm.parent != tmp_path
    assert i18n.qm_path("fr") == qm  # compiled once, then reused
    try:
        assert i18n.install("fr") == "fr"
        assert QCoreApplication.translate("panels", "Proposals") == "Propositions"
    finally:
        monkeypatch.undo()  # the real catalogues again: English with its plural forms for the next tests
        i18n.install("en")
    assert QCoreApplication.translate("panels", "Proposals") == "Proposals"
