"""Scoring of answers against the known questions: pure functions over data.

An *expected* block is a question's (or a turn's) ``expected:`` mapping from
evals/questions.yaml; an *answer* is an Answer as JSON (the ``ask --jsonl`` contract):
``{"status", "answer", "municipality", "citations": [...], "tool_calls": [...]}``.

Metrics (names as in evals/reports/latest.json):

- ``answer_accuracy``: right status, every ``must_contain`` entry present in the answer
  text (an entry that is a list is satisfied by any one of its alternatives), no
  ``must_not_contain`` entry present; case-insensitive, whitespace collapsed.
- ``citation_precision``: of the answer's citations, the share that match an expected
  one (mean over answers that cite something); ``citation_recall``: of the expected
  citations, the share some answer citation matches (mean over turns that expect
  citations). A citation matches when the municipality matches and the section matches
  (or, when the expected gives no section, the title, case-insensitive), and, when the
  expected gives a subsection, the answer's subsection starts with it.
- ``lead_citation_precision``: of the answers that cite something where citations are
  expected, the share whose FIRST citation matches an expected one (what a reader sees first).
- ``wrong_figures``: count of turns where the answer states a computed figure (status
  ``answered`` with a calculator call) that is not the expected one: an expected ``values``
  entry missing, or a figure given where the question lacks an input (expected ``clarify``).
- ``right_or_ask``: share of calculation turns answered right or met with a clarifying
  question (the slot-stress measure: never a wrong figure; asking is acceptable).
- ``quote_faithfulness``: share of all citations whose quote is verbatim in the corpus.
- ``numeric_exactness``: share of turns with expected ``values`` whose every value
  appears in the answer text or in a calculator result.
- ``status_accuracy``: share of turns with the right status.
- ``invented_numbers``: count of numbers (digits, money, dates, times, percents,
  ordinals written as digits) in answers that appear in no calculator result or
  argument, no cited quote or citation, and not in the user's own words (the question
  and earlier user turns). Must be 0.
- ``p50_ms`` / ``p95_ms``: answer latency percentiles.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

METRICS = (
    "answer_accuracy",
    "citation_precision",
    "lead_citation_precision",
    "citation_recall",
    "quote_faithfulness",
    "numeric_exactness",
    "status_accuracy",
    "invented_numbers",
    "wrong_figures",
    "right_or_ask",
    "p50_ms",
    "p95_ms",
)


# -- small helpers -----------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation between closest ranks
    (numpy's default); NaN for no values."""
    if not values:
        return math.nan
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


_PUNCT = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                        "\u2014": "-", "\u2011": "-", "\u00a0": " "})


def norm_text(text: str | None) -> str:
    """Lower case, typographic quotes and dashes made plain, whitespace collapsed; "a.m." / "p.m." as "am" / "pm"
    (the code prints "9:00 a.m." where a writer writes "9:00 AM")."""
    text = re.sub(r"\s+", " ", (text or "").translate(_PUNCT)).strip().lower()
    return re.sub(r"\b([ap])\.\s?m\.", r"\1m", text)


def contains(text: str, needle: str) -> bool:
    n = norm_text(needle)
    return bool(n) and n in norm_text(text)


def _alternatives(entry: str | Sequence[str]) -> list[str]:
    return [entry] if isinstance(entry, str) else [str(e) for e in entry]


# -- facts and status ----------------------------------------------------------------
def missing_facts(expected: dict, answer: dict) -> list[str]:
    """must_contain entries absent from the answer text (a list entry: none of its
    alternatives present)."""
    text = answer.get("answer") or ""
    return [
        " | ".join(_alternatives(e))
        for e in expected.get("must_contain") or []
        if not any(contains(text, alt) or measure_present(alt, text) for alt in _alternatives(e))
    ]


def forbidden_facts(expected: dict, answer: dict) -> list[str]:
    """must_not_contain entries present in the answer text."""
    text = answer.get("answer") or ""
    return [alt for e in expected.get("must_not_contain") or [] for alt in _alternatives(e) if contains(text, alt)]


def status_ok(expected: dict, answer: dict) -> bool:
    return answer.get("status") == expected.get("status")


def answer_correct(expected: dict, answer: dict) -> bool:
    """Right status, every required fact, no forbidden one."""
    return status_ok(expected, answer) and not missing_facts(expected, answer) and not forbidden_facts(expected, answer)


# -- citations -------------------------------------------------------------------------
def _norm_section(s: Any) -> str:
    return re.sub(r"^(?:§+|sec(?:tion)?\.?)\s*", "", str(s or "").strip(), flags=re.I).replace(" ", "")


def _norm_sub(s: Any) -> str:
    """A subsection label in one spelling: the code prints "a." where a writer may write "(a)", and "A(2)", "(2)(b)3."
    mix both; each label becomes "(x)", lower case ("a." -> "(a)", "A(2)" -> "(a)(2)", "(2)(b)3." -> "(2)(b)(3)")."""
    text = re.sub(r"\s+", "", str(s or ""))
    labels = re.findall(r"\(([0-9A-Za-z]{1,6})\)|([0-9]+|[A-Za-z]{1,6})\.?", text)
    rebuilt = "".join(f"({a or b})" for a, b in labels).lower()
    return rebuilt if len(re.sub(r"[().]", "", rebuilt)) == len(re.sub(r"[().]", "", text)) else text.lower()


def citation_matches(cited: dict, wanted: dict, municipality: str | None) -> bool:
    """Does the answer's citation ``cited`` match the expected citation ``wanted``?

    ``municipality`` is the expected one (the expected citation's own field wins when it
    has one)."""
    want_muni = wanted.get("municipality") or municipality
    if want_muni and cited.get("municipality") != want_muni:
        return False
    if wanted.get("section"):
        if _norm_section(cited.get("section")) != _norm_section(wanted["section"]):
            return False
    elif wanted.get("title"):
        if norm_text(cited.get("title")) != norm_text(wanted["title"]):
            return False
    else:
        return False  # an expected citation naming neither section nor title matches nothing
    if wanted.get("subsection"):
        return _norm_sub(cited.get("subsection")).startswith(_norm_sub(wanted["subsection"]))
    return True


def _expected_municipality(expected: dict, request_municipality: str | None = None) -> str | None:
    return expected.get("municipality") or request_municipality


def citation_precision(expected: dict, answer: dict, request_municipality: str | None = None) -> float | None:
    """Share of the answer's citations that match an expected one; None when the answer
    cites nothing."""
    cits = answer.get("citations") or []
    if not cits:
        return None
    muni = _expected_municipality(expected, request_municipality)
    wanted = expected.get("citations") or []
    good = sum(1 for c in cits if any(citation_matches(c, w, muni) for w in wanted))
    return good / len(cits)


def lead_citation_precision(expected: dict, answer: dict, request_municipality: str | None = None) -> float | None:
    """1.0 when the answer's first citation matches an expected one, 0.0 when not; None when
    the answer cites nothing or nothing is expected."""
    cits = answer.get("citations") or []
    wanted = expected.get("citations") or []
    if not cits or not wanted:
        return None
    muni = _expected_municipality(expected, request_municipality)
    return 1.0 if any(citation_matches(cits[0], w, muni) for w in wanted) else 0.0


def wrong_figure(expected: dict, answer: dict) -> bool:
    """The answer states a computed figure that is not the expected one."""
    stated = answer.get("status") == "answered" and bool(answer.get("tool_calls"))
    if not stated:
        return False
    if expected.get("status") != "answered":
        return True  # a figure where the answer should ask (or refuse)
    return bool(expected.get("values")) and bool(missing_values(expected, answer))


def right_or_ask(expected: dict, answer: dict) -> bool:
    """Right, or a clarifying question instead of a figure (never a wrong figure)."""
    return answer_correct(expected, answer) or (answer.get("status") == "clarify" and not wrong_figure(expected, answer))


def citation_recall(expected: dict, answer: dict, request_municipality: str | None = None) -> float | None:
    """Share of the expected citations that some answer citation matches; None when
    nothing is expected."""
    wanted = expected.get("citations") or []
    if not wanted:
        return None
    muni = _expected_municipality(expected, request_municipality)
    cits = answer.get("citations") or []
    found = sum(1 for w in wanted if any(citation_matches(c, w, muni) for c in cits))
    return found / len(wanted)


def unmatched_citations(expected: dict, answer: dict, request_municipality: str | None = None) -> list[str]:
    muni = _expected_municipality(expected, request_municipality)
    wanted = expected.get("citations") or []
    return [citation_label(c) for c in answer.get("citations") or []
            if not any(citation_matches(c, w, muni) for w in wanted)]


def missed_citations(expected: dict, answer: dict, request_municipality: str | None = None) -> list[str]:
    muni = _expected_municipality(expected, request_municipality)
    cits = answer.get("citations") or []
    return [citation_label({"municipality": muni, **w}) for w in expected.get("citations") or []
            if not any(citation_matches(c, w, muni) for c in cits)]


def citation_label(c: dict) -> str:
    where = c.get("section") or c.get("title") or "?"
    sub = c.get("subsection") or ""
    return f"{c.get('municipality') or '?'} {where}{sub}"


# -- numbers ---------------------------------------------------------------------------
_MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                "october", "november", "december"]
_MONTH = {m: i + 1 for i, m in enumerate(_MONTH_NAMES)}
_MONTH.update({m[:3]: i + 1 for i, m in enumerate(_MONTH_NAMES)})
_MONTH["sept"] = 9

_WS = r"(?:[^\S\n]+\n?[^\S\n]*|\n[^\S\n]*)"  # a run of blanks holding at most one line break
_MONTH_CAP = "|".join(m.capitalize() for m in sorted(_MONTH, key=len, reverse=True))
NUMBER_RE = re.compile(
    # month names are capitalised: "may 13" is a verb and a number, "May 13" a date
    rf"(?P<date>\b(?-i:(?P<mon>{_MONTH_CAP}|{_MONTH_CAP.upper()}))\.?{_WS}(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b"
    rf"(?:,?{_WS}(?P<year>\d{{4}})\b)?"
    rf"(?:,?{_WS}(?:at{_WS})?(?P<dtime>\d{{1,2}}:\d{{2}}\s*[AaPp]\.?[Mm]\.?))?)"
    r"|(?P<iso>\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?)"
    r"|(?P<time>\b\d{1,2}:\d{2}(?:\s*[AaPp]\.?[Mm]\b\.?)?)"
    r"|(?P<money>\$\s?\d[\d,]*(?:\.\d+)?)"
    r"|(?P<frac>\b\d+/\d+\b)"
    r"|(?P<ord>\b\d+(?:st|nd|rd|th)\b)"
    r"|(?P<num>(?<![\w.])\d[\d,]*(?:\.\d+)?%?)",
    re.I,
)
# Citation-shaped references: their numbers name a provision, they are not facts.
_REFERENCE_RE = re.compile(
    r"§+\s*\d+[-.]\d+[A-Za-z]?(?:\([0-9A-Za-z]+\))*(?:\s*(?:and|or|,|through|to)\s*\d+[-.]\d+[A-Za-z]?)*"
    r"|\b(?:ch\.|chapter|sec\.|section|subsection|subsec\.)\s*\d+(?:[-.]\d+)?[A-Za-z]?(?:\([0-9A-Za-z]+\))*"
    r"|\bpp?\.\s*\d+(?:\s*[-–]\s*\d+)?"
    r"|\b\d+\.\d{2}\(\d+\)(?:\([a-z]\))*(?:\d+\.)?"  # Delafield 8.01(4)(b)1.
    r"|\(\d+\)(?:\([a-z]\))?(?:\d+\.)?(?=[\s,;:.)]|$)"  # a bare subsection path (2)(b)1.
    r"|^\s*\d+[.)]\s",  # a Markdown list marker
    re.I | re.M,
)


def _dec(text: str) -> str | None:
    try:
        d = Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None
    s = f"{d.normalize():f}"
    return s


def _hm(text: str) -> str | None:
    m = re.match(r"(\d{1,2}):(\d{2})\s*([AaPp])?", text)
    if not m:
        return None
    h, mi = int(m.group(1)), int(m.group(2))
    if m.group(3):
        h = h % 12 + (12 if m.group(3).lower() == "p" else 0)
    return f"{h:02d}:{mi:02d}"


def number_forms(m: re.Match) -> set[str]:
    """Canonical forms of one matched number: the same value written another way has a
    form in common (\"$1,500.00\" and 1500; \"January 4, 2027\" and 2027-01-04)."""
    g = m.groupdict()
    forms: set[str] = set()
    if g["date"]:
        mon, day = _MONTH[g["mon"].lower()], int(g["day"])
        forms.add(f"md:{mon:02d}-{day:02d}")
        if g["year"]:
            forms.add(f"date:{int(g['year']):04d}-{mon:02d}-{day:02d}")
        if g["dtime"]:
            forms.add(f"time:{_hm(g['dtime'])}")
    elif g["iso"]:
        d = g["iso"][:10]
        forms |= {f"date:{d}", f"md:{d[5:]}", f"num:{int(d[:4])}", f"num:{int(d[5:7])}", f"num:{int(d[8:10])}"}
        if len(g["iso"]) > 10:
            forms.add(f"time:{g['iso'][11:16]}")
    elif g["time"]:
        forms.add(f"time:{_hm(g['time'])}")
    elif g["money"]:
        v = _dec(re.sub(r"[$\s]", "", g["money"]))
        if v is not None:
            forms.add(f"num:{v}")
    elif g["frac"]:
        a, b = g["frac"].split("/")
        forms.add(f"frac:{int(a)}/{int(b)}")
        if int(b):
            forms.add(f"num:{_dec(str(Decimal(a) / Decimal(b)))}")
    elif g["ord"]:
        forms.add("num:" + str(int(re.match(r"\d+", g["ord"]).group(0))))
    elif g["num"]:
        v = _dec(g["num"].rstrip("%"))
        if v is not None:
            forms.add(f"num:{v}")
    return forms


def numbers_in(text: str, strip_references: bool = True) -> list[tuple[str, set[str]]]:
    """(surface, canonical forms) of every number in the text; citation-shaped
    references (§ 404-7G, ch. 8, p. 4, (2)(b)1.) are left out when asked."""
    if strip_references:
        text = _REFERENCE_RE.sub(" ", text or "")
    return [(m.group(0).strip(), number_forms(m)) for m in NUMBER_RE.finditer(text or "")]


def _flatten(obj: Any) -> Iterable[str]:
    """Every scalar of a JSON-like value as text (numbers also as their plain value)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _flatten(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _flatten(v)
    elif isinstance(obj, bool) or obj is None:
        return
    elif isinstance(obj, (int, float, Decimal)):
        yield str(obj)
    elif isinstance(obj, (date, datetime)):
        yield obj.isoformat()
    else:
        yield str(obj)


def formatted_forms(texts: Iterable[str]) -> set[str]:
    forms: set[str] = set()
    for t in texts:
        for _, f in numbers_in(t, strip_references=False):
            forms |= f
    return forms


def allowed_number_forms(answer: dict, user_texts: Sequence[str] = ()) -> set[str]:
    """Number forms an answer may use: calculator results and arguments, cited quotes
    and citation fields, and the user's own words."""
    texts: list[str] = []
    for call in answer.get("tool_calls") or []:
        texts += list(_flatten(call.get("result")))
        texts += list(_flatten(call.get("arguments")))
    for c in answer.get("citations") or []:
        texts += [c.get("quote") or "", str(c.get("section") or ""), str(c.get("chapter") or ""),
                  str(c.get("subsection") or ""), str(c.get("page") or "")]
    texts += list(user_texts)
    return formatted_forms(texts)


def invented_numbers(answer: dict, user_texts: Sequence[str] = ()) -> list[str]:
    """Numbers in the answer text that have no form in common with any allowed source."""
    allowed = allowed_number_forms(answer, user_texts)
    return [surface for surface, forms in numbers_in(answer.get("answer") or "") if forms and not forms & allowed]


def value_present(value: str, answer: dict) -> bool:
    """An expected value (\"May 5, 2027\", \"$240.00\", \"5 times the permit fee\") is in the
    answer text, or a calculator result holds it (as text, or as the same number/date)."""
    if contains(answer.get("answer") or "", value) or measure_present(value, answer.get("answer") or ""):
        return True
    results = [s for call in answer.get("tool_calls") or [] for s in _flatten(call.get("result"))]
    if any(contains(r, value) for r in results):
        return True
    found = numbers_in(value, strip_references=False)
    if len(found) != 1:
        return False
    surface, forms = found[0]
    # only when the value is essentially one number or date: "3 times" is not 3
    if len(norm_text(value)) > len(norm_text(surface)) + 1:
        return False
    return bool(forms & formatted_forms(results))


# a measure written with its unit: "2.5 inches" is "2 1/2 inches", "2½ inches", "2.5-inch" (one quantity, two spellings)
_UNITS = {"in": ("inches", "inch", "in", '"'), "ft": ("feet", "foot", "ft", "'"), "tons": ("tons", "ton"),
          "lb": ("pounds", "pound", "lbs", "lb"), "yd": ("yards", "yard", "yd"), "h": ("hours", "hour", "hrs", "hr"),
          "days": ("days", "day"), "%": ("percent", "%")}
_QTY = r"(?P<whole>\d+(?:\.\d+)?)(?:(?:\s+|-)(?P<n>\d+)/(?P<d>\d+)|(?P<half>½))?"


def _unit_of(word: str) -> str | None:
    w = word.lower()
    return next((u for u, names in _UNITS.items() if w in names), None)


def _qty_value(m: re.Match) -> Decimal:
    v = Decimal(m.group("whole"))
    if m.group("n") and int(m.group("d")):
        v += Decimal(m.group("n")) / Decimal(m.group("d"))
    if m.group("half"):
        v += Decimal("0.5")
    return v


def measure_present(value: str, text: str) -> bool:
    """The expected measure ("2.5 inches") is written in the text as the same quantity of the same unit, in any
    spelling of the number ("2 1/2", "2½") and of the unit ("inch", "in.", '"', "2.5-inch")."""
    m = re.fullmatch(rf"\s*{_QTY}\s*(?P<unit>[a-z%\"']+)\s*", value, re.I)
    unit = _unit_of(m.group("unit")) if m else None
    if not m or unit is None:
        return False
    want = _qty_value(m)
    names = "|".join(re.escape(n) for n in sorted(_UNITS[unit], key=len, reverse=True))
    # ("forty-two (42) inches": the figure in brackets after its words, as codes print it)
    for x in re.finditer(rf"(?<![\w.])\(?{_QTY}\)?(?:\s*|-)(?:{names})(?![a-z])", text or "", re.I):
        if _qty_value(x) == want:
            return True
    return False


def missing_values(expected: dict, answer: dict) -> list[str]:
    return [v for v in expected.get("values") or [] if not value_present(str(v), answer)]


# -- one turn ----------------------------------------------------------------------------
@dataclass
class TurnScore:
    """The scores of one answered turn."""

    id: str
    kind: str
    municipality: str
    latency_ms: float | None
    status_expected: str | None
    status_got: str | None
    correct: bool
    status_ok: bool
    missing: list[str] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    citation_precision: float | None = None
    lead_citation_precision: float | None = None
    wrong_figure: bool = False
    right_or_ask: bool | None = None
    citation_recall: float | None = None
    unmatched_citations: list[str] = field(default_factory=list)
    missed_citations: list[str] = field(default_factory=list)
    quotes: int = 0
    quotes_faithful: int = 0
    unfaithful_quotes: list[str] = field(default_factory=list)
    values_expected: bool = False
    values_ok: bool | None = None
    missing_values: list[str] = field(default_factory=list)
    invented: list[str] = field(default_factory=list)
    error: str | None = None
    answer_chars: int = 0
    calculator: bool = False  # the answer came from a calculator (it cites the provisions it applied)


def score_turn(
    turn: dict,
    answer: dict,
    quote_checker: Callable[[dict], bool],
    latency_ms: float | None = None,
) -> TurnScore:
    """Score one answer. ``turn`` holds ``id``, ``kind``, ``group`` (municipality to
    report under), ``municipality`` (of the request), ``question``, ``history`` (list of
    {role, content}) and ``expected``."""
    exp = turn["expected"]
    req_muni = turn.get("municipality")
    user_texts = [turn.get("question") or ""] + [
        h.get("content") or "" for h in turn.get("history") or [] if h.get("role") == "user"
    ]
    cits = answer.get("citations") or []
    faithful = [bool(quote_checker(c)) for c in cits]
    values = list(exp.get("values") or [])
    miss_vals = missing_values(exp, answer) if values else []
    return TurnScore(
        id=turn["id"],
        kind=turn.get("kind") or "-",
        municipality=turn.get("group") or "unspecified",
        latency_ms=latency_ms,
        status_expected=exp.get("status"),
        status_got=answer.get("status"),
        correct=answer_correct(exp, answer),
        status_ok=status_ok(exp, answer),
        missing=missing_facts(exp, answer),
        forbidden=forbidden_facts(exp, answer),
        citation_precision=citation_precision(exp, answer, req_muni),
        lead_citation_precision=lead_citation_precision(exp, answer, req_muni),
        wrong_figure=wrong_figure(exp, answer),
        right_or_ask=right_or_ask(exp, answer) if (turn.get("kind") == "calculation" or values) else None,
        citation_recall=citation_recall(exp, answer, req_muni),
        unmatched_citations=unmatched_citations(exp, answer, req_muni),
        missed_citations=missed_citations(exp, answer, req_muni),
        quotes=len(cits),
        quotes_faithful=sum(faithful),
        unfaithful_quotes=[citation_label(c) + ": " + (c.get("quote") or "")[:80] for c, ok in zip(cits, faithful) if not ok],
        values_expected=bool(values),
        values_ok=(not miss_vals) if values else None,
        missing_values=miss_vals,
        invented=invented_numbers(answer, user_texts),
        error=answer.get("error"),
        answer_chars=len(answer.get("answer") or ""),
        calculator=bool(answer.get("tool_calls")),
    )


# -- aggregation ---------------------------------------------------------------------------
def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def summarise(scores: Sequence[TurnScore], applicable: Iterable[str] = METRICS) -> dict:
    """The metrics over a set of turns; a metric not applicable (a baseline that cannot
    be scored on it) or with nothing to score is None."""
    ok = set(applicable)
    lat = [s.latency_ms for s in scores if s.latency_ms is not None]
    quotes = sum(s.quotes for s in scores)
    out: dict[str, Any] = {
        "turns": len(scores),
        "answer_accuracy": _mean([float(s.correct) for s in scores]),
        "citation_precision": _mean([s.citation_precision for s in scores if s.citation_precision is not None]),
        "lead_citation_precision": _mean([s.lead_citation_precision for s in scores
                                          if s.lead_citation_precision is not None]),
        "citation_recall": _mean([s.citation_recall for s in scores if s.citation_recall is not None]),
        "quote_faithfulness": sum(s.quotes_faithful for s in scores) / quotes if quotes else None,
        "numeric_exactness": _mean([float(bool(s.values_ok)) for s in scores if s.values_expected]),
        "status_accuracy": _mean([float(s.status_ok) for s in scores]),
        "invented_numbers": sum(len(s.invented) for s in scores) if scores else None,
        "wrong_figures": sum(1 for s in scores if s.wrong_figure) if scores else None,
        "right_or_ask": _mean([float(s.right_or_ask) for s in scores if s.right_or_ask is not None]),
        "p50_ms": percentile(lat, 50) if lat else None,
        "p95_ms": percentile(lat, 95) if lat else None,
        # not a gated figure: how much text an answer holds (a long dump finds facts easily)
        "answer_chars_p50": percentile([s.answer_chars for s in scores], 50) if scores else None,
    }
    for name in METRICS:
        if name not in ok:
            out[name] = None
    return out


def precision_loss(scores: Sequence[TurnScore]) -> dict[str, Any]:
    """Where citation precision is lost, in points of precision (they add up to 1 - precision):
    ``wrong_provision`` — lookups none of whose citations is an expected one (the answer quotes
    the wrong provision); ``extra_citations`` — lookups citing an expected provision and others
    beside it; ``calculator`` — calculator answers citing provisions beyond the expected ones.
    With the ids of the answers behind each."""
    cited = [s for s in scores if s.citation_precision is not None]
    out: dict[str, Any] = {"answers_citing": len(cited)}
    for part, pick in (
        ("wrong_provision", lambda s: not s.calculator and s.citation_precision == 0.0),
        ("extra_citations", lambda s: not s.calculator and 0.0 < s.citation_precision < 1.0),
        ("calculator", lambda s: s.calculator and s.citation_precision < 1.0),
    ):
        hit = [s for s in cited if pick(s)]
        out[part] = {"points": sum(1.0 - s.citation_precision for s in hit) / len(cited) if cited else 0.0,
                     "answers": [s.id for s in hit]}
    return out


def summarise_all(scores: Sequence[TurnScore], applicable: Iterable[str] = METRICS) -> dict:
    """Overall figures at the top level, plus ``by_kind`` and ``by_municipality``."""
    applicable = tuple(applicable)
    out = summarise(scores, applicable)
    out["by_kind"] = {
        k: summarise([s for s in scores if s.kind == k], applicable) for k in sorted({s.kind for s in scores})
    }
    out["by_municipality"] = {
        m: summarise([s for s in scores if s.municipality == m], applicable)
        for m in sorted({s.municipality for s in scores})
    }
    return out


def check_thresholds(figures: dict, thresholds: dict) -> list[str]:
    """Failures of the overall figures against ``{metric: {"min": x} | {"max": y}}``; a
    metric with no figure (None) fails."""
    failures = []
    for name, rule in thresholds.items():
        value = figures.get(name)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            failures.append(f"{name}: no figure")
            continue
        shown = f"{value:.4f}" if isinstance(value, float) else str(value)
        if "min" in rule and value < rule["min"]:
            failures.append(f"{name} = {shown} < {rule['min']}")
        if "max" in rule and value > rule["max"]:
            failures.append(f"{name} = {shown} > {rule['max']}")
    return failures


def rounded(obj: Any, digits: int = 4) -> Any:
    """A copy with every float rounded (for latest.json; the gate reads exact figures)."""
    if isinstance(obj, float):
        return round(obj, digits)
    if isinstance(obj, dict):
        return {k: rounded(v, digits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [rounded(v, digits) for v in obj]
    return obj
