"""Plain-language query expansion: the code's words for the plain words a question uses
(corpus/query_expansion.yaml, data not code), and the corpus spelling of misspelt words
("surchage" -> surcharge). The original words always stay in the query.

Spelling is corrected to the words of the municipality the question is about when it names
one (another code loaded never changes its reading: with 31 codes loaded, "truks" met
"trunks" in some code before "trucks"), and to the words of every code loaded when it
names none."""

from __future__ import annotations

import difflib
import functools
import re
from pathlib import Path

import yaml

from assistant.corpus import corpus_dir, declared_municipalities, document

_WORD = re.compile(r"[A-Za-z]{4,}")


@functools.cache
def _rules(path: str) -> tuple[tuple[re.Pattern, str], ...]:
    try:
        data = yaml.safe_load(open(path, encoding="utf-8")) or {}
    except FileNotFoundError:
        return ()
    return tuple((re.compile(k, re.I), str(v)) for k, v in data.items())


def _scope(municipality: str | None) -> tuple[str, ...]:
    """The municipalities whose words spell a question: its own, or (none named, or one not
    in the corpus) every one (one whose text does not read lends no words)."""
    ids = tuple(sorted(m.id for m in declared_municipalities()))
    return (municipality,) if municipality in ids else ids


@functools.cache
def _vocabulary(corpus: str, scope: tuple[str, ...]) -> frozenset[str]:
    words: set[str] = set()
    for m in scope:
        try:
            passages = document(m).passages
        except Exception:  # noqa: BLE001 - a municipality left out of the corpus lends no words
            continue
        # the captions are the code's words too ("SNOW AND ICE REMOVAL FROM ROOFS")
        words.update(w.lower() for p in passages for w in _WORD.findall(f"{p.text} {p.title or ''}"))
    # a code that writes "roofs" knows the word "roof": one code's words are few, and "roff" must still meet it
    words |= {w[:-3] + "y" if w.endswith("ies") else w[:-1] for w in words
              if len(w) > 4 and w.endswith("s") and not w.endswith(("ss", "us", "is"))}
    return frozenset(words)


@functools.cache
def _plain_words(corpus: str) -> frozenset[str]:
    """The plain words the expansion data knows ("shovel", "blacktop"): words a question may mean though no code
    writes them."""
    return frozenset(w.lower() for rx, _ in _rules(str(Path(corpus) / "query_expansion.yaml"))
                     for w in re.findall(r"(?<![\\?])\b[A-Za-z]{5,}\b", rx.pattern))


_SOUNDS = ((re.compile(r"(?:tion|sion|shun|shon|tian)"), "shn"), (re.compile(r"ph"), "f"), (re.compile(r"ck|q"), "k"),
           (re.compile(r"c(?=[aou])"), "k"), (re.compile(r"z"), "s"), (re.compile(r"(.)\1+"), r"\1"))


def sound_key(word: str) -> str:
    """A rough sound-alike form: words spelt as they sound ("excavashun", "notise")
    meet the code's spelling ("excavation", "notice")."""
    key = word.lower()
    for rx, repl in _SOUNDS:
        key = rx.sub(repl, key)
    return key


@functools.cache
def _sound_index(corpus: str, scope: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for w in sorted(_vocabulary(corpus, scope)):
        out.setdefault(sound_key(w), w)
    return out


@functools.cache
def _english() -> frozenset[str]:
    """Whole words of the embedding model's word-piece vocabulary: real English words that
    are merely absent from the code ("nothing" is not a misspelling of "thing")."""
    from assistant.retrieval.embeddings import tokenizer

    return frozenset(w for w in tokenizer().get_vocab() if w.isalpha() and len(w) >= 4)


@functools.cache
def _dictionary():
    """An English word list with frequencies (pyspellchecker's, shipped in its wheel: no download): a word it holds
    is a real word, never a misspelling ("renting" is not "renaming", "gait" not "gate")."""
    from spellchecker import SpellChecker

    return SpellChecker(distance=1)


def _known_english(w: str) -> bool:
    return w in _english() or w in _dictionary()


def _typo_variants(w: str) -> tuple[list[str], list[str]]:
    """The word with two neighbouring letters swapped (the first letter kept) and with a doubled letter typed once."""
    swapped = [w[:i] + w[i + 1] + w[i] + w[i + 2:] for i in range(1, len(w) - 1)]
    single = list(dict.fromkeys(w[:i] + w[i + 1:] for i in range(len(w) - 1) if w[i] == w[i + 1]))
    return swapped, single


@functools.cache
def spelling(word: str, corpus: str, scope: tuple[str, ...] | None = None) -> str | None:
    """The word of the ``scope`` municipalities' codes (default: every one) a misspelt word
    most likely means, or None. A real English word is never respelt ("renting" is not "renaming"); a word spelt as
    it sounds ("excavashun": excavation) or near in letters keeps its first letter ("shovle" is no "hole")."""
    scope = _scope(None) if scope is None else scope
    vocab = _vocabulary(corpus, scope)
    w = word.lower()
    if w in vocab or len(w) < 4 or _known_english(w):
        return None
    # a known word plus a plural or -ing ending is not a misspelling
    if any(w[: -len(suf)] in vocab for suf in ("s", "es", "ing", "ed") if w.endswith(suf)):
        return None
    # two letters typed the wrong way round ("recieve", "fien"): that word, before any nearer by letters alone
    swapped, single = _typo_variants(w)
    known = [v for v in swapped if v in vocab]
    if len(known) == 1:
        return known[0]
    if len(w) == 4:  # a short word: one letter wrong or doubled ("roff" -> roof), and only one such word
        close = [v for v in difflib.get_close_matches(w, vocab, n=3, cutoff=0.75) if len(v) == 4]
        return close[0] if len(close) == 1 else None
    # a letter typed twice ("limmit", "comming"): the word with it once, the code's or a plain English one ("comming"
    # is "coming", never the code's "commencing")
    known = [v for v in single if v in vocab] or [v for v in single if _known_english(v)]
    if len(known) == 1:
        return known[0]
    # (the nearest of the same first letter: "shovle" is as near to "hole" as to nothing else)
    close = [v for v in difflib.get_close_matches(w, vocab, n=3, cutoff=0.8) if v[0] == w[0]]
    if close:
        return close[0]
    sounds = _sound_index(corpus, scope)
    key = sound_key(w)
    heard = sounds.get(key)
    if heard is None:
        close = difflib.get_close_matches(key, sounds, n=1, cutoff=0.85)
        heard = sounds[close[0]] if close else None
    if heard is not None and heard[0] == w[0]:
        return heard
    # no word of the code near it: a plain word the expansion data knows ("shovle" is "shovel", which the data reads
    # as snow removal, though the code never writes it)
    plain = _plain_words(corpus) - vocab
    known = [v for v in swapped if v in plain]
    if len(known) == 1:
        return known[0]
    close = [v for v in difflib.get_close_matches(w, plain, n=3, cutoff=0.8) if v[0] == w[0]]
    return close[0] if close else None


def _sure_fix(word: str, corpus: str, scope: tuple[str, ...], rules) -> str:
    """The word corrected when its correction is sure (a doubled letter typed once more, two letters swapped, or one
    letter left out), else as written."""
    if any(rx.search(word) for rx, _ in rules):
        return word
    fix = spelling(word, corpus, scope)
    low = word.lower()
    # (or one letter left out: "stret" is "street", "thik" is "thick"; a letter changed, "lites" as "lines", is not sure)
    dropped = fix is not None and len(fix) == len(low) + 1 and any(fix[:i] + fix[i + 1:] == low for i in range(len(fix)))
    return fix if fix and (dropped or fix in {v for found in _typo_variants(low) for v in found}) else word


def respelled(question: str, municipality: str | None = None) -> str:
    """The question with each misspelt word in the code's spelling ("how much notise" -> "how much notice"): what
    kind of figure it asks is read from it."""
    return _respelled(question, str(corpus_dir()), _scope(municipality))


@functools.lru_cache(maxsize=4096)
def _respelled(question: str, corpus: str, scope: tuple[str, ...]) -> str:  # read in plan and in the lookup alike
    rules = _rules(str(Path(corpus) / "query_expansion.yaml"))

    def fix(m: re.Match) -> str:
        w = m.group(0)
        if any(rx.search(w) for rx, _ in rules):
            return w
        return spelling(w, corpus, scope) or w

    return _WORD.sub(fix, question)


def singulars(text: str) -> str:
    """The text's plural words in the singular ("sawhorses" -> "sawhorse"), so that a rule
    written for one form matches the other."""
    out = []
    for w in re.findall(r"[A-Za-z]+", text):
        low = w.lower()
        if len(low) > 4 and low.endswith(("ches", "shes", "sses", "xes")):
            out.append(low[:-2])
        elif len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is")):
            out.append(low[:-1])
    return " ".join(out)


def expand(question: str, municipality: str | None = None) -> str:
    """The question plus the code's words for the plain and misspelt words it uses: misspelt
    words read by the words of ``municipality``'s code when given, else of every code."""
    return _expand(question, str(corpus_dir()), _scope(municipality))


@functools.lru_cache(maxsize=4096)
def _expand(question: str, corpus: str, scope: tuple[str, ...]) -> str:  # one answer expands its question several times
    rules = _rules(str(Path(corpus) / "query_expansion.yaml"))
    matched = f"{question} {singulars(question)}"
    extra = [words for rx, words in rules if rx.search(matched)]
    # a word the plain-word rules know ("blacktop") is not a misspelling of a code word ("backstops")
    fixes = [s for w in _WORD.findall(question)
             if (s := spelling(w, corpus, scope)) and not any(rx.search(w) for rx, _ in rules)]
    extra += fixes
    if fixes:  # the corrected question may match more plain-word rules (each word corrected in its place: "cuting
        # into" is "cutting into", a rule of two words)
        in_place = _respelled(question, corpus, scope)
        fixed = matched + " " + " ".join(fixes) + " " + in_place
        extra += [words for rx, words in rules if rx.search(fixed) and words not in extra]
    # (a misspelt word is read in its place as corrected, not left beside its correction, when the correction is sure:
    # a letter typed twice or two letters swapped, "the wieght limmit" is "the weight limit" to the search's sense of
    # meaning too; a correction by nearness alone, "lites" as "lines", is added beside the word as written)
    base = _WORD.sub(lambda m: _sure_fix(m.group(0), corpus, scope, rules), question) if fixes else question
    seen = {w.lower() for w in re.findall(r"[A-Za-z]+", base)}
    added = []
    for w in " ".join(extra).split():  # each added word once, none the question already has
        if w.lower() not in seen:
            seen.add(w.lower())
            added.append(w)
    return f"{base} {' '.join(added)}" if added else base
