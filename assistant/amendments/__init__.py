"""Amendments, the way a clerk makes them: compare a new text of a chapter with the one in
use, section by section, list the calculators and checklist items it touches, install it,
and keep a record of when each chapter changed.

- ``diff``: ``chapter_diff(old, new)`` — sections added, removed and changed, subsections
  renumbered, changed figures highlighted.
- ``provisions``: ``provision_impacts(old, new)`` — every quote the calculators and the
  checklist rely on against the new text, with who relies on it.
- ``report``: ``report_markdown`` — the clerk's report.
- ``install``: ``read_new_chapter`` (as ``ingest`` reads it), ``install_chapter`` (backup,
  atomic replace, a line in ``amendments.yaml``), ``pending_change``.
- ``changed_rule``: what a calculator answers when its rule changed, and the decorator
  ``answers_changed_rules`` every calculator wears.
"""

from assistant.amendments.changed_rule import (
    answers_changed_rules,
    changed_rule,
    is_changed_rule,
    raising_changed_rules,
)
from assistant.amendments.diff import ChapterDiff, PassageChange, SectionChange, chapter_diff, figures
from assistant.amendments.install import (
    AmendmentRecord,
    NewChapter,
    PendingProvision,
    corpus_text_from_pages,
    install_chapter,
    pending_change,
    read_new_chapter,
    records,
)
from assistant.amendments.provisions import Provision, ProvisionImpact, best_match, provision_impacts, provisions
from assistant.amendments.report import report_markdown

__all__ = [
    "AmendmentRecord", "ChapterDiff", "NewChapter", "PassageChange", "PendingProvision", "Provision",
    "ProvisionImpact", "SectionChange", "answers_changed_rules", "best_match", "chapter_diff", "changed_rule",
    "corpus_text_from_pages", "figures", "install_chapter", "is_changed_rule", "pending_change",
    "provision_impacts", "provisions", "raising_changed_rules", "read_new_chapter", "records", "report_markdown",
]
