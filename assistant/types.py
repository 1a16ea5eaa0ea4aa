"""Domain types shared by every layer: the corpus, the index, the tools and the answers.

Every boundary of the product speaks these pydantic models. Fields carry descriptions
so that the JSON schema (and the README) documents them.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

MunicipalityKind = Literal["village", "town", "city", "county"]
SourceFormat = Literal["ecode_text", "pdf_transcript", "pdf", "auto", "text", "markdown", "html", "xml"]
# formats read by the general reader (assistant/parsing/reader.py); the first two keep their own parsers
GENERAL_FORMATS = ("pdf", "auto", "text", "markdown", "html", "xml")
PageNumber = int | str


def normalize_ws(text: str) -> str:
    """Collapse every run of whitespace to one space (quotes are compared this way)."""
    return re.sub(r"\s+", " ", text).strip()


class TextProblem(BaseModel):
    """A known flaw of the source text (stripped label, garble, contradiction) and the
    reading the product uses; shown with every answer that cites a passage it touches."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    where: str = Field(description="A verbatim fragment of the passage text it touches (whitespace-insensitive).")
    note: str = Field(description="What is wrong, and which reading answers use.")


class ChapterSource(BaseModel):
    """One chapter of a municipality's code: its file, its format and how it is cited."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    chapter: str = Field(description="Chapter number as the code prints it, e.g. '404', '8', '16-12'.")
    chapter_title: str = Field(default="", description="Chapter title.")
    source_file: str = Field(description="File name under corpus/ holding the text.")
    source_format: SourceFormat = Field(default="auto", description="Which parser reads the file.")
    citation_style: str = Field(default="section", description="'ecode', 'heading' or 'section' (§ number).")
    edition: str | None = Field(default=None, description="Revision or edition of the text.")


class Municipality(BaseModel):
    """One manifest entry: a municipality and the chapter(s) of its code we hold.

    An entry names one chapter with the top-level fields (``chapter``, ``source_file``...)
    or several with ``chapters:`` (a whole code, each chapter cited by its own number);
    the top-level fields then describe the first chapter, so old entries stay valid."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Short id used by every --municipality option (lower case, no spaces).")
    name: str = Field(description="Display name, e.g. 'Village of <Name>'.")
    kind: MunicipalityKind = Field(description="Village, town, city or county.")
    county: str = Field(default="", description="County the municipality lies in.")
    state: str = Field(default="WI", description="Two-letter state code.")
    chapter: str = Field(description="Chapter number as the code prints it, e.g. '404' or '8'.")
    chapter_title: str = Field(default="", description="Chapter title.")
    source_file: str = Field(description="File name under corpus/ holding the text.")
    source_format: SourceFormat = Field(description="Which parser reads the file.")
    citation_style: str = Field(
        default="section",
        description="How the code's own sections are cited: 'ecode' (§ 404-7G(2)), "
        "'heading' (title, subsection path and page) or 'section' (§ number and printed labels).",
    )
    chapters: list[ChapterSource] = Field(
        default_factory=list, description="Every chapter held (the first is the top-level one)."
    )
    short_name: str | None = Field(
        default=None, description="Name used in running text (\"<short_name>'s code\"); the display name when absent."
    )
    aliases: list[str] = Field(default_factory=list, description="Other names users write.")
    example_questions: list[str] = Field(
        default_factory=list, description="Questions the web app offers as examples."
    )
    edition: str | None = Field(default=None, description="Revision or edition of the text.")
    outline_hints: dict[str, Any] = Field(
        default_factory=dict,
        description="Parser hints for structure the text lost (data, not code); see README.md.",
    )
    known_labels: dict[str, str] = Field(
        default_factory=dict,
        description="Subsection labels the code's own cross-references name, e.g. "
        "{'404-7G': 'Pavement replacement'}; the parser's reconstruction is checked against them.",
    )
    known_problems: list[TextProblem] = Field(
        default_factory=list,
        description="Known flaws of the text (../shared/TEXT-NOTES.md) and the readings used; data, not code.",
    )
    off_topic: list[str] = Field(
        default_factory=list,
        description="Topics this municipality's chapters do not cover (regular expressions, case-insensitive): "
        "a question on one is out of scope for it.",
    )
    off_topic_unless_streets: list[str] = Field(
        default_factory=list,
        description="Topics out of scope unless the question also names a street thing (dogs, noise...).",
    )

    @model_validator(mode="before")
    @classmethod
    def _one_or_many_chapters(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        chapters = data.get("chapters") or []
        top = {k: data[k] for k in ("chapter", "chapter_title", "source_file", "source_format",
                                    "citation_style", "edition") if data.get(k) is not None}
        if chapters:
            first = chapters[0] if isinstance(chapters[0], ChapterSource) else ChapterSource.model_validate(chapters[0])
            for k, v in first.model_dump().items():
                if v is not None:
                    data.setdefault(k, v)
        elif "chapter" in top and "source_file" in top:
            data["chapters"] = [top]
        return data

    @property
    def display_name(self) -> str:
        """The name with its state ('City of Somerville, MA'): places share names across states."""
        return f"{self.name}, {self.state}" if self.state and not self.name.endswith(f", {self.state}") else self.name

    def chapter_source(self, chapter: str | None) -> ChapterSource | None:
        for c in self.chapters:
            if c.chapter == chapter:
                return c
        return None


# the text of the passage that stands for a reserved (or repealed) section or range of sections
RESERVED_TEXTS = ("Reserved.", "Repealed.")


class Passage(BaseModel):
    """The smallest citable unit: one subsection or paragraph of one section."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Deterministic id: municipality, section key, subsection and ordinal.")
    municipality: str = Field(description="Municipality id.")
    chapter: str = Field(description="Chapter number.")
    section: str | None = Field(
        description="Section number as the text prints it ('404-7', '8.01'); null when the text has none."
    )
    title: str = Field(description="Section title as printed; for untitled text, a title from its content.")
    untitled: bool = Field(default=False, description="True when the section has no heading in the text.")
    subsection: str | None = Field(
        default=None, description="Subsection path, e.g. 'G(2)' (eCode style) or '(2)(b)1.' (heading style)."
    )
    subsection_reconstructed: bool = Field(
        default=False,
        description="True when any label in the path was reconstructed (the text lost it).",
    )
    heading: str | None = Field(default=None, description="Run-in heading of the paragraph, if any.")
    heading_path: list[str] = Field(
        default_factory=list, description="Headings of the enclosing subsections, outermost first."
    )
    page: PageNumber | None = Field(
        default=None, description="Page the passage starts on, where the source has pages (as printed: 4, '1614.4')."
    )
    page_end: PageNumber | None = Field(default=None, description="Page the passage ends on.")
    text: str = Field(description="Verbatim text, with page numbers, footnote markers and notes removed.")
    start: int = Field(description="Character offset of the passage in the source file.")
    end: int = Field(description="Character offset just past the passage in the source file.")
    notes: list[str] = Field(
        default_factory=list,
        description="Editor's notes, footnote markers and amendment tags taken out of the text.",
    )
    ordinal: int = Field(default=0, description="Position of the passage within the chapter.")

    @property
    def reserved(self) -> bool:
        """A reserved or repealed section's stand-in passage ("Reserved."): shown by `show`,
        never searched."""
        return self.subsection is None and self.text in RESERVED_TEXTS

    def citation(self, quote: str | None = None) -> "Citation":
        return Citation(
            municipality=self.municipality,
            chapter=self.chapter,
            section=self.section,
            title=self.title,
            subsection=self.subsection,
            page=self.page,
            quote=quote if quote is not None else self.text,
            passage_id=self.id,
        )


class Section(BaseModel):
    """A whole section: its heading and its passages in order."""

    model_config = ConfigDict(extra="forbid")

    municipality: str
    chapter: str
    section: str | None
    title: str
    untitled: bool = False
    page: PageNumber | None = None
    notes: list[str] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    start: int = 0
    end: int = 0

    @property
    def key(self) -> str:
        return self.section or slug(self.title)

    @property
    def reserved(self) -> bool:
        """Reserved or repealed: no passage but the stand-in "Reserved." (or none at all)."""
        return all(p.reserved for p in self.passages)

    @property
    def text(self) -> str:
        return "\n\n".join(
            (f"{p.subsection} " if p.subsection else "") + p.text for p in self.passages
        )


class Document(BaseModel):
    """A parsed chapter."""

    model_config = ConfigDict(extra="forbid")

    municipality: Municipality
    sections: list[Section]
    warnings: list[str] = Field(default_factory=list, description="Structure problems the parser found.")
    skipped: list[str] = Field(
        default_factory=list, description="What the reader left out of the passages, and why (general reader)."
    )
    layout: str | None = Field(default=None, description="Layout read (text, markdown, html, xml, pdf).")
    numbering: str | None = Field(default=None, description="The section numbering found, e.g. '§ 152.16'.")
    groups: list[str] = Field(default_factory=list, description="Article / subchapter headings found.")

    @property
    def passages(self) -> list[Passage]:
        return [p for s in self.sections for p in s.passages]


class Citation(BaseModel):
    """A pointer a clerk can check: where the words are, and the words themselves."""

    model_config = ConfigDict(extra="forbid")

    municipality: str = Field(description="Municipality id.")
    chapter: str = Field(description="Chapter number.")
    section: str | None = Field(description="Section number, or null when the text prints none.")
    title: str = Field(description="Section title.")
    subsection: str | None = Field(default=None, description="Subsection path.")
    page: PageNumber | None = Field(default=None, description="Page, where the source has pages.")
    quote: str = Field(description="Verbatim words from the passage.")
    passage_id: str | None = Field(default=None, description="Id of the indexed passage quoted.")

    def label(self) -> str:
        return format_citation(self.municipality, self.section, self.title, self.subsection, self.page,
                               chapter=self.chapter)


def format_citation(
    municipality: str, section: str | None, title: str, subsection: str | None, page: PageNumber | None,
    chapter: str | None = None,
) -> str:
    """Human citation: 'Brandon § 404-7G(2) Pavement replacement' or
    'Delafield ch. 8, EXCAVATION IN PUBLIC RIGHT-OF-WAY (2)(b)1., p. 4'."""
    from assistant.corpus import municipality_by_id

    m = municipality_by_id(municipality)
    who = m.name if m else municipality
    sub = subsection or ""
    chap = chapter or (m.chapter if m else "")
    style = m.citation_style if m else ""
    if m and chapter and len(m.chapters) > 1 and m.chapter_source(chapter):
        style = m.chapter_source(chapter).citation_style
    if section and m and style == "ecode":
        # § 404-7G(2) — subsection letters are appended to the section number
        core = f"§ {section}{sub}"
        text = f"{who} Code {core} ({title})"
    elif section:
        if sub and style == "section" and not sub.startswith("("):
            sub = " " + sub  # '§ 16-12.16 f.1.', not '§ 16-12.16f.1.'
        text = f"{who} Code ch. {chap} § {section}{sub} {title}".replace("  ", " ")
    else:
        chapter_txt = f"ch. {chap}, " if m else ""
        if m and style == "ecode":  # text the code prints without a section heading
            text = f"{who} Code {chapter_txt}“{title}” (no section number in the text){(', ' + sub) if sub else ''}"
        else:
            text = f"{who} Code {chapter_txt}{title}{(' ' + sub) if sub else ''}"
    if page is not None:
        text += f", p. {page}"
    return text


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


class ToolOutput(BaseModel):
    """Base of every calculator's output model. Subclasses add their typed values.

    ``ok`` is False when the inputs do not allow an answer (a Delafield surcharge, an
    opening before the paving date...): then ``error`` says why and no number is given.
    """

    model_config = ConfigDict(extra="forbid")

    tool: str = Field(description="Registry name of the tool.")
    ok: bool = Field(default=True, description="False when the inputs do not allow an answer (see error).")
    error: str | None = Field(default=None, description="Why no value could be given.")
    explanation: str = Field(default="", description="One paragraph: the arithmetic and the rule applied.")
    citations: list[Citation] = Field(default_factory=list, description="Provisions applied.")
    assumptions: list[str] = Field(
        default_factory=list, description="Readings chosen and ambiguities of the text that matter."
    )
    convention: str | None = Field(default=None, description="How time was counted, for date results.")


class ToolInput(BaseModel):
    """Base of every calculator's input model: unknown fields are errors, not defaults."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


AnswerStatus = Literal["answered", "clarify", "not_stated", "out_of_scope", "refused"]


class ChatTurn(BaseModel):
    """One turn of the conversation so far."""

    model_config = ConfigDict(extra="ignore")

    role: Literal["user", "assistant"] = Field(description="Who spoke.")
    content: str = Field(description="What was said.")


class ToolCall(BaseModel):
    """A calculator the answer used: its name, arguments and full result."""

    model_config = ConfigDict(extra="forbid")

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: dict[str, Any] = Field(default_factory=dict)


class Answer(BaseModel):
    """The assistant's reply; the JSONL batch contract writes these fields."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(default=None, description="Echo of the request id (batch mode).")
    status: AnswerStatus = Field(description="answered | clarify | not_stated | out_of_scope | refused")
    answer: str = Field(description="Plain text (Markdown) answer shown to the user.")
    municipality: str | None = Field(default=None, description="Municipality the answer is about.")
    citations: list[Citation] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)
    notes: list[str] = Field(
        default_factory=list, description="Readings chosen where the text is ambiguous or garbled."
    )
    backend: str = Field(default="embedded", description="Which backend answered: 'embedded' or the LLM id.")
    guard_events: list[str] = Field(default_factory=list, description="What the guards replaced or refused.")
    read_as: str | None = Field(default=None, description="A 'what if' follow-up answered as the earlier question "
                                "asked again with its new figures, or a reply that gives only a unit completed with the "
                                "value it was asked for: those words, the user's own words and figures.")
