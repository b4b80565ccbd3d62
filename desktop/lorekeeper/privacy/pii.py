"""The deterministic PII gate (seed 004 §3.1): a clarification summary that still holds personal data
is refused (ERR_PII_DETECTED) before anything is written.

What it finds, each by a real validator rather than a loose pattern where one exists:
- e-mail addresses;
- phone numbers (`phonenumbers`: international `+...` numbers of every region, national numbers
  of the regions in `PHONE_REGIONS`, each checked valid against Google's metadata);
- IBANs (`stdnum.iban`: country format and mod-97 checksum);
- payment card numbers (13-19 digits, Luhn checksum, a card network's first digit);
- national identifiers (`python-stdnum` checksums: French NIR and NIF, US SSN, Spanish DNI/NIE,
  Italian codice fiscale, Belgian national number, Polish PESEL, German tax id, Swiss AHV,
  Danish CPR, Finnish HETU, Swedish personnummer, Brazilian CPF, UK NHS number; the UK NINO by its
  format);
- postal addresses (a house number with a street word in French, English or German, a postcode
  followed by a town, a UK postcode, a US "Town, ST 12345", a PO box);
- e-mail addresses written out ("jean.dupont at example dot fr", "(at)", "[dot]", "arobase",
  "point"), people named after a title (M., Mme, Mlle, Me, Dr, Pr, Mr, Mrs, Ms, Miss, Prof...),
  UK NI numbers, dates of birth ("né le", "born on", "DOB" and a full date), IPv4 and IPv6
  addresses (not loopback, unspecified, link-local v4, multicast or reserved, not a private
  network in CIDR form, not a version or section number: "version 1.2.3.4").

The text is matched after NFKC normalisation without its zero-width and other format characters,
so full-width forms ("＠", "０６") and invisible separators change nothing; upper case neither;
Cyrillic and Greek look-alikes inside a Latin word ("jеan" with a Cyrillic е) are read as Latin.

Findings carry the kind and the position only: the gate's messages never repeat the data itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lorekeeper.errors import LorekeeperError
from lorekeeper.text import fold

PHONE_REGIONS = ("FR", "US", "GB", "BE", "CH", "CA", "ES", "IT", "DE", "NL")
MIN_PHONE_DIGITS = 8  # shorter "valid" numbers (service codes, some regions' local numbers) are years and counts


class PiiDetectedError(LorekeeperError):
    code = "ERR_PII_DETECTED"


@dataclass(frozen=True)
class Finding:
    kind: str  # email | phone | iban | card | national_id | address | person | dob | ip
    start: int
    end: int
    detail: str = ""  # e.g. the validator that matched ("fr.nir"), never the value

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "start": self.start, "end": self.end, "detail": self.detail}


_EMAIL = re.compile(r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}")
# Formats that are phone numbers whatever the numbering plan says (fictional 555 numbers included):
# North American (415) 555-0134 / 555-123-4567, French 06 12 34 56 78
_PHONE_FORMATS = (
    re.compile(r"(?<![\w-])\(?[2-9]\d{2}\)?[ .\-]\d{3}[ .\-]\d{4}(?![\w-])"),
    # a country code in brackets: (+44) 7700 900 123, (+33) 6 12 34 56 78
    re.compile(r"\(\+\d{1,3}\)\s?\d(?:[ .\-]?\d){6,12}(?![\w-])"),
    re.compile(r"(?<![\w-])0[1-9](?:[ .\-]?\d{2}){4}(?![\w-])"),
)
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ \-]?[A-Z0-9]){11,32}\b", re.IGNORECASE)  # validated upper-cased
_SPACED_CHARS = re.compile(r"(?<!\w)(?<!\b\w\s)[A-Za-z]\s[A-Za-z](?:\s[A-Za-z0-9]){12,32}(?!\w)")
_DIGIT_RUN = re.compile(r"(?<![\w])\+?\d(?:[ .\-/]?\d){6,22}(?![\w])")
_ALNUM_ID = re.compile(r"\b[0-9A-Z](?:[ .\-]?[0-9A-Z]){7,17}\b")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_NINO = re.compile(
    r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z][ \-]?\d{2}[ \-]?\d{2}[ \-]?\d{2}[ \-]?[A-D]\b",
    re.IGNORECASE,
)
# ---------------------------------------------------------------- issue 24: the disguised forms
# E-mail addresses written out: "jean.dupont at example dot fr", "jean(at)example(dot)fr",
# "jean [arobase] exemple [point] fr", "jane @ example . com". The bare-word forms (" at ",
# " arobase ") must end on a known top-level domain, and " at " also needs a spelled-out dot or a
# local part that looks like one ("jean.dupont", "jane_doe"): "hosted at docs.python.org" is prose.
# French "chez" (jean.dupont chez exemple.fr) is read like " at ".
_SPELLED_DOT = r"(?:\s*[\[(\{<]\s*(?:dot|point|\.)\s*[\])\}>]\s*|\s+(?:dot|point)\s+)"
_DOT = rf"(?:{_SPELLED_DOT}|\.|\s+\.\s+)"  # "example . com", never "com. Later"
# "(a)" only written tight ("jean.dupont(a)example.fr"): "option (a) docs.python.org" is prose
_AT = r"(?P<at>\s*@\s*|%40|\(a\)|\s*[\[(\{<]\s*(?:at|arobase|@)\s*[\])\}>]\s*|\s+(?:at|arobase|chez)\s+)"
_LABEL = r"[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?"
_EMAIL_SPELLED = re.compile(
    rf"(?<![\w.@])(?P<local>[\w%+\-]{{1,64}}(?:(?:{_SPELLED_DOT}|\.|\s+\.\s+)[\w%+\-]{{1,64}}){{0,5}}){_AT}"
    rf"(?P<domain>{_LABEL}(?:{_DOT}{_LABEL}){{0,5}}){_DOT}(?P<tld>[a-z]{{2,24}})(?![\w@])",  # bounded: linear time
    re.IGNORECASE,
)
_SPELLED_DOT_RE = re.compile(_SPELLED_DOT, re.IGNORECASE)
_TLDS = frozenset(
    [
        "com",
        "org",
        "net",
        "edu",
        "gov",
        "mil",
        "int",
        "info",
        "biz",
        "name",
        "pro",
        "mobi",
        "io",
        "co",
        "ai",
        "app",
        "dev",
        "me",
        "tv",
        "ly",
        "xyz",
        "online",
        "site",
        "tech",
        "eu",
        "fr",
        "uk",
        "de",
        "es",
        "it",
        "nl",
        "be",
        "ch",
        "lu",
        "at",
        "pt",
        "pl",
        "se",
        "no",
        "dk",
        "fi",
        "ie",
        "is",
        "cz",
        "sk",
        "hu",
        "ro",
        "bg",
        "gr",
        "ru",
        "ua",
        "tr",
        "ca",
        "us",
        "mx",
        "br",
        "ar",
        "cl",
        "au",
        "nz",
        "jp",
        "cn",
        "kr",
        "in",
        "sg",
        "hk",
        "za",
        "ma",
        "tn",
        "dz",
        "sn",
        "ci",
        "re",
        "mc",
        "qc",
        "cat",
    ]
)
# A title, then one to three names (seed 004: "Mme Martin", "Dr. Jane Foster", "MR JOHN SMITH").
# Titles that are also ordinary words or abbreviations (Me, Ms, Miss, Pr, Sir, "M.") count only
# capitalised; an all-caps title needs an all-caps name ("MS Teams", "DR site" are not people); a
# lower-case name follows only the unambiguous civil titles ("mr smith", "mme durand").
_TITLE = re.compile(
    r"(?<![\w.])(?P<title>mme|mmes|mlle|mlles|madame|mesdames|mademoiselle|monsieur|messieurs|mrs|mr|mister|"
    r"dr|docteur|doctor|prof|professeur|professor|ma[iî]tre|m|me|ms|mx|miss|pr|sir|lady|dame)"
    r"(?P<dot>\.)?(?P<sep>\s+|(?<=\.)\s*)",
    re.IGNORECASE,
)
_SIZE_BEFORE = re.compile(r"(?:size|taille|format|plan|type|option|level|niveau|grade|class|classe)\s*$", re.IGNORECASE)
_PARTICLES = frozenset({"de", "du", "des", "d", "van", "von", "der", "den", "di", "da", "del", "le", "la"})
_AMBIGUOUS_TITLES = frozenset({"m", "me", "ms", "mx", "miss", "pr", "sir", "lady", "dame"})
_LOWER_OK_TITLES = frozenset(
    {"mme", "mmes", "mlle", "mlles", "madame", "mademoiselle", "monsieur", "mrs", "mr", "mister"}
)
_TITLE_WORDS = frozenset(
    [
        "mme",
        "mmes",
        "mlle",
        "mlles",
        "madame",
        "mesdames",
        "mademoiselle",
        "monsieur",
        "messieurs",
        "mrs",
        "mr",
        "mister",
        "dr",
        "docteur",
        "doctor",
        "prof",
        "professeur",
        "professor",
        "m",
        "maitre",
        "me",
        "ms",
        "mx",
        "miss",
        "pr",
        "sir",
        "lady",
        "dame",
    ]
)
_LOWER_OK_WITH_DOT = frozenset({"dr", "prof"})
_NAME = re.compile(r"[^\W\d_][^\W\d_'’\-]*(?:['’\-][^\W\d_]+)*")
_NOT_NAMES = frozenset(
    # capitalised words that follow a title without naming anyone: articles, and the brands and
    # products named "Dr ..." / "MS ..."
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "for",
        "to",
        "in",
        "on",
        "at",
        "by",
        "le",
        "la",
        "les",
        "l",
        "de",
        "du",
        "des",
        "d",
        "un",
        "une",
        "et",
        "ou",
        "en",
        "au",
        "aux",
        "pour",
        "par",
        "sur",
        "pepper",
        "clean",
        "robot",
        "potato",
        "martens",
        "oetker",
        "web",
        "dre",
        "who",
        "no",
        "strange",
        "jekyll",
        "sql",
        "dos",
        "teams",
        "office",
        "word",
        "excel",
        "azure",
        "edge",
        "access",
        "project",
        "outlook",
        "paint",
        "windows",
        # sentence starters after a one-letter "M." (a size, a plan): "size M. Then ..."
        "then",
        "this",
        "that",
        "these",
        "those",
        "it",
        "we",
        "they",
        "there",
        "ensuite",
        "puis",
        "il",
        "elle",
        "ils",
        "elles",
        "nous",
        "vous",
        "ce",
        "cette",
        "ces",
        "mais",
        "donc",
        "alors",
        "enfin",
    ]
)
_MONTHS = (
    r"janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"janv|f[ée]vr?|avr|juil|sept?|oct|nov|d[ée]c|jan|feb|mar|apr|jun|jul|aug"
)
_DATE = (
    r"(?:\d{1,2}[/.\-]\d{1,2}[/.\-](?:\d{4}|\d{2})|\d{4}[\-/.]\d{1,2}[\-/.]\d{1,2}"
    rf"|\d{{1,2}}(?:er|st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\.?,?\s+(?:\d{{4}}|\d{{2}}(?!\d))"
    rf"|(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}[\-/.](?:{_MONTHS})[\-/.](?:\d{{4}}|\d{{2}}(?!\d)))"  # 12-Mar-1984, 3/mars/79
)
_MONTH_YEAR = rf"(?:{_MONTHS})\.?\s+\d{{4}}"  # after a birth word only: "born in March 1985"
# A date of birth: a birth word, then a full date (a date alone is a deadline or a release).
_DOB = re.compile(
    r"(?<![\w])(?:born|b\.|date\s+of\s+birth|birth\s*date|birthday|d\.?\s?o\.?\s?b\.?"
    r"|n[ée]e?(?:\s*\(e\))?|date\s+de\s+naissance|naissance)"
    # "born in Leeds on", "née à Lyon le", "DOB is", "date de naissance : le"
    r"(?:\s+(?:in|at|à|a)\s+[^\W\d_][\w'\-]*)?(?:\s*(?:[:=\-–]|is|was|est|était))?(?:\s*(?:on|le|du|en|in))?(?:\s+the)?"
    rf"\s*(?:{_DATE}|{_MONTH_YEAR})(?!\d)",
    re.IGNORECASE,
)
# "12/03/1985 (DOB)", "1985-03-12, date de naissance": the birth word after the date
_DOB_AFTER = re.compile(
    rf"(?<![\w/.\-]){_DATE}\s*[(\[,\-–]?\s*(?:dob|d\.o\.b\.?|date\s+of\s+birth|birth\s*date|date\s+de\s+naissance)\b",
    re.IGNORECASE,
)
# written defanged, as security reports do: 81[.]2[.]69[.]160, 81(.)2(.)69(.)160, 81[dot]2[dot]69[dot]160
_IPV4_DEFANGED = re.compile(
    r"(?<![\w.])(?:\d{1,3}\s*(?:\[\.\]|\(\.\)|\[dot\]|\(dot\))\s*){3}\d{1,3}(?![\w]|\.\d)", re.IGNORECASE
)
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
_IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f:.]{2,46}(?![\w:.])")  # then 2 colons or more, validated
# "version 1.2.3.4", "section 3.10.1.2": a dotted quad after one of these words is not an address
_VERSION_BEFORE = re.compile(
    r"(?:version|release|build|ver|rev|revision|firmware|v|§|section|chapter|chapitre|paragraphe?|art|article"
    r"|[<>=~!]=|[<>^~])\.?\s*$",  # and requirement specifiers: "brotlicffi>=1.2.0.0"
    re.IGNORECASE,
)
_VERSION_AFTER = re.compile(
    r"\s+(?:(?:du|of\s+the|de\s+la|de\s+l')\s+)?(?:hotfix|release|patch|build|update|upgrade|firmware|version|"
    r"pilote|driver|sdk|api|app|client\s+release)\b",
    re.IGNORECASE,
)
# Cyrillic and Greek letters drawn like Latin ones, read as Latin inside a word that mixes scripts
_CONFUSABLES = str.maketrans(
    "аеорсухіјѕԁһԛԝАВЕКМНОРСТХІЈЅΑΒΕΖΗΙΚΜΝΟΡΤΥΧοαν",
    "aeopcyxijsdhqwABEKMHOPCTXIJSABEZHIKMNOPTYXoav",
)
_MIXED_WORD = re.compile(r"[\w.@\-]*[\u0370-\u03ff\u0400-\u04ff\u0500-\u052f][\w.@\-]*")
_FORMAT_CHARS = ("Cf",)  # zero-width spaces and joiners, soft hyphens, BOMs, bidi marks
_INVISIBLE = frozenset("\u034f\u115f\u1160\u3164\uffa0\u2800" + "".join(chr(c) for c in range(0xFE00, 0xFE10)))
_DOTS = {"\u3002": ".", "\uff61": ".", "\u2024": ".", "\u2219": ".", "\u22c5": "."}  # 。 ｡ ․ ∙ ⋅


def normalise(text: str) -> tuple[str, list[int]]:
    """`text` in NFKC (full-width forms to ASCII, compatibility characters unfolded, a letter and
    its combining accents composed) without the invisible format characters, ideographic dots
    read as dots, and, for each of its characters, the index in `text` it came from."""
    import unicodedata

    clusters: list[tuple[int, str]] = []  # (index of the base character, the base and its marks)
    for i, ch in enumerate(text):
        if ch.isascii():
            clusters.append((i, ch))
            continue
        if unicodedata.category(ch) in _FORMAT_CHARS or ch in _INVISIBLE:
            continue
        ch = _DOTS.get(ch, ch)
        if unicodedata.combining(ch) and clusters:
            start, chars = clusters[-1]
            clusters[-1] = (start, chars + ch)
            continue
        clusters.append((i, ch))
    out: list[str] = []
    where: list[int] = []
    for start, chars in clusters:
        norm = chars if chars.isascii() else unicodedata.normalize("NFKC", chars)
        out.append(norm)
        where.extend([start] * len(norm))
    text = "".join(out)
    if not text.isascii():  # "jеan.dupont@exаmple.fr" with a Cyrillic е and а: one script per word
        text = _MIXED_WORD.sub(_unconfuse, text)
    return text, where


def _unconfuse(m: re.Match[str]) -> str:
    word = m.group(0)
    if not any("a" <= c.lower() <= "z" for c in word):
        return word  # a Cyrillic or Greek word of its own stays as it is
    return word.translate(_CONFUSABLES)


# After "NI number", "NINO", "national insurance": any two letters (HMRC's own examples use QQ)
_NINO_CONTEXT = re.compile(
    r"(?:\bNI\b|\bN\.I\.|\bNINO\b|national\s+insurance)(?:\s+(?:number|no\.?|num[ée]ro|nr))?\s*(?:[:#=]|is)?\s*"
    r"(?P<id>[A-Z]{2}[ \-]?\d{2}[ \-]?\d{2}[ \-]?\d{2}(?:[ \-]?[A-D])?)\b",
    re.IGNORECASE,
)
# After "SSN" or "social security number": spaces or dots between the groups too
_SSN_CONTEXT = re.compile(
    r"(?:\bSSN\b|social\s+security(?:\s+(?:number|no\.?|#))?)\s*(?:[:#=]|is)?\s*(?P<id>\d{3}[ .\-]?\d{2}[ .\-]?\d{4})\b",
    re.IGNORECASE,
)
# After "NIR", "sécu", "sécurité sociale", "INSEE": a number of the NIR's shape is one, even when
# its key does not check (a typo in the key leaves the rest of the number personal)
_NIR_CONTEXT = re.compile(
    r"(?:\bNIR\b|\bs[ée]cu(?:rit[ée]\s+sociale)?\b|\bINSEE\b|social\s+security)[^\d\n]{0,16}?"
    r"(?P<id>\b[12][ .]?\d{2}[ .]?(?:0[1-9]|1[0-2]|[2-9]\d)[ .]?(?:\d{2}|2[AB])[ .]?\d{3}[ .]?\d{3}(?:[ .]?\d{2})?)\b",
    re.IGNORECASE,
)
_FR_STREET = (
    r"rue|r\.|avenue|av\.|boulevard|bd|chemin|impasse|all[ée]e|place|quai|route|cours|passage|square|voie|"
    r"r[ée]sidence|lotissement|faubourg|hameau|lieu-dit"
)
_EN_STREET = (
    r"street|st\.?|avenue|ave\.?|road|rd\.?|boulevard|blvd\.?|lane|ln\.?|drive|dr\.?|court|ct\.?|way|"
    r"place|pl\.?|terrace|close|crescent|square|highway|parkway|loop|row|alley|plaza|circle|trail|boulevard"
)
_ADDRESSES = [
    # 12 rue des Lilas, 3 bis avenue Foch, 7, place de la Mairie
    re.compile(
        rf"\b\d{{1,4}}(?:\s?(?:bis|ter|[a-d]))?,?\s+(?:{_FR_STREET})\s+(?:(?:de|du|des|d'|la|le|l'|les)\s*)*[A-ZÀ-ÖØ-Ý][\w'\-]+",
        re.IGNORECASE,
    ),
    # 221B Baker Street, 1600 Pennsylvania Avenue
    re.compile(rf"\b\d{{1,5}}[A-Za-z]?\s+(?:[A-Z][\w'\-]+\s+){{1,3}}(?:{_EN_STREET})(?![\w])", re.IGNORECASE),
    # Hauptstraße 5, Lindenweg 12
    re.compile(r"\b[A-ZÄÖÜ][a-zäöüß]+(?:straße|strasse|str\.|weg|platz|allee|gasse|ring|damm)\s+\d{1,4}[a-z]?\b"),
    # 75011 Paris, 69003 Lyon Cedex, 1000 Bruxelles, 10115 Berlin
    re.compile(
        r"\b(?:F-|B-|D-|CH-|L-)?\d{4,5}\s+[A-ZÀ-ÖØ-Ý][a-zà-öø-ÿ]+(?:[\- ](?:sur|sous|en|le|la|les|[A-ZÀ-ÖØ-Ý][a-zà-öø-ÿ]+))*(?:\s+cedex)?\b"
    ),
    # the same in capitals: 75011 PARIS, 69003 LYON CEDEX (4 letters at least: "4096 RSA" is no town)
    re.compile(r"\b(?:F-|B-|D-|CH-|L-)?\d{4,5}\s+[A-ZÀ-ÖØ-Ý]{4,}(?:[\- ](?:SUR|SOUS|EN|LE|LA|LES|[A-ZÀ-ÖØ-Ý]{2,}))*\b"),
    # SW1A 1AA, M1 1AE
    re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b"),
    # Springfield, IL 62704
    re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*,\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?\b"),
    # Calle Mayor 5, Via Roma 12, Piazza Navona 3 (the street word capitalised: "via" is also English)
    re.compile(r"\b(?:Calle|Avenida|Via|Viale|Piazza|Plaza|Rua|Carrer)\s+(?:[\w'\-]+\s+){1,4}\d{1,4}[a-z]?\b"),
    # PO Box 123, BP 42, boîte postale 7
    re.compile(r"\b(?:P\.?\s?O\.?\s?Box|B\.?P\.?|bo[iî]te postale)\s+\d{1,6}\b", re.IGNORECASE),
]
# The address pattern "NNNNN Town" also matches "2026 Roadmap" or "5000 Requests": a capitalised
# word after a bare number is an address only when the word is not a common English/French noun.
_NOT_TOWNS = frozenset(
    [
        "users",
        "requests",
        "rows",
        "tickets",
        "stories",
        "items",
        "errors",
        "orders",
        "customers",
        "clients",
        "lines",
        "files",
        "tests",
        "points",
        "euros",
        "dollars",
        "ms",
        "seconds",
        "minutes",
        "jours",
        "heures",
        "utilisateurs",
        "requetes",
        "lignes",
        "commandes",
        "roadmap",
        "release",
        "version",
        "sprint",
        "q1",
        "q2",
        "q3",
        "q4",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "janvier",
        "fevrier",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "aout",
        "septembre",
        "octobre",
        "novembre",
        "decembre",
    ]
)


_NATIONAL = (
    "fr.nir",
    "fr.nif",
    "es.dni",
    "es.nie",
    "it.codicefiscale",
    "be.nn",
    "pl.pesel",
    "de.idnr",
    "ch.ssn",
    "dk.cpr",
    "fi.hetu",
    "se.personnummer",
    "br.cpf",
    "gb.nhs",
)


def _national_validators() -> list[tuple[str, object]]:
    import importlib

    return [(name, importlib.import_module(f"stdnum.{name}")) for name in _NATIONAL]


_VALIDATORS: list[tuple[str, object]] | None = None


def _validators() -> list[tuple[str, object]]:
    global _VALIDATORS
    if _VALIDATORS is None:
        _VALIDATORS = _national_validators()
    return _VALIDATORS


def _national_id(raw: str) -> tuple[int, int, str] | None:
    """(start, end, validator) of the first window of `raw`'s space-separated parts that a
    national-id validator accepts ("DNI 12345678Z": the window "12345678Z")."""
    parts = [(m.start(), m.end()) for m in re.finditer(r"\S+", raw)]
    for i in range(len(parts)):
        for j in range(len(parts), i, -1):
            start, end = parts[i][0], parts[j - 1][1]
            window = raw[start:end]
            compact = re.sub(r"[ .\-/]", "", window)
            if len(compact) < 9 or sum(c.isdigit() for c in compact) < 6:
                continue
            for name, mod in _validators():
                if name == "it.codicefiscale" and len(compact) != 16:
                    continue  # its 11-digit form is a company's VAT number (and 1 in 10 random numbers)
                try:
                    ok = bool(mod.is_valid(window)) or bool(mod.is_valid(compact))  # type: ignore[attr-defined]
                except Exception:  # noqa: BLE001 - a validator's own parsing error is "not this kind"
                    ok = False
                if ok:
                    return start, end, name
    return None


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _overlaps(f: Finding, found: list[Finding]) -> bool:
    return any(f.start < g.end and g.start < f.end for g in found)


def find_pii(text: str) -> list[Finding]:
    """Every piece of personal data the gate recognises in `text`, in order of position.

    The text is matched in NFKC without its invisible characters (`normalise`): full-width "＠",
    zero-width spaces inside a number or an address change nothing. Positions are `text`'s own."""
    norm, where = normalise(text)
    found = _find(norm)
    if len(norm) == len(text) and norm == text:
        return found
    return [Finding(f.kind, where[f.start], where[f.end - 1] + 1, f.detail) for f in found]


def _spelled_email_ok(m: re.Match[str]) -> bool:
    at = m.group("at").strip().casefold()
    if at in ("at", "arobase", "chez"):  # bare words: prose unless it ends on a real TLD...
        if m.group("tld").casefold() not in _TLDS:
            return False
        spelled = _SPELLED_DOT_RE.search(m.group(0)) is not None
        local = m.group("local").casefold()
        if at in ("at", "chez") and not spelled and not re.search(r"[._\d]", local) and _prose_word(local):
            return False  # ..."hosted at docs.python.org", "find us at example.com"; "jean at example.fr" is one
    elif at == "@" and m.group("at") != "@" and m.group("tld").casefold() not in _TLDS:
        return False  # a spaced "@": "ruff check @arguments.txt" is a file argument
    elif at == "(a)" and m.group("tld").casefold() not in _TLDS:
        return False  # "item(a)config.yaml" is no address
    return True


_NOT_LOCAL = frozenset(
    [
        "us",
        "me",
        "him",
        "her",
        "them",
        "it",
        "you",
        "we",
        "they",
        "one",
        "here",
        "there",
        "home",
        "work",
        "docs",
        "doc",
        "site",
        "page",
        "online",
        "live",
        "up",
        "open",
        "anyone",
        "someone",
        "everyone",
        "people",
        "users",
        "customers",
        "team",
        "staff",
        "office",
        "available",
        "hosted",
        "found",
        "look",
        "published",
        "listed",
        "located",
        "running",
        "served",
        "deployed",
        "mirrored",
        "documented",
        "described",
        "app",
        "apps",
        "api",
        "apis",
        "service",
        "services",
        "server",
        "servers",
        "dashboard",
        "portal",
        "backend",
        "frontend",
        "endpoint",
        "instance",
        "store",
        "shop",
        "blog",
        "wiki",
        "repo",
        "repos",
        "registry",
        "mirror",
        "cdn",
        "bucket",
        "login",
        "status",
        "build",
        "builds",
        "release",
        "releases",
        "version",
        "package",
        "packages",
        "project",
        "projects",
        "code",
        "source",
        "docs",
        "demo",
        "test",
        "tests",
        "staging",
        "prod",
        "production",
        "serveur",
        "serveurs",
        "application",
        "appli",
        "client",
        "clients",
        "nous",
        "vous",
        "moi",
        "lui",
        "eux",
        "equipe",
        "projet",
        "depot",
        "site",
        "heberge",
        "hebergee",
        "heberges",
        "hebergees",
        "deploye",
        "deployee",
        "installe",
        "installee",
        "publie",
        "publiee",
        "situe",
        "situee",
        "base",
        "basee",
        "stocke",
        "stockee",
        "localise",
        "localisee",
    ]
)


# English participles and adverbs: "hosted at", "available at" (French ones are listed: a name
# such as André or Chloé ends like a participle)
_PROSE_ENDINGS = ("ed", "ing", "ble", "ly", "ment")


def _prose_word(word: str) -> bool:
    """`word` before " at " reads as prose (a pronoun, a participle, "available") rather than a name."""
    word = _fold(word)
    return word in _NOT_LOCAL or word.endswith(_PROSE_ENDINGS) or len(word) < 3


def _persons(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for m in _TITLE.finditer(text):
        title = m.group("title")
        key = _fold(title)
        if key == "m" and (not m.group("dot") or _SIZE_BEFORE.search(text[max(0, m.start() - 12) : m.start()])):
            continue  # "M." only: a bare M is a letter, a million; "size M.", "taille M." a size
        if key in _AMBIGUOUS_TITLES and (not title[0].isupper() or (len(title) > 1 and title.isupper())):
            continue  # "me", "ms"; and in capitals "PR", "MS", "ME" are pull requests, Microsoft, Maine
        caps = len(title) > 1 and title.isupper()
        # a lower-case name only after a lower-case civil title ("mr smith", "mme durand") or a
        # doctor or professor with the dot ("dr. smith")
        lower = title.islower() and (key in _LOWER_OK_TITLES or (bool(m.group("dot")) and key in _LOWER_OK_WITH_DOT))
        pos = m.end()
        end = -1
        words = 0
        while words < 4:
            n = _NAME.match(text, pos)
            if not n:
                break
            word = n.group(0)
            folded = _fold(word)
            if folded in _PARTICLES:  # "M. de Villepin", "Mme van der Berg": only before a name
                after = n.end()
                while True:
                    nxt = re.match(r"[ \t]+", text[after:])
                    if not nxt:
                        break
                    follow = _NAME.match(text, after + nxt.end())
                    if follow and _fold(follow.group(0)) in _PARTICLES:
                        after = follow.end()
                        continue
                    break
                if nxt and _name_word(text, after + nxt.end(), caps=caps, lower=False):
                    pos = after + nxt.end()
                    continue
                break
            if folded in _TITLE_WORDS or not _name_word(text, pos, caps=caps, lower=lower):
                break  # "Prof. Dr. Schmidt": the next title names him
            end = n.end()
            words += 1
            if len(word) == 1 and text[end : end + 1] == ".":
                end += 1  # an initial: "Mr J. Smith"
            sep = re.match(r"[ \t]+", text[end:])
            if not sep:
                break
            pos = end + sep.end()
        if end > 0:
            out.append((m.start(), end, "title"))
    return out


def _name_word(text: str, pos: int, *, caps: bool, lower: bool) -> bool:
    """A name starts at `pos`: capitalised (in capitals after a title in capitals), or in lower
    case when `lower` allows it; not an article, a brand or a sentence starter."""
    n = _NAME.match(text, pos)
    if not n:
        return False
    word = n.group(0)
    if _fold(word) in _NOT_NAMES or (len(word) < 2 and not word.isupper()):
        return False
    if caps and not word.isupper():
        return False
    return word[0].isupper() or lower


_CLAIMED = "-"  # a span read as something harmless (a private network): no later detector takes it


def _ips(text: str) -> list[tuple[int, int, str]]:
    import ipaddress

    out: list[tuple[int, int, str]] = []
    for m in _IPV4_DEFANGED.finditer(text):
        octets = [int(o) for o in re.findall(r"\d+", m.group(0))]
        if max(octets) <= 255:
            out.append((m.start(), m.end(), "ipv4-defanged"))
    for m in _IPV6.finditer(text):  # first: "::ffff:192.0.2.128" is one address, not its IPv4 tail
        raw = m.group(0).rstrip(".")  # "... from 2001:db8::1." ends a sentence
        if raw.count(":") < 2:
            continue
        try:
            ip6 = ipaddress.IPv6Address(raw)
        except ValueError:
            continue
        harmless6 = ip6.is_loopback or ip6.is_unspecified
        out.append((m.start(), m.start() + len(raw), _CLAIMED if harmless6 else "ipv6"))
    for m in _IPV4.finditer(text):
        octets = [int(o) for o in m.group(0).split(".")]  # "192.168.001.001": leading zeros too
        if max(octets) > 255:
            continue
        ip4 = ipaddress.IPv4Address(".".join(map(str, octets)))
        end = m.end()
        version = bool(
            _VERSION_BEFORE.search(text[max(0, m.start() - 12) : m.start()]) or _VERSION_AFTER.match(text, end)
        )
        # not 169.254.169.254 (the cloud metadata address), 255.255.255.0 (a mask), 127.0.0.1...
        harmless = ip4.is_loopback or ip4.is_unspecified or ip4.is_link_local or ip4.is_multicast or ip4.is_reserved
        cidr = re.match(r"/(\d{1,2})(?!\d)", text[end:])
        if cidr and ip4.is_private and int(cidr.group(1)) <= 30:
            try:  # "10.0.0.0/8": a private network, not a host
                ipaddress.IPv4Network(f"{ip4}/{cidr.group(1)}", strict=True)
                harmless, end = True, end + cidr.end()
            except ValueError:
                pass
        # a harmless quad's span is claimed, not reported: no phone or id detector reads its digits
        out.append((m.start(), end, _CLAIMED if version or harmless else "ipv4"))
    return out


def _iban(raw: str) -> int:
    """The length of the longest prefix of `raw` (cut at a separator) that is a valid IBAN, or 0."""
    from stdnum import iban

    cut = len(raw)
    while cut >= 15:
        if iban.is_valid(raw[:cut].upper()):
            return cut
        cut = max(raw.rfind(" ", 0, cut), raw.rfind("-", 0, cut))
    return 0


_DATE_ONLY = re.compile(r"\s*(\d{1,2})[./\-](\d{1,2})[./\-](\d{4})\s*|\s*(\d{4})[./\-](\d{1,2})[./\-](\d{1,2})\s*")


def _is_date(raw: str) -> bool:
    """`raw` is a whole date: day/month/year, month/day/year or year-month-day."""
    m = _DATE_ONLY.fullmatch(raw)
    if not m:
        return False
    x, y = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(6)), int(m.group(5)))
    return (1 <= x <= 31 and 1 <= y <= 12) or (1 <= x <= 12 and 1 <= y <= 31)


def _find(text: str) -> list[Finding]:
    out: list[Finding] = []

    def add(kind: str, start: int, end: int, detail: str = "") -> None:
        f = Finding(kind, start, end, detail)
        if kind == "phone" and _is_date(text[start:end]):
            return  # "06.12.2026" is a valid Rome number and a date: read as the date
        reference = start >= 2 and text[start - 1] in "-/_" and text[start - 2].isalnum()
        if kind in ("phone", "national_id") and reference:
            return  # the tail of a reference ("FR-2026-000123", "INV/2026/0042"), not a number to call
        if not _overlaps(f, out):
            out.append(f)

    for m in _EMAIL.finditer(text):
        add("email", m.start(), m.end())
    for m in _EMAIL_SPELLED.finditer(text):
        if _spelled_email_ok(m):
            add("email", m.start(), m.end(), "spelled")
    for m in _DOB.finditer(text):
        add("dob", m.start(), m.end(), "birth")
    for m in _DOB_AFTER.finditer(text):
        add("dob", m.start(), m.end(), "birth")
    for start, end, detail in _ips(text):
        add(_CLAIMED if detail == _CLAIMED else "ip", start, end, detail)
    for m in _IBAN.finditer(text):
        n = _iban(m.group(0))
        if n:
            add("iban", m.start(), m.start() + n, "iban")
    for m in _SPACED_CHARS.finditer(text):  # "F R 7 6 3 0 0 0 ...": one character at a time
        compact = m.group(0).replace(" ", "")
        if _iban(compact) == len(compact):
            add("iban", m.start(), m.end(), "iban")
    for m in _DIGIT_RUN.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if 13 <= len(digits) <= 19 and digits[0] in "3456" and _luhn(digits) and not m.group(0).startswith("+"):
            add("card", m.start(), m.end(), "luhn")
    for m in _SSN.finditer(text):
        from stdnum.us import ssn

        if ssn.is_valid(m.group(0)):
            add("national_id", m.start(), m.end(), "us.ssn")
    for m in _SSN_CONTEXT.finditer(text):  # named as an SSN: its shape is enough (078-05-1120 too)
        add("national_id", m.start("id"), m.end("id"), "us.ssn")
    for m in _NIR_CONTEXT.finditer(text):
        add("national_id", m.start("id"), m.end("id"), "fr.nir")
    for m in _NINO.finditer(text):
        add("national_id", m.start(), m.end(), "gb.nino")
    for m in _NINO_CONTEXT.finditer(text):
        add("national_id", m.start("id"), m.end("id"), "gb.nino")
    for start, end, detail in _persons(text):
        add("person", start, end, detail)
    import phonenumbers

    for region in (None, *PHONE_REGIONS):
        try:
            matcher = phonenumbers.PhoneNumberMatcher(text, region or "ZZ", leniency=phonenumbers.Leniency.VALID)
            for match in matcher:
                if sum(c.isdigit() for c in match.raw_string) >= MIN_PHONE_DIGITS:
                    add("phone", match.start, match.end, phonenumbers.region_code_for_number(match.number) or "")
        except Exception:  # noqa: BLE001 - the matcher never should, but the gate must not crash on odd text
            continue
    try:  # an explicit international number (+CC ...) is a phone number when it is merely possible
        for match in phonenumbers.PhoneNumberMatcher(text, "ZZ", leniency=phonenumbers.Leniency.POSSIBLE):
            if (
                match.raw_string.lstrip().startswith(("+", "00"))
                and sum(c.isdigit() for c in match.raw_string) >= MIN_PHONE_DIGITS
            ):
                add("phone", match.start, match.end, "international")
    except Exception:  # noqa: BLE001
        pass
    for pattern in _PHONE_FORMATS:
        for m in pattern.finditer(text):
            add("phone", m.start(), m.end(), "format")
    for pattern in (_DIGIT_RUN, _ALNUM_ID):
        for m in pattern.finditer(text):
            hit = _national_id(m.group(0))
            if hit:
                add("national_id", m.start() + hit[0], m.start() + hit[1], hit[2])
    for pattern in _ADDRESSES:
        for m in pattern.finditer(text):
            words = m.group(0).split()
            if pattern in (_ADDRESSES[3], _ADDRESSES[4]) and len(words) >= 2 and _fold(words[1]) in _NOT_TOWNS:
                continue
            add("address", m.start(), m.end())
    found = sorted((f for f in out if f.kind != _CLAIMED), key=lambda f: f.start)
    return _join_addresses(text, found)


# After a street or a house number: more capitalised words of the street's name ("avenue Jean
# Jaurès"), a bis/ter, a compass suffix ("Avenue NW"); case-sensitive, unlike the patterns above
_ADDRESS_TAIL = re.compile(r"(?:[ \-](?:[A-ZÀ-ÖØ-Ý][\w'\-]*|N|S|E|W|NE|NW|SE|SW))+\b")
_ADDRESS_GAP = re.compile(r"[ \t]*,?[ \t]*(?:\n[ \t]*)?(?:[A-ZÀ-ÖØ-Ý][\w'\-]+,?[ \t]+){0,2}")  # ", London "


def _join_addresses(text: str, found: list[Finding]) -> list[Finding]:
    """One finding for one address: its street is extended over the rest of its capitalised name,
    and address parts next to each other ("12 rue des Lilas, 75011 Paris") become one finding."""
    out: list[Finding] = []
    for f in found:
        if f.kind == "address":
            tail = _ADDRESS_TAIL.match(text, f.end)
            end = tail.end() if tail else f.end
            if not any(g.start < end and f.end < g.end and g is not f for g in found):
                f = Finding(f.kind, f.start, end, f.detail)
            prev = out[-1] if out else None
            if prev is not None and prev.kind == "address":
                gap = _ADDRESS_GAP.fullmatch(text, prev.end, f.start) if prev.end <= f.start else None
                if gap is not None or f.start < prev.end:
                    out[-1] = Finding("address", prev.start, max(prev.end, f.end), prev.detail)
                    continue
        out.append(f)
    return out


def _fold(word: str) -> str:
    return fold(word).strip(",.;:")


_LABELS = {
    "email": ("email", "emails"),
    "phone": ("phone", "phones"),
    "iban": ("iban", "ibans"),
    "card": ("card", "cards"),
    "national_id": ("national id", "national ids"),
    "address": ("address", "addresses"),
    "person": ("name with a title", "names with a title"),
    "dob": ("date of birth", "dates of birth"),
    "ip": ("IP address", "IP addresses"),
}


def describe(findings: list[Finding]) -> str:
    kinds: dict[str, int] = {}
    for f in findings:
        kinds[f.kind] = kinds.get(f.kind, 0) + 1
    return ", ".join(f"{n} {_LABELS.get(k, (k, k + 's'))[n > 1]}" for k, n in sorted(kinds.items()))


def check_text(text: str, *, what: str = "the summary") -> None:
    """Raise ERR_PII_DETECTED when `text` holds personal data (the message names kinds and places only)."""
    found = find_pii(text)
    if found:
        where = ", ".join(f"{f.kind} at {f.start}-{f.end}" for f in found[:6])
        raise PiiDetectedError(
            f"{what} still holds personal data ({describe(found)}: {where}); nothing was written. "
            "Rephrase without it (or reject the summary) and run the clarification again.",
            findings=[f.to_dict() for f in found],
        )
