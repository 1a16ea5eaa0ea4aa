"""Questions about two or more parties, each with its own values.

"I deposited $1,800 and the actual cost was $2,150. She deposited $2,000 and her actual
cost was $1,640. Where does each of us stand?" gives a calculator two candidates for the
deposit. When each candidate sits in a sentence (or a coordinated clause) of its own, and
the parties' values are worded alike ("I deposited" / "She deposited"), those sentences are
the parties: each is read with the sentences every party shares (the question, a common fee,
a common date), and the calculator runs once per party — for every party when the
question asks about each of them, for one when the question names only that one. Any
other arrangement is left to the clarifying question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (a lower-case start too, after a word of five letters or more: "... on Lakeview. whats the latest ...", never after
# "St." or "Sept.")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"“(]?[A-Z0-9$])|(?<=[A-Za-z]{5}[.!?])\s+(?=[a-z])")
# a question the user wrote without its question mark: "whats the latest each notice can reach them"
_ASKING_WORDS = re.compile(r"\s*(?:what|whats|what's|when|whens|how|which|who|whos|who's|where|is|are|do|does|did|can|"
                           r"will|would|should|must)\b", re.I)
_NUMBER = re.compile(r"[$\d]")
EACH = re.compile(r"\b(?:each|both|apiece|respectively|separately|either|all (?:two|three|of (?:us|them)))\b|"
                  r"\bwhich (?:one|of|\w+ (?:is|are|was|were|falls?))\b|"
                  # "who owes what", "who gets what back": what falls to each one
                  # ("who owes who what")
                  r"\bwho\s+(?:owes|pays|gets|is\s+owed|receives)\s+(?:(?:who|whom)\s+)?what\b|"
                  # "who gets money back, who owes": each party asked by a "who" of its own
                  r"\bwho\s+(?:owes|pays|gets|is\s+owed|receives)\b.{0,40}\bwho\s+(?:owes|pays|gets|is\s+owed|receives)\b",
                  re.I)
_FIRST_PERSON = {"i", "i'm", "i've", "my", "me", "mine", "we", "we're", "our", "us", "ours"}
_THIRD_PERSON = {"she", "her", "hers", "he", "his", "him", "they", "their", "them", "neighbor", "neighbour",
                 "neighbor's", "neighbour's"}
_STOP = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
         "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "at", "was", "is", "it", "what", "how", "much",
         "does", "do", "did", "get", "be", "by", "with", "that", "this", "which", "who", "when", "its", "as", "from",
         "one", "first", "second", "other", "came", "come", "cost", "costs", "owe", "pay", "billed", "bill"}


# the verbs that state an amount ("billed me $640" / "got billed $1,150"): alike wording of two parties' figures
_MONEY_VERBS = {"cost", "costs", "owe", "pay", "billed", "bill"}


@dataclass(frozen=True)
class Party:
    label: str  # the party's own words before its first figure ("She deposited")
    text: str  # the shared sentences and this party's own, in the question's order


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text.strip()) if s.strip()]


def _questions(parts: list[str]) -> list[int]:
    """The sentences that ask: those with a question mark, or, when none has one, the last sentence when it opens
    with a word that asks."""
    marked = [i for i, p in enumerate(parts) if "?" in p]
    if marked or not parts:
        return marked
    return [len(parts) - 1] if _ASKING_WORDS.match(parts[-1]) else []


# (and "$4,100 for mine and $2,850 for hers": a figure, then whose it is)
_CLAUSE = re.compile(r"(?:,\s*|\s+)and\s+(?=(?:(?:for|on|with)\s+(?=(?:his|her|hers|my|mine|our|ours|their|theirs|the other)\b))?"
                     r"(?:the|his|her|hers|my|mine|our|ours|their|theirs|its|a|an|another|one)\b|"
                     r"\$?\d[\d,.]*\s+(?:for|on|of)\s+(?:mine|hers|his|ours|theirs|yours|my|her|their|our|the other)\b)|"
                     r";\s+|,\s+(?:while|whereas)\s+|"
                     # ("lot 7's bill is $640, lot 8's is $1,120, and neither has been paid": said of every party)
                     r",?\s+and\s+(?=(?:neither|both|none|nobody|no one|all of)\b)", re.I)
# the stronger cuts alone: "I deposited $2,400 and the final came to $2,910; they deposited $3,000 and ..."
_STRONG_CLAUSE = re.compile(r";\s+|,\s+(?:while|whereas)\s+", re.I)
# a party named as a thing with its figure: "a skid steer at 5,400 lb", "the tracked mini-ex weighing 7,300 lb"
_ENTITY = re.compile(r"^(?:a|an|the|one|another|my|our|his|her|their)\s+[\w'-]+(?:\s+[\w'-]+){0,3}\s+"
                     r"(?:at|weighing|of|with|is|was|came to|comes to)\s+[$\d]", re.I)




# whose figure it is, said with it: "estimated my section at $4,860" / "hers at $3,150", "Gail's at $3,150"
_OWNED = re.compile(r"\b(?:my|our|his|her|their|your|[A-Z][a-z]+['’]s)\s+(?:[\w-]+\s+){0,3}?(?:at|is|was|came\s+to|"
                    r"comes\s+to|of)\s+\$?\d|^(?:and\s+)?(?:hers|his|theirs|mine|ours|yours|[A-Z][a-z]+['’]s)\s+"
                    r"(?:at|is|was|came\s+to|comes\s+to|of)\s+\$?\d|"
                    # "for my neighbor's (corner lot so it's longer) $4,185": whose, then its figure
                    r"^(?:and\s+)?for\s+(?:my|our|his|her|their|the\s+other)\b[^$\d.;]{0,60}\$\d|"
                    # "On my lot they marked 14 of my 20 ..., on his it's 11 out of 20": a clause opening with whose
                    r"^(?:and\s+)?(?:on|for|at|in|with)\s+(?:my|our|his|her|hers|their|theirs|mine|ours)\b[^.;]{0,60}\d", re.I)
# the verbs a party's own clause states its figure with ("the trencher is 7,100 lbs", "his came to $2,214")
_VERBS = (r"(?:is|was|are|were|comes?|came|weighs?|weighed|runs?|ran|costs?|measures?|measured|has|had|carries|carried|"
          r"gets?|got|makes?|made|worked|spent|paid|owes?|it['’]s|deposited|put|ended|"
          # a party's own doing on its own day ("a well repair I finished August 2", "a lateral he wrapped up August 16")
          r"finished|completed|wrapped|started|began|dug|filed|poured|starts|begins|finishes|digs|pours|"
          # a driveway's own slope ("lot B's climbs 9 feet over 60 feet")
          r"climbs?|climbed|rises?|rose|drops?|dropped)")
_OWN_VERB = re.compile(rf"\b{_VERBS}\b", re.I)
# a comma before a clause of its own subject: ", the tracked trencher is ..."
_COMMA_SUBJECT = re.compile(rf",\s+(?=(?:the|my|his|her|our|their|its)\s+\w+(?:\s+\w+)?\s+{_VERBS}\b|"
                            # (", crew 2 starts ...", ", Lot B was ...": a thing named by its number or letter)
                            rf"[A-Za-z]+\s+(?:\d{{1,3}}|[A-Z])(?:['’]s)?(?:\s+[a-z]+)?\s+{_VERBS}\b|"
                            # ("my final cost came to $2,310, hers came to $1,845.25": a possessive standing for its noun)
                            rf"(?:(?:on|for|at|in|with)\s+)?(?:hers|his|mine|ours|theirs|yours)\s+{_VERBS}\b)", re.I)

# "One starts Monday June 12 ..., the other Tuesday June 20 ...": an elliptical clause of another party; "... and
# contractor B starts ...": a party named by its letter or number after "and"
_OTHER_PARTY = re.compile(rf",\s+(?=(?:and\s+)?(?:the\s+other|another)\b)|\s+and\s+(?=[A-Za-z]+\s+(?:\d{{1,3}}|[A-Z])\s+{_VERBS}\b)")


def clauses(sentence: str) -> list[str]:
    """A sentence cut at its coordinated clauses; a lead ending in a colon stands apart
    ("Two utilities dug without permits: the water utility ..., and the gas company ...")."""
    lead, colon, rest = sentence.partition(": ")
    pieces = [p.strip() for p in _CLAUSE.split(rest if colon else sentence) if p.strip()]
    # "the pickup comes to 5,200 lbs, the tracked trencher is 7,100 lbs": a comma between two clauses that
    # each hold a figure and the second opens with its own subject
    split = []
    for p in pieces:
        cut = sorted((m.start(), m.end()) for rx in (_COMMA_SUBJECT, _OTHER_PARTY) for m in rx.finditer(p)
                     if re.search(r"\d", p[:m.start()]) and re.search(r"\d", p[m.end():]))
        at = 0
        for c, e in cut:
            if c < at:
                continue
            split.append(p[at:c].strip(" ,"))
            at = c + 1 if p[c] == "," else e
        split.append(p[at:].strip(" ,"))
    return ([lead + ":"] if colon else []) + [p for p in split if p]


def _words(s: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z']*", s)}


_DATE_WORD = re.compile(r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|"
                        r"june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|on|at|by|the)[.,]?", re.I)


def _label(sentence: str) -> str:
    whose = re.search(r"\$?\d[\d,.]*\s+(?:for|on|of)\s+(?:mine|hers|his|ours|theirs|yours)\b", sentence, re.I)
    if whose:  # "$2,850 for hers": the figure and whose it is
        return whose.group(0)
    thing = re.match(rf"\s*([A-Za-z]+\s+(?:\d{{1,3}}|[A-Z]))(?:['’]s(?:\s+[a-z]+)?)?\s+{_VERBS}\b", sentence)
    if thing:  # "crew 2 starts ...", "Crew A starts ...", "lot 7's bill is": the thing by its number or letter
        return thing.group(1)
    head = _NUMBER.split(sentence, maxsplit=1)[0]
    if re.search(r"(?:#|\bno\.)\s?$", head, re.I):  # "Opening #1 is on Oak": the sign goes with its number
        head = re.sub(r"(?:#|\bno\.)\s?$", "", head, flags=re.I)
    words = re.sub(r"[,;:(]+$", "", head.strip()).split()
    while len(words) > 1 and _DATE_WORD.fullmatch(words[-1]):  # "One starts Monday June": the date's words are not its name
        words.pop()
    while len(words) > 1 and words[-1].lower() in ("a", "an", "the", "of", "for", "was", "is"):
        words.pop()  # ("I put down a $1,850 deposit": "I put down")
    # a name with its number ("Lot 7 posted ...", "Unit 2B", "House #12"): the number is part of the name
    named = re.match(rf"{re.escape(head)}((?:#|no\.)?\s?\d+[A-Za-z]?)\b(?!\s*(?:%|percent|feet|foot|ft|inch|days?|hours?|tons?))",
                     sentence) if words and len(words) <= 2 and words[-1][:1].isupper() else None
    if named:
        return " ".join([*words, named.group(1)])
    if words:
        return " ".join(words[:8]).rstrip(",;:")
    lead = re.match(r"\s*([^:;,.?!]{1,40}?):", sentence)  # "118 Main: one employee, 2 hours": the words before the colon
    return lead.group(1).strip() if lead else " ".join(sentence.split()[:2])


def _context(value: str, sentence: str) -> set[str]:
    """The content words just around a value in its sentence (ten before, three after)."""
    from assistant.retrieval.lexical import stems

    at = sentence.find(value)
    before = re.findall(r"[A-Za-z][A-Za-z']*", sentence[:at])[-10:]
    after = re.findall(r"[A-Za-z][A-Za-z']*", sentence[at + len(value):])[:3]
    # ("$4,100 for mine" / "$2,850 for hers": whose it is, worded alike)
    words = [_OWNER_WORD.get(w.lower(), w) for w in [*before, *after] if w.lower() not in _STOP - _MONEY_VERBS]
    return stems(" ".join(words))


_OWNER_WORD = {w: "owner" for w in ("mine", "hers", "his", "ours", "theirs", "yours")}


def _parallel(values: list[list[str]], own: list[str]) -> bool:
    """Each party's values are worded alike ("I deposited $1,800" / "She deposited $2,000",
    "last paved September 14" / "paved August 18"): a word around them common to every party."""
    words = [set().union(*(_context(v, s) for v in vs)) for vs, s in zip(values, own)]
    return bool(set.intersection(*words))


def split_parties(text: str, candidates: tuple[str, ...]) -> list[Party] | None:
    """One ``Party`` per sentence holding one of the competing values, or None when the
    values do not sit one to a sentence (then the question is asked instead)."""
    if len(candidates) < 2:
        return None
    parts = sentences(text)
    together = [i for i, p in enumerate(parts) if sum(c in p for c in candidates) >= 2]
    if len(together) == 1 and not any(c in p for i, p in enumerate(parts) if i != together[0] for c in candidates):
        # "the water utility dug on January 15, and the gas company dug on December 24": one party a clause
        i = together[0]
        strong = [p.strip() for p in _STRONG_CLAUSE.split(parts[i]) if p.strip()]
        if len(strong) > 1 and all(sum(c in p for c in candidates) <= 1 for p in strong):
            parts = parts[:i] + strong + parts[i + 1:]  # each party's whole clause, its own values together
        else:
            parts = parts[:i] + clauses(parts[i]) + parts[i + 1:]
    held = {c: [i for i, s in enumerate(parts) if c in s] for c in candidates}
    if not all(held.values()):
        return None
    # a party's sentence may hold several of its values ("$600 labor, $250 materials"), and the same
    # figure may stand in two parties' sentences ("$1,000,000 per person" / "$1,000,000 property damage")
    own = sorted({i for at in held.values() for i in at})
    if len(own) < 2:
        return None
    # the question asks about each, and each party's clause says its own ("the trencher is 7,100 lbs"; not the
    # elliptical "and the second June 4")
    asked = _questions(parts)
    asking = " ".join(parts[i] for i in asked)
    asks_each = (EACH.search(asking) is not None or _asks_both_persons(asking)) \
        and (all(_OWN_VERB.search(parts[i]) for i in own) or all(_ENTITY.search(parts[i]) for i in own)
             or all(_OWNED.search(parts[i]) for i in own))
    # (or the two sentences are two persons' own: "I deposited $2,800 and my final cost came in at $2,450. He put down
    # $3,000 and his came to $3,400.")
    persons = [_person(parts[i]) for i in own]
    two_persons = len(own) == 2 and sorted(p or "" for p in persons) == ["asker", "other"] \
        and not any(_EACH_OF_US.search(parts[i]) for i in own)
    if not asks_each and not two_persons \
            and not _parallel([[c for c in candidates if i in held[c]] for i in own], [parts[i] for i in own]):
        # "the house was built in 1987" and "the Village repaved it on June 10": not two parties (unless the
        # question asks about each: "the pickup comes to 5,200 lbs, the trencher is 7,100 lbs. Which one ...?")
        return None
    shared = [i for i in range(len(parts)) if i not in own]
    if not any(i in asked for i in shared):
        return None  # the question itself must be shared, not a party's sentence
    return [Party(_label(parts[i]), " ".join(_with_noun(parts[j], [parts[k] for k in own]) if j == i else parts[j]
                                             for j in sorted([*shared, i]))) for i in own]


# "My driveway drops 7 feet over 64 feet of run; his drops 9 feet ...": a possessive standing for the noun another
# party's clause names, read with that noun when the party's clause is read alone
_BARE_POSSESSIVE = re.compile(rf"^(?P<p>his|hers|her|theirs|their|mine|ours|yours)\s+(?={_VERBS}\b)", re.I)
_OWNED_NOUN = re.compile(rf"^(?:my|our|his|her|their|your|the)\s+(?P<noun>[a-z][\w-]*)\s+{_VERBS}\b", re.I)


def _with_noun(clause: str, clauses: list[str]) -> str:
    bare = _BARE_POSSESSIVE.match(clause)
    nouns = {m.group("noun").lower() for c in clauses if c is not clause and (m := _OWNED_NOUN.match(c))}
    if bare is None or len(nouns) != 1:
        return clause
    return f"{bare.group('p')} {next(iter(nouns))} {clause[bare.end():]}"


# the asker asks its own figure: "what do I owe", "how much do we pay", "what I get back"
_ASKS_OWN_FIGURE = re.compile(r"\b(?:do|does|did|will|would|should|must|can)\s+(?:I|we)\s+(?:owe|pay|get|have\s+to\s+pay)\b|"
                              r"\b(?:what|how\s+much)\s+(?:I|we)\s+(?:owe|pay|get)\b", re.I)


def _asks_both_persons(asking: str) -> bool:
    """"How much do I pay and how much does she pay?": the asker and another, each asked about."""
    words = _words(asking)
    return bool(words & _FIRST_PERSON and words & (_THIRD_PERSON - {"they", "their", "them"})
                and re.search(r"\band\b", asking, re.I))


# a party named by a person's name, its label's first word ("Gary next door deposited"; never "The", "Crew 2", "Lot B")
_NAMED = re.compile(r"\s*(?!(?:The|This|That|These|Those|Our|My|His|Her|Their|One|Another|Each|Both|Other|Crew|Lot|Unit|"
                    r"Truck|Job|Permit|Opening|Contractor|House|Mine|Ours|Hers|Theirs|We|I|They|He|She|It|If|And|But|So|"
                    r"Then|Also|Plus)\b)[A-Z][a-z]+\b(?![^\d]*\d)")


def asked_about(text: str, parties: list[Party]) -> list[Party]:
    """The parties the question asks about: every one for "each" / "both", else the one whose own
    words (a name, or the person: "my" against "her") the question repeats; none when unclear
    (then the question is asked)."""
    every = sentences(text)
    asked = _questions(every)
    asks = " ".join(every[i] for i in asked)
    if EACH.search(asks) or len(parties) < 2:
        return parties
    if asked and asked[0] > 0 and re.search(r"\b(?:they|them)\b", asks, re.I) and EACH.search(every[asked[0] - 1]) \
            and not _words(asks) & (_FIRST_PERSON | _THIRD_PERSON) - {"they", "them", "their"}:
        # "The builder says both are fine for the Town's slope rule. Are they?": "they" are the both said before
        return parties
    q = _words(asks) - _STOP
    owns = []
    for p in parties:
        mine = _words(p.label) - _STOP
        others = set().union(*(_words(o.label) - _STOP for o in parties if o is not p))
        own = mine - others
        if own & {"neighbor", "neighbour", "neighbor's", "neighbour's"}:
            own -= _FIRST_PERSON  # "my neighbor": someone else, not the asker
        owns.append(own)
    hit = [p for p, own in zip(parties, owns) if own & q - _FIRST_PERSON - _THIRD_PERSON]
    if len(hit) == 1 and len(parties) == 2 and _ASKS_OWN_FIGURE.search(asks):
        # "What does Jim get back, what do I owe?": one party by name, the asker's own by the person
        mine = [p for p, own in zip(parties, owns) if p is not hit[0] and own & _FIRST_PERSON]
        if mine and not owns[parties.index(hit[0])] & _FIRST_PERSON:
            return parties
    if len(hit) == 1:
        return hit
    if q & _FIRST_PERSON and q & _THIRD_PERSON and len(parties) == 2:
        # "What do I owe and what do they get back?": each party by its person, when one is "I" and one "they"
        # (or the other by a name: "Gary next door deposited $2,100 and his came in at $1,865")
        mine = [p for p, own in zip(parties, owns) if own & _FIRST_PERSON and not own & _THIRD_PERSON]
        theirs = [p for p, own in zip(parties, owns) if (own & _THIRD_PERSON or _NAMED.match(p.label))
                  and not own & _FIRST_PERSON]
        if len(mine) == 1 and len(theirs) == 1:
            return parties
    person = [p for p, own in zip(parties, owns)
              if (own & _FIRST_PERSON and q & _FIRST_PERSON and not q & _THIRD_PERSON)
              or (own & _THIRD_PERSON and q & _THIRD_PERSON and not q & _FIRST_PERSON)]
    if not person and len(parties) == 2 and q & _FIRST_PERSON and not q & _THIRD_PERSON:
        # "... billed me $640 ... My neighbor had a $2,000 guarantee and got billed $1,150. How much do I get back?":
        # asked in the first person, the party that is not the neighbor (or he / she) is the asker
        person = [p for p, own in zip(parties, owns) if not own & _THIRD_PERSON]
    return person if len(person) == 1 else []


# a sentence about someone else: a person's name or a neighbour as owner ("Dale's bill", "my neighbor's crew"), or
# "his / her" bill, house, share ... (never "his benefits": a worker's; never "they" / "their": as often the crew)
_OTHER_OWNER = re.compile(r"\b(?:neighbou?r(?:'s|’s)?|(?!(?:What|It|That|There|Here|Let|Who|Where|When|How|Today|Tomorrow|"
                          r"Yesterday|Everyone|Everybody|Nobody|Somebody|Someone|Year|Month|Week|Life|One)(?:'s|’s))"
                          r"[A-Z][a-z]+(?:'s|’s)|(?:his|her)\s+(?:own\s+)?(?:bill|share|house|home|property|lot|walk|sidewalk|"
                          r"driveway|assessment|charge|deposit|guarantee|permit))\b")
_INSTITUTION = re.compile(r"\b(?:Village|Town|City|County|State|Board|Clerk|Director|DPW|Department|Commission|"
                          r"Inspector|Superintendent|Council|Highway|"
                          # (the asker's own trade: "Contractor's estimate for redoing the entire walk is $4,800")
                          r"Contractor|Plumber|Mason|Paver|Excavator|Builder|Engineer|Surveyor|Landscaper|Crew|"
                          r"Company|Utility|Insurer|Carrier|Agent)(?:'s|’s)", re.I)
_ASKER = re.compile(r"\b(?:I|my|mine|me|we|our|ours|us)\b", re.I)
# the asker's own figure asked: "my bill", "what do I owe", "bill me", "will we pay"
_ASKS_OWN = re.compile(r"\b(?:my|mine|our|ours|me|us)\b|\b(?:I|we)\s+(?:\w+\s+)?(?:owe|pay|get|be\s+(?:charged|billed|"
                       r"assessed|fined)|have\s+to\s+pay|need\s+to\s+pay|need\s+to|have\s+to|must|got\s+to)\b", re.I)


def anothers_figures(text: str, spans: list[tuple[int, int]]) -> str | None:
    """The other party whose figures these are, when every value read sits in a sentence about someone else
    ("Dale's bill was one guy, 2 hours at $41 an hour") and the question asks about the asker's own ("What's my
    bill going to be?"): the words naming that party; None otherwise."""
    if not spans:
        return None
    bounds, at = [], 0
    for s in sentences(text):
        start = text.find(s, at)
        bounds.append((start, start + len(s), s))
        at = start + len(s)
    asks = [s for _, _, s in bounds if "?" in s]
    if not asks or not all(_ASKS_OWN.search(s) and not _OTHER_OWNER.search(_INSTITUTION.sub("", s)) for s in asks):
        return None  # ("What expiration date do I put on it?" of a clerk logging a firm's permit: no own figure asked)
    owners = []
    for a, b in spans:
        holding = [s for x, y, s in bounds if x <= a < y]
        if not holding:
            return None
        s = holding[0]
        found = _OTHER_OWNER.search(_INSTITUTION.sub("", s))
        if found is None or "?" in s or _ASKER.search(s):
            return None  # a value in the asker's own sentence (or in the question): theirs too, or not someone else's
        owners.append(found.group(0))
    return re.sub(r"(?:'s|’s)$", "", owners[0])


def of_another(text: str, span: tuple[int, int]) -> bool:
    """The value at ``span`` sits in a sentence about someone else ("My brother's was $2,000 and $310")."""
    at = 0
    for s in sentences(text):
        start = text.find(s, at)
        at = start + len(s)
        if start <= span[0] < at:
            words = {w.lower() for w in re.findall(r"[\w'’]+", s)}
            owned = re.search(r"\b(?!(?:it|that|what|there|here|who|let|he|she)['’]s\b)\w+['’]s\b", s, re.I)
            # (not "they" / "them": as often the municipality that billed as another owner)
            return "?" not in s and bool(words & (_THIRD_PERSON - {"they", "their", "them"}) or owned)
    return False


# a clause of another person inside one sentence: "mine was $450 and his was $1,150", "billed me $420 and him $1,150",
# "I put down a $1,500 deposit, he gave the town $2,000"
# ("my stretch is $3,100 and for his it's $1,840": the other's clause may open with a preposition)
_PERSON_CUT = re.compile(r"(?:,\s*|\s+)(?:and|while|whereas|but)\s+(?=(?:(?:for|on|of|with|to|at)\s+)?(?:he|she|him|her|his|"
                         r"hers|I|me|my|mine|we|us|our|ours)\b)|,\s+(?=(?:he|she|his|hers|her|I|we|my|mine|our|ours)\s)", re.I)
_FIGURE = re.compile(r"\$?\d[\d,]*(?:\.\d+)?")
_SECOND = {"he", "she", "him", "her", "his", "hers", "neighbor", "neighbour", "neighbor's", "neighbour's"}


_A_PERIOD_AFTER = re.compile(r"\s*(?:business\s+|calendar\s+)?(?:days?|hours?|weeks?|months?|years?)\b", re.I)


_EACH_OF_US = re.compile(r"\b(?:each|both|all)\s+of\s+us\b|\bwe\s+(?:each|both|all)\b", re.I)
_BOTH_AFTER = re.compile(r",?\s+(?:and|but|so)\s+(?:\w+ly,?\s+)?(?=(?:neither|both|each|all|none)\s+of\s+(?:us|them)\b|we\s+both\b)", re.I)


def _amounts(clause: str) -> list[re.Match]:
    """The figures of a clause less the periods said in it ("within 30 days")."""
    return [m for m in _FIGURE.finditer(clause) if not _A_PERIOD_AFTER.match(clause, m.end())]


def _person(clause: str) -> str | None:
    # ("each of us", "neither of us", "we both": the two together, no one person)
    words = _words(re.sub(r"\b(?:of|both|all)\s+(?:us|we)\b|\b(?:we|us)\s+(?:both|all)\b", " ", clause, flags=re.I))
    if words & {"neighbor", "neighbour", "neighbor's", "neighbour's"}:
        words = words - {"my", "our"}  # ("my neighbor Jim's is 15 squares": the neighbor's, not the asker's)
    first, other = bool(words & _FIRST_PERSON), bool(words & _SECOND)
    return "asker" if first and not other else "other" if other and not first else None


def split_by_person(text: str, candidates: tuple[str, ...]) -> list[Party] | None:
    """Two persons whose figures share sentences ("sent bills, mine was $450 and his was $1,150. ... I had put up a
    $1,200 cash guarantee and he put up $2,000"): one ``Party`` each, its figures put in the place of the first
    clause's (that clause carries the words the other's elliptical clause leaves out: "and him $1,150"); None unless
    every sentence with a figure of both persons cuts into clauses of one person each, their figures alike in number."""
    if len(candidates) < 2:
        return None
    parts = sentences(text)
    mixed: dict[int, list[tuple[str, str]]] = {}
    for i, s in enumerate(parts):
        pieces = [p for p in _PERSON_CUT.split(s) if p.strip()]
        numbered = [(p, _person(p)) for p in pieces if _FIGURE.search(p)]
        if len(numbered) >= 2 and {w for _, w in numbered} == {"asker", "other"}:
            if any(w is None for _, w in numbered) or len(numbered) != 2:
                return None
            mixed[i] = numbered
    held = [c for c in candidates if any(c in p for ps in mixed.values() for p, _ in ps)]
    if not mixed or len(held) < 2:
        return None
    asked = _questions(parts)
    if any(i in mixed for i in asked):
        return None
    out = []
    for who in ("asker", "other"):
        text_of, label = [], None
        for i, s in enumerate(parts):
            if i not in mixed:
                if i not in asked and _FIGURE.search(s) and _person(s) is not None and not _EACH_OF_US.search(s):
                    return None  # a figure of one person alone in its sentence: not this arrangement
                    # (one "each of us put up a $1,500 cash deposit" gives both persons is shared)
                text_of.append(s)  # shared: a common figure, the story, the question
                continue
            (first, _), (second, _) = mixed[i]
            # (what the two share after the second's figure, "his was $420, and neither of us paid within 30 days": both
            # persons')
            both = _BOTH_AFTER.search(second)
            tail = second[both.start():] if both else ""
            own = next(p for p, w in mixed[i] if w == who)
            own = own[:len(own) - len(tail)] if tail and own == second else own
            label = label or own.strip()
            # (a period said beside them is no figure of either)
            mine, theirs = _amounts(first), _amounts(own)
            if len(mine) != len(theirs):
                return None
            figures = iter(m.group() for m in theirs)
            spans = {m.span() for m in mine}
            template = _FIGURE.sub(lambda m: next(figures) if m.span() in spans else m.group(), first)
            start = s.find(first)
            cut = s.find(second, start + len(first))
            joined = (s[:start] + template + tail + s[cut + len(second):]).strip()
            text_of.append(joined if joined[-1:] in ".!?" else joined + ".")
        out.append(Party(label.rstrip(" .,") if label else who, " ".join(text_of)))
    return out
