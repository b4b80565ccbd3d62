"""A demo-like facts workspace for the Facts review and Conflicts panels: the demo's storefront
conventions ingested, a recorded extraction (no model), and one real contradiction. A module of
its own (never imported from conftest)."""

from __future__ import annotations

import shutil
from pathlib import Path

from lorekeeper.paths import demo_data_dir

DOC = "storefront-coding-conventions.md"
CONVENTIONS = [
    (
        "convention",
        "Keep money as integer cents and format it only at the edge with formatPrice.",
        "Money is integer cents (`priceCents: number`) everywhere in the app",
        0.95,
        ["src/**"],
    ),
    (
        "convention",
        "Fetch server data through the TanStack Query hooks in src/api, never with fetch inside components.",
        "Server data goes through TanStack Query hooks in `src/api/`",
        0.9,
        ["src/**/*.tsx"],
    ),
    ("stack", "Use Vitest, not Jest, for the storefront tests.", "Vitest, not Jest.", 0.95, ["**/*.test.ts"]),
    (
        "constraint",
        "Do not use `any` in TypeScript; use `unknown` and narrow.",
        "No `any`; use `unknown` and narrow.",
        0.9,
        [],
    ),
    (
        "convention",
        "Send network calls in tests through MSW handlers and never mock the API modules.",
        "Network through MSW handlers; never mock the API modules.",
        0.7,
        ["**/*.test.ts"],
    ),
    (
        "pitfall",
        "Never fetch the cart in a useEffect on every render; keep server state in TanStack Query with a staleTime.",
        "server state belongs in TanStack Query with a `staleTime`",
        0.85,
        [],
    ),
    (
        "convention",
        "Name branches feat/SF-<ticket>-<slug> and use Conventional Commit titles.",
        "Branch `feat/SF-<ticket>-<slug>`, Conventional Commit titles, squash merge.",
        0.5,
        [],
    ),
]
# two facts that contradict each other, both quoting the document
CONFLICT = [
    ("convention", "Keep pull requests under about 400 changed lines.", "At most ~400 changed lines"),
    (
        "convention",
        "Ship large changes in one pull request behind no flag so the preview shows everything.",
        "split larger work behind a feature flag",
    ),
]


def recording() -> dict:
    facts = [
        {"type": t, "statement": s, "quote": q, "confidence": c, "scope": scope} for t, s, q, c, scope in CONVENTIONS
    ] + [{"type": t, "statement": s, "quote": q, "confidence": 0.8} for t, s, q in CONFLICT]
    return {"model": "recorded", "documents": {DOC: {"facts": facts}}}


def seed_facts(ws, tmp: Path) -> None:
    docs = tmp / "storefront-docs"
    docs.mkdir(parents=True, exist_ok=True)
    shutil.copy(demo_data_dir() / "sources" / DOC, docs / DOC)
    ws.facts.ingest(docs, project="shop")
    ws.facts.apply_recorded(recording(), "shop")
    ws.facts.apply_recorded_consolidation(
        {
            "contradictions": [
                {
                    "facts": [s for _, s, _ in CONFLICT],
                    "reason": "one caps pull requests at ~400 lines, the other ships large changes at once",
                }
            ]
        },
        "shop",
    )


def open_window(qtbot, ws):
    from lorekeeper.ui.main_window import MainWindow

    win = MainWindow(ws)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.windowHandle().requestActivate()  # the review shortcuts need this window to have the keyboard
    qtbot.waitUntil(win.isActiveWindow)
    return win
