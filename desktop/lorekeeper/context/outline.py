"""Lexical outline of a file whose parse failed: its import and definition lines, found by
per-language regular expressions, each with its 1-based line number.

A tree with a parse error cannot be trusted for a map or signatures (a definition may be cut or
swallowed by the error node), but sending the file whole when the budget is tight throws the budget
at one broken file. The outline keeps what an agent looks for (where each def/class/function/
interface/type is, what the file imports) at a fraction of the file's tokens, and it is built from
the text alone, so it cannot be wrong about what is there.
"""

from __future__ import annotations

import re

# Each pattern matches a whole line (re.M); a line is kept when any pattern of its language matches.
_PY = (
    r"^[ \t]*(?:async[ \t]+)?def[ \t]+\w+",
    r"^[ \t]*class[ \t]+\w+",
    r"^(?:import|from)[ \t]+[\w.]+",
    r"^type[ \t]+\w+.*=",
    # a module-level constant, type alias or variable (`MAX = 3`, `JSON: TypeAlias = ...`, `a = b = 0`)
    r"^(?!(?:else|try|finally|except|elif|if|while|for|with|return|print|assert|del|global|raise)\b)"
    r"[A-Za-z_]\w*[ \t]*(?::[^=\n]+)?=(?!=)",
)
_JS_NAME = r"[A-Za-z_$][\w$]*"
_JS = (
    r"^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?(?:async[ \t]+)?"
    r"(?:function\*?|class|interface|type|enum|namespace|module)[ \t]+" + _JS_NAME,
    r"^[ \t]*(?:export[ \t]+)?(?:const|let|var)[ \t]+" + _JS_NAME + r"[^=\n]*=[ \t]*(?:async[ \t]*)?"
    r"(?:function\b|(?:<[^\n]*?>[ \t]*)?\([^)\n]*\)?[^=\n]*=>|(?:<[^\n]*?>[ \t]*)?\($|" + _JS_NAME + r"[ \t]*=>)",
    r"^(?:export[ \t]+)?(?:declare[ \t]+)?(?:const|let|var)[ \t]+" + _JS_NAME,  # module-level variables
    # a method: modifiers, a name, a parameter list and an opening brace on the same line
    r"^[ \t]+(?:(?:public|private|protected|static|readonly|async|override|abstract|get|set)[ \t]+)*"
    r"(?!(?:if|for|while|switch|catch|return|function|else|do|try|with|new|await|typeof)\b)"
    + _JS_NAME
    + r"[ \t]*(?:<[^>\n]*>)?[ \t]*\([^;\n]*\)[^;=\n]*\{[ \t]*$",
    r"^[ \t]*(?:import|export)[ \t]+.*\bfrom[ \t]+['\"]",
    r"^[ \t]*import[ \t]+['\"]",
)
# TypeScript only: the members of an interface or type literal (`name?: T`, `'x-y': T`,
# `run(a: A): B;`), a line that does not end with `,` (an object literal's entry does)
_TS = (
    *_JS,
    r"^[ \t]+(?:readonly[ \t]+)?(?!(?:default|case)\b)(?:[A-Za-z_$][\w$]*|'[^'\n]*'|\"[^\"\n]*\")\??[ \t]*:(?!:)"
    r"[^\n]*(?<!,)$",
    r"^[ \t]+(?:readonly[ \t]+)?(?!(?:if|for|while|switch|catch|return|await|new|typeof|else)\b)[A-Za-z_$][\w$]*\??"
    r"[ \t]*(?:<[^\n]*>)?\([^\n]*\)[ \t]*:[^=\n{]*(?:\{[ \t]*\})?;?[ \t]*$",
)
_RUST = (
    r"^[ \t]*(?:pub(?:\([^)\n]*\))?[ \t]+)?(?:(?:async|unsafe|const|default|extern[ \t]+\"[^\"\n]*\")[ \t]+)*"
    r"(?:fn|struct|enum|trait|impl|type|mod|union)\b",
    r"^[ \t]*macro_rules![ \t]*\w+",
    r"^[ \t]*(?:pub(?:\([^)\n]*\))?[ \t]+)?(?:const|static)[ \t]+[A-Z_][A-Z0-9_]*[ \t]*:",
    r"^[ \t]*(?:pub(?:\([^)\n]*\))?[ \t]+)?use[ \t]+",
)
_GO = (
    r"^func[ \t]",
    r"^[ \t]*type[ \t]+\w+",
    r"^import\b",
    r"^(?:const|var)[ \t]+\w+",
)
_JAVA = (
    r"^[ \t]*(?:@\w+[ \t]+)*(?:(?:public|private|protected|static|final|abstract|sealed|non-sealed|strictfp)[ \t]+)*"
    r"(?:class|interface|enum|record|@interface)[ \t]+\w+",
    r"^[ \t]*(?:(?:public|private|protected|static|final|abstract|synchronized|native|default)[ \t]+)+"
    r"[\w<>\[\], ?]+[ \t]+\w+[ \t]*\(",
    r"^(?:import|package)[ \t]+[\w.]+",
)
PATTERNS: dict[str, tuple[str, ...]] = {
    "python": _PY,
    "javascript": _JS,
    "typescript": _TS,
    "tsx": _TS,
    "rust": _RUST,
    "go": _GO,
    "java": _JAVA,
}
_COMPILED = {lang: re.compile("|".join(f"(?:{p})" for p in pats), re.M) for lang, pats in PATTERNS.items()}
LINE_MAX_CHARS = 160  # a longer matched line is cut (minified code has one very long line)
CONTINUATION_MAX_LINES = 24  # a signature whose `(` is still open goes on for at most this many lines


def outline_lines(text: str, language: str) -> list[tuple[int, str]]:
    """(1-based line number, line without trailing blanks) of each outline line of `text`."""
    rx = _COMPILED.get(language)
    if rx is None:
        return []
    out: list[tuple[int, str]] = []
    line_no = 1
    last = 0
    seen: set[int] = set()
    for m in rx.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        if start in seen:
            continue
        seen.add(start)
        line_no += text.count("\n", last, start)
        last = start
        stop = text.find("\n", start)
        line = text[start : stop if stop >= 0 else len(text)].rstrip()
        depth = _open_parens(line)
        if len(line) > LINE_MAX_CHARS:
            line = line[:LINE_MAX_CHARS] + " ..."
        out.append((line_no, line))
        # a multi-line signature: its following lines until the parameter list closes
        extra = 0
        while depth > 0 and stop >= 0 and extra < CONTINUATION_MAX_LINES:
            start = stop + 1
            stop = text.find("\n", start)
            prev = line
            line = text[start : stop if stop >= 0 else len(text)].rstrip()
            # a parameter list goes on after an open bracket or a comma, or closes on this line;
            # anything else is a body after a header the parser could not close (`def f(x:`)
            if not (prev.endswith(_GOES_ON) or line.lstrip().startswith((")", "]", ">", "}"))):
                break
            depth += _open_parens(line)
            extra += 1
            seen.add(start)
            line_no += text.count("\n", last, start)
            last = start
            out.append((line_no, line[:LINE_MAX_CHARS] + " ..." if len(line) > LINE_MAX_CHARS else line))
    return out


_STRINGS = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`[^`\n]*`|//.*$|#.*$")


_GOES_ON = ("(", ",", "[", "{", "<", "|", "&")


def _open_parens(line: str) -> int:
    """`(` minus `)` on `line`, strings and line comments left out."""
    bare = _STRINGS.sub("", line)
    return bare.count("(") - bare.count(")")


def lexical_outline(text: str, language: str) -> str:
    """The outline as text: `N: line` per kept line (the line's own indentation shows nesting)."""
    return "\n".join(f"{n}: {line}" for n, line in outline_lines(text, language))
