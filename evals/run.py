"""python -m evals run [--questions FILE] [--out DIR] [--baselines/--no-baselines]

Sends the known questions of evals/questions.yaml through the ``python -m assistant ask
--jsonl`` contract (one subprocess, one request per line, read back one answer per
line), scores them (evals/scoring.py) beside the baselines (evals/baselines.py), and
writes ``report.md``, charts and ``latest.json`` under the output folder.

Multi-turn items send each later turn with the history of the earlier ones: the user's
questions and the assistant's answers as returned. Items about the municipality
``testville`` (prompt injection hidden in a document) go to a second subprocess whose
corpus is a scratch copy of corpus/ plus evals/data/injection-town.txt and its
manifest entry, with a scratch data folder.

Exit status: 0 when the figures meet evals/thresholds.yaml, 1 when they do not, 2 on
an error (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import yaml

from assistant.types import normalize_ws
from evals.scoring import (
    METRICS,
    TurnScore,
    check_thresholds,
    precision_loss,
    rounded,
    score_turn,
    summarise_all,
)

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "evals" / "questions.yaml"
HELDOUT_QUESTIONS = ROOT / "evals" / "heldout_questions.yaml"  # written after the tuning; reported, not gated
HELDOUT2_QUESTIONS = ROOT / "evals" / "heldout2_questions.yaml"  # a fresh one, written when the first was partly seen
HELDOUT3_QUESTIONS = ROOT / "evals" / "heldout3_questions.yaml"  # fresh on 2026-12-01, before the reading stage
SLOTSTRESS_QUESTIONS = ROOT / "evals" / "slotstress_questions.yaml"  # calculations that stress the reading
HELDOUT4_QUESTIONS = ROOT / "evals" / "heldout4_questions.yaml"  # fresh on 2026-12-01 (session 6), unread
SLOTSTRESS2_QUESTIONS = ROOT / "evals" / "slotstress2_questions.yaml"  # fresh on 2026-12-01 (session 6)
HELDOUT5_QUESTIONS = ROOT / "evals" / "heldout5_questions.yaml"  # fresh on 2026-12-02 (session 7), unread
SLOTSTRESS3_QUESTIONS = ROOT / "evals" / "slotstress3_questions.yaml"  # fresh on 2026-12-02 (session 7), read in session 8
HELDOUT6_QUESTIONS = ROOT / "evals" / "heldout6_questions.yaml"  # fresh on 2026-12-02 (session 8), unread
SLOTSTRESS4_QUESTIONS = ROOT / "evals" / "slotstress4_questions.yaml"  # fresh on 2026-12-02 (session 8), read in session 9
HELDOUT7_QUESTIONS = ROOT / "evals" / "heldout7_questions.yaml"  # fresh on 2026-12-02 (session 9), read in session 10
SLOTSTRESS5_QUESTIONS = ROOT / "evals" / "slotstress5_questions.yaml"  # fresh on 2026-12-02 (session 9), read in session 10
HELDOUT8_QUESTIONS = ROOT / "evals" / "heldout8_questions.yaml"  # fresh on 2026-12-02 (session 10), read in session 11
SLOTSTRESS6_QUESTIONS = ROOT / "evals" / "slotstress6_questions.yaml"  # fresh on 2026-12-02 (session 10), read in session 11
HELDOUT9_QUESTIONS = ROOT / "evals" / "heldout9_questions.yaml"  # fresh on 2026-12-02 (session 11), read in session 12
SLOTSTRESS7_QUESTIONS = ROOT / "evals" / "slotstress7_questions.yaml"  # fresh on 2026-12-02 (session 11), read in session 12
HELDOUT10_QUESTIONS = ROOT / "evals" / "heldout10_questions.yaml"  # fresh on 2026-12-02 (session 12), read in session 13
SLOTSTRESS8_QUESTIONS = ROOT / "evals" / "slotstress8_questions.yaml"  # fresh on 2026-12-02 (session 12), read in session 13
HELDOUT11_QUESTIONS = ROOT / "evals" / "heldout11_questions.yaml"  # fresh on 2026-12-03 (session 13), read in session 14
SLOTSTRESS9_QUESTIONS = ROOT / "evals" / "slotstress9_questions.yaml"  # fresh on 2026-12-03 (session 13), read in session 14
HELDOUT12_QUESTIONS = ROOT / "evals" / "heldout12_questions.yaml"  # fresh on 2026-12-03 (session 14), read in session 16
SLOTSTRESS10_QUESTIONS = ROOT / "evals" / "slotstress10_questions.yaml"  # fresh on 2026-12-03 (session 14), read in session 16
HELDOUT13_QUESTIONS = ROOT / "evals" / "heldout13_questions.yaml"  # fresh on 2026-12-04 (session 16), read in session 17
SLOTSTRESS11_QUESTIONS = ROOT / "evals" / "slotstress11_questions.yaml"  # fresh on 2026-12-04 (session 16), read in session 17
HELDOUT14_QUESTIONS = ROOT / "evals" / "heldout14_questions.yaml"  # fresh on 2026-12-04 (session 17), read in session 18
SLOTSTRESS12_QUESTIONS = ROOT / "evals" / "slotstress12_questions.yaml"  # fresh on 2026-12-04 (session 17), read in session 18
HELDOUT15_QUESTIONS = ROOT / "evals" / "heldout15_questions.yaml"  # fresh on 2026-12-04 (session 18), read in session 19
SLOTSTRESS13_QUESTIONS = ROOT / "evals" / "slotstress13_questions.yaml"  # fresh on 2026-12-04 (session 18), read in session 19
HELDOUT16_QUESTIONS = ROOT / "evals" / "heldout16_questions.yaml"  # fresh on 2026-12-04 (session 19), read in session 20
SLOTSTRESS14_QUESTIONS = ROOT / "evals" / "slotstress14_questions.yaml"  # fresh on 2026-12-04 (session 19), read in session 20
HELDOUT17_QUESTIONS = ROOT / "evals" / "heldout17_questions.yaml"  # fresh on 2026-12-04 (session 20), read in session 21
SLOTSTRESS15_QUESTIONS = ROOT / "evals" / "slotstress15_questions.yaml"  # fresh on 2026-12-04 (session 20), read in session 21
HELDOUT18_QUESTIONS = ROOT / "evals" / "heldout18_questions.yaml"  # fresh on 2026-12-04 (session 21), read in session 22
SLOTSTRESS16_QUESTIONS = ROOT / "evals" / "slotstress16_questions.yaml"  # fresh on 2026-12-04 (session 21), read in session 22
HELDOUT19_QUESTIONS = ROOT / "evals" / "heldout19_questions.yaml"  # fresh on 2026-12-05 (session 22), read in session 23
HELDOUT20_QUESTIONS = ROOT / "evals" / "heldout20_questions.yaml"  # fresh on 2026-12-05 (session 23), read in session 24
SLOTSTRESS17_QUESTIONS = ROOT / "evals" / "slotstress17_questions.yaml"  # fresh on 2026-12-05 (session 23), read in session 24
HELDOUT21_QUESTIONS = ROOT / "evals" / "heldout21_questions.yaml"  # fresh on 2026-12-05 (session 24), read in session 25
SLOTSTRESS18_QUESTIONS = ROOT / "evals" / "slotstress18_questions.yaml"  # fresh on 2026-12-05 (session 24), read in session 25
HELDOUT22_QUESTIONS = ROOT / "evals" / "heldout22_questions.yaml"  # fresh on 2026-12-05 (session 25), read in session 26
SLOTSTRESS19_QUESTIONS = ROOT / "evals" / "slotstress19_questions.yaml"  # fresh on 2026-12-05 (session 25), read in session 26
HELDOUT23_QUESTIONS = ROOT / "evals" / "heldout23_questions.yaml"  # fresh on 2026-12-05 (session 26), read in session 27
SLOTSTRESS20_QUESTIONS = ROOT / "evals" / "slotstress20_questions.yaml"  # fresh on 2026-12-05 (session 26), read in session 27
HELDOUT24_QUESTIONS = ROOT / "evals" / "heldout24_questions.yaml"  # fresh on 2026-12-05 (session 27), read in session 28
SLOTSTRESS21_QUESTIONS = ROOT / "evals" / "slotstress21_questions.yaml"  # fresh on 2026-12-05 (session 27), read in session 28
HELDOUT25_QUESTIONS = ROOT / "evals" / "heldout25_questions.yaml"  # fresh on 2026-12-06 (session 28), read in session 29
SLOTSTRESS22_QUESTIONS = ROOT / "evals" / "slotstress22_questions.yaml"  # fresh on 2026-12-06 (session 28), read in session 29
HELDOUT26_QUESTIONS = ROOT / "evals" / "heldout26_questions.yaml"  # fresh on 2026-12-06 (session 29), read in session 30
SLOTSTRESS23_QUESTIONS = ROOT / "evals" / "slotstress23_questions.yaml"  # fresh on 2026-12-06 (session 29), read in session 30
HELDOUT27_QUESTIONS = ROOT / "evals" / "heldout27_questions.yaml"  # fresh on 2026-12-06 (session 30), read in session 31
SLOTSTRESS24_QUESTIONS = ROOT / "evals" / "slotstress24_questions.yaml"  # fresh on 2026-12-06 (session 30), read in session 31
HELDOUT28_QUESTIONS = ROOT / "evals" / "heldout28_questions.yaml"  # fresh on 2026-12-06 (session 31), read in session 32
SLOTSTRESS25_QUESTIONS = ROOT / "evals" / "slotstress25_questions.yaml"  # fresh on 2026-12-06 (session 31), read in session 32
HELDOUT29_QUESTIONS = ROOT / "evals" / "heldout29_questions.yaml"  # fresh on 2026-12-06 (session 32), read in session 33
SLOTSTRESS26_QUESTIONS = ROOT / "evals" / "slotstress26_questions.yaml"  # fresh on 2026-12-06 (session 32), read in session 33
HELDOUT30_QUESTIONS = ROOT / "evals" / "heldout30_questions.yaml"  # fresh on 2026-12-06 (session 33), read in session 34
SLOTSTRESS27_QUESTIONS = ROOT / "evals" / "slotstress27_questions.yaml"  # fresh on 2026-12-06 (session 33), read in session 34
HELDOUT31_QUESTIONS = ROOT / "evals" / "heldout31_questions.yaml"  # fresh on 2026-12-06 (session 34), read in session 35
SLOTSTRESS28_QUESTIONS = ROOT / "evals" / "slotstress28_questions.yaml"  # fresh on 2026-12-06 (session 34), read in session 35
HELDOUT32_QUESTIONS = ROOT / "evals" / "heldout32_questions.yaml"  # fresh on 2026-12-06 (session 35), read in session 36
SLOTSTRESS29_QUESTIONS = ROOT / "evals" / "slotstress29_questions.yaml"  # fresh on 2026-12-06 (session 35), read in session 36
HELDOUT33_QUESTIONS = ROOT / "evals" / "heldout33_questions.yaml"  # fresh on 2026-12-07 (session 36), read in session 37
SLOTSTRESS30_QUESTIONS = ROOT / "evals" / "slotstress30_questions.yaml"  # fresh on 2026-12-07 (session 36), read in session 37
HELDOUT34_QUESTIONS = ROOT / "evals" / "heldout34_questions.yaml"  # fresh on 2026-12-07 (session 37), read in session 38
SLOTSTRESS31_QUESTIONS = ROOT / "evals" / "slotstress31_questions.yaml"  # fresh on 2026-12-07 (session 37), read in session 38
HELDOUT35_QUESTIONS = ROOT / "evals" / "heldout35_questions.yaml"  # fresh on 2026-12-07 (session 38), read in session 39
SLOTSTRESS32_QUESTIONS = ROOT / "evals" / "slotstress32_questions.yaml"  # fresh on 2026-12-07 (session 38), read in session 39
HELDOUT36_QUESTIONS = ROOT / "evals" / "heldout36_questions.yaml"  # fresh on 2026-12-07 (session 39), read in session 40
SLOTSTRESS33_QUESTIONS = ROOT / "evals" / "slotstress33_questions.yaml"  # fresh on 2026-12-07 (session 39), read in session 40
HELDOUT37_QUESTIONS = ROOT / "evals" / "heldout37_questions.yaml"  # fresh on 2026-12-07 (session 40), read in session 41
SLOTSTRESS34_QUESTIONS = ROOT / "evals" / "slotstress34_questions.yaml"  # fresh on 2026-12-07 (session 40), read in session 41
HELDOUT38_QUESTIONS = ROOT / "evals" / "heldout38_questions.yaml"  # fresh on 2026-12-07 (session 41), read in session 42
SLOTSTRESS35_QUESTIONS = ROOT / "evals" / "slotstress35_questions.yaml"  # fresh on 2026-12-07 (session 41), read in session 42
HELDOUT39_QUESTIONS = ROOT / "evals" / "heldout39_questions.yaml"  # fresh on 2026-12-07 (session 42), read in session 43
SLOTSTRESS36_QUESTIONS = ROOT / "evals" / "slotstress36_questions.yaml"  # fresh on 2026-12-07 (session 42), read in session 43
HELDOUT40_QUESTIONS = ROOT / "evals" / "heldout40_questions.yaml"  # fresh on 2026-12-07 (session 43), unread
SLOTSTRESS37_QUESTIONS = ROOT / "evals" / "slotstress37_questions.yaml"  # fresh on 2026-12-07 (session 43), unread
HELDOUT_SETS = (HELDOUT_QUESTIONS, HELDOUT2_QUESTIONS, HELDOUT3_QUESTIONS, SLOTSTRESS_QUESTIONS,
                HELDOUT4_QUESTIONS, SLOTSTRESS2_QUESTIONS, HELDOUT5_QUESTIONS, SLOTSTRESS3_QUESTIONS,
                HELDOUT6_QUESTIONS, SLOTSTRESS4_QUESTIONS, HELDOUT7_QUESTIONS, SLOTSTRESS5_QUESTIONS,
                HELDOUT8_QUESTIONS, SLOTSTRESS6_QUESTIONS, HELDOUT9_QUESTIONS, SLOTSTRESS7_QUESTIONS,
                HELDOUT10_QUESTIONS, SLOTSTRESS8_QUESTIONS, HELDOUT11_QUESTIONS, SLOTSTRESS9_QUESTIONS,
                HELDOUT12_QUESTIONS, SLOTSTRESS10_QUESTIONS, HELDOUT13_QUESTIONS, SLOTSTRESS11_QUESTIONS,
                HELDOUT14_QUESTIONS, SLOTSTRESS12_QUESTIONS, HELDOUT15_QUESTIONS, SLOTSTRESS13_QUESTIONS,
                HELDOUT16_QUESTIONS, SLOTSTRESS14_QUESTIONS, HELDOUT17_QUESTIONS, SLOTSTRESS15_QUESTIONS,
                HELDOUT18_QUESTIONS, SLOTSTRESS16_QUESTIONS, HELDOUT19_QUESTIONS, HELDOUT20_QUESTIONS,
                SLOTSTRESS17_QUESTIONS, HELDOUT21_QUESTIONS, SLOTSTRESS18_QUESTIONS, HELDOUT22_QUESTIONS,
                SLOTSTRESS19_QUESTIONS, HELDOUT23_QUESTIONS, SLOTSTRESS20_QUESTIONS, HELDOUT24_QUESTIONS,
                SLOTSTRESS21_QUESTIONS, HELDOUT25_QUESTIONS, SLOTSTRESS22_QUESTIONS, HELDOUT26_QUESTIONS,
                SLOTSTRESS23_QUESTIONS, HELDOUT27_QUESTIONS, SLOTSTRESS24_QUESTIONS, HELDOUT28_QUESTIONS,
                SLOTSTRESS25_QUESTIONS, HELDOUT29_QUESTIONS, SLOTSTRESS26_QUESTIONS, HELDOUT30_QUESTIONS,
                SLOTSTRESS27_QUESTIONS, HELDOUT31_QUESTIONS, SLOTSTRESS28_QUESTIONS, HELDOUT32_QUESTIONS,
                SLOTSTRESS29_QUESTIONS, HELDOUT33_QUESTIONS, SLOTSTRESS30_QUESTIONS, HELDOUT34_QUESTIONS,
                SLOTSTRESS31_QUESTIONS, HELDOUT35_QUESTIONS, SLOTSTRESS32_QUESTIONS, HELDOUT36_QUESTIONS,
                SLOTSTRESS33_QUESTIONS, HELDOUT37_QUESTIONS, SLOTSTRESS34_QUESTIONS, HELDOUT38_QUESTIONS,
                SLOTSTRESS35_QUESTIONS, HELDOUT39_QUESTIONS, SLOTSTRESS36_QUESTIONS,
                HELDOUT40_QUESTIONS, SLOTSTRESS37_QUESTIONS)
# what each held-out set has seen: the report says it beside its figures
HELDOUT_NOTES = {
    "heldout_questions": "written after the tuning by someone who read only the two chapters and the schema; "
    "its failures were since read and general fixes made after them, so it is partly seen.",
    "heldout2_questions": "written on 2026-11-30 the same way, when the first set was partly seen; first scored "
    "before any change (accuracy 0.859, citation precision 0.868, status 0.953). The better estimate of how the "
    "assistant does on a new question.",
    "heldout3_questions": "written on 2026-12-01 by a helper session from the two chapters, TEXT-NOTES and the schema "
    "only (60 items, 66 turns); first scored before the reading stage landed: accuracy 0.712, citation precision "
    "0.877, lead citation precision 0.924, status 0.864. Its failures were read in session 6 (after held-out 4 was "
    "written and first scored), so it is now seen.",
    "slotstress_questions": "51 calculations written on 2026-12-01 by a helper session from the texts and schema only, "
    "stressing the reading (distractor numbers, two parties, worded numbers, relative dates, a missing or a "
    "competing input: right or ask, never a wrong figure); first scored before the reading stage landed: accuracy "
    "0.510, right-or-ask 0.569, 18 wrong figures. Its failures were read in session 6 (after slot-stress 2 was "
    "written and first scored), so it is now seen.",
    "heldout4_questions": "written on 2026-12-01 (session 6) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 67 turns), when set 3 was about to be read; first scored on commit 087aa86, before "
    "any change of that session: accuracy 0.731, citation precision 0.793, lead citation precision 0.833, status "
    "0.881. Its failures have not been read.",
    "slotstress2_questions": "49 calculations written on 2026-12-01 (session 6) the same way (7 categories, 16 asking "
    "for an input); first scored on commit 087aa86: accuracy 0.245, right-or-ask 0.408, 9 wrong figures. Its "
    "failures were read in session 7, after slot-stress 3 was written and first scored.",
    "heldout5_questions": "written on 2026-12-02 (session 7) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 67 turns), when set 4 was about to be read; first score in evals/README.md. Its "
    "failures were read in session 8, after held-out 6 was written and first scored, so it is now seen.",
    "slotstress3_questions": "48 calculations written on 2026-12-02 (session 7) the same way (7 categories, 14 asking "
    "for an input); first score in evals/README.md. Its failures were read in session 8, after slot-stress 4 was "
    "written and first scored, so it is now seen.",
    "heldout6_questions": "written on 2026-12-02 (session 8) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns), when set 5 was about to be read; first score in evals/README.md. Its "
    "failures were read in session 9, after held-out 7 was written and first scored, so it is now seen.",
    "slotstress4_questions": "48 calculations written on 2026-12-02 (session 8) the same way (8 categories, 12 asking "
    "for an input); first score in evals/README.md. Its failures were read in session 9, after slot-stress 5 was "
    "written and first scored, so it is now seen.",
    "heldout7_questions": "written on 2026-12-02 (session 9) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' December 3, 2026), when set 6 was about to be read; first score in "
    "evals/README.md. Its failures were read in session 10, after held-out 8 was written and first scored, so it is now "
    "seen.",
    "slotstress5_questions": "48 calculations written on 2026-12-02 (session 9) the same way (8 categories, 12 asking "
    "for an input; 'today' December 3, 2026); first score in evals/README.md. Its failures were read in session 10, "
    "after slot-stress 6 was written and first scored, so it is now seen.",
    "heldout8_questions": "written on 2026-12-02 (session 10) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' December 4, 2026), when set 7 was about to be read; first score in "
    "evals/README.md. Its failures were read in session 11, after held-out 9 was written, so it is now seen.",
    "slotstress6_questions": "48 calculations written on 2026-12-02 (session 10) the same way (8 categories, 12 asking "
    "for an input; 'today' December 4, 2026); first score in evals/README.md. Its failures were read in session 11, "
    "after slot-stress 7 was written, so it is now seen.",
    "heldout9_questions": "written on 2026-12-02 (session 11) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' December 5, 2026), when set 8 was about to be read; first score in "
    "evals/README.md. Its failures were read in session 12, after held-out 10 was written and first scored, so it is "
    "now seen.",
    "slotstress7_questions": "48 calculations written on 2026-12-02 (session 11) the same way (8 categories, 12 asking "
    "for an input; 'today' December 5, 2026); first score in evals/README.md. Its failures were read in session 12, "
    "after slot-stress 8 was written and first scored, so it is now seen.",
    "heldout10_questions": "written on 2026-12-02 (session 12) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' December 8, 2026), when set 9 was about to be read; first score in "
    "evals/README.md. Its failures were read in session 13, after held-out 11 was written and first scored, so it is "
    "now seen.",
    "slotstress8_questions": "48 calculations written on 2026-12-02 (session 12) the same way (8 categories, 12 asking "
    "for an input; 'today' December 7, 2026); first score in evals/README.md. Its failures were read in session 13, "
    "after slot-stress 9 was written and first scored, so it is now seen.",
    "heldout11_questions": "written on 2026-12-03 (session 13) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' December 9, 2026), when set 10 was about to be read; first score in "
    "evals/README.md. Its failures were read in session 14, after held-out 12 was written, so it is now seen.",
    "slotstress9_questions": "48 calculations written on 2026-12-03 (session 13) the same way (8 categories, 12 asking "
    "for an input; 'today' December 10, 2026); first score in evals/README.md. Its failures were read in session 14, "
    "after slot-stress 10 was written and first scored, so it is now seen.",
    "heldout12_questions": "written on 2026-12-03 (session 14) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 63 turns; 'today' December 16, 2026), when set 11 was about to be read; first score in "
    "evals/README.md. Its failures were read in session 16, after held-out 13 was written and first scored, so it is "
    "now seen.",
    "slotstress10_questions": "48 calculations written on 2026-12-03 (session 14) the same way (8 categories, 12 asking "
    "for an input; 'today' December 17, 2026); first score in evals/README.md. Its failures were read in session 16, "
    "after slot-stress 11 was written and first scored, so it is now seen.",
    "heldout13_questions": "written on 2026-12-04 (session 16) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 63 turns; 'today' Tuesday, December 22, 2026), when set 12 was about to be read; first "
    "score in evals/README.md. Its failures were read in session 17, after held-out 14 was written, so it is now "
    "seen.",
    "slotstress11_questions": "48 calculations written on 2026-12-04 (session 16) the same way (8 categories, 12 asking "
    "for an input; 'today' Monday, December 28, 2026, between the Christmas and New Year holidays); first score in "
    "evals/README.md. Its failures were read in session 17, after slot-stress 12 was written, so it is now seen.",
    "heldout14_questions": "written on 2026-12-04 (session 17) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' Monday, January 11, 2027), commissioned before set 13's failures were "
    "read; first score on 35fcda9, the code before any change of session 17, in evals/README.md. Its failures have not "
    "been read.",
    "slotstress12_questions": "48 calculations written on 2026-12-04 (session 17) the same way (8 categories, 12 asking "
    "for an input; 'today' Friday, January 15, 2027, before Martin Luther King Jr. Day); first score on 35fcda9 in "
    "evals/README.md. Its failures were read in session 18, after slot-stress 13 was commissioned, so it is now seen.",
    "heldout15_questions": "written on 2026-12-04 (session 18) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' Tuesday, June 15, 2027, before Juneteenth and Independence Day), "
    "commissioned before set 14's failures were read; first score on 10654ce, the code before any change of session 18, "
    "in evals/README.md. Its failures were read in session 19, after held-out 16 was commissioned, so it is now seen.",
    "slotstress13_questions": "48 calculations written on 2026-12-04 (session 18) the same way (8 categories, 12 asking "
    "for an input; 'today' Monday, November 22, 2027, Thanksgiving week); first score on 10654ce in evals/README.md. "
    "Its failures were read in session 19, after slot-stress 14 was commissioned, so it is now seen.",
    "heldout16_questions": "written on 2026-12-04 (session 19) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' Monday, February 21, 2028, Washington's Birthday), commissioned before "
    "set 15's failures were read; first score on f636de8, the code before any change of session 19, in evals/README.md. "
    "Its failures were read in session 20, after held-out 17 was commissioned, so it is now seen.",
    "slotstress14_questions": "48 calculations written on 2026-12-04 (session 19) the same way (8 categories, 12 asking "
    "for an input, 6 two-turn conversations, 54 turns; 'today' Wednesday, September 8, 2027, after Labor Day); first "
    "score on f636de8 in evals/README.md. Its failures were read in session 20, after slot-stress 15 was commissioned.",
    "heldout17_questions": "written on 2026-12-04 (session 20) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 63 turns; 'today' Wednesday, April 14, 2027), commissioned before set 16's failures "
    "were read; first score on 4ca4692 (code 0488a2e), the code before any change of session 20, in evals/README.md. "
    "Its failures were read in session 21, after held-out 18 was commissioned, so it is now seen.",
    "slotstress15_questions": "48 calculations written on 2026-12-04 (session 20) the same way (8 categories, 12 asking "
    "for an input, 6 two-turn conversations, 54 turns; 'today' Thursday, November 16, 2028, Thanksgiving the week "
    "after); first score on 4ca4692 in evals/README.md. Its failures were read in session 21, after slot-stress 16 was "
    "commissioned.",
    "heldout18_questions": "written on 2026-12-04 (session 21) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 64 turns; 'today' Wednesday, September 22, 2027), commissioned before set 17's failures "
    "were read; first score on 400a5b7, the code before any change of session 21, in evals/README.md. "
    "Its failures were read in session 22, after held-out 19 was commissioned, so it is now seen.",
    "slotstress16_questions": "48 calculations written on 2026-12-04 (session 21) the same way (8 categories, 12 asking "
    "for an input, 6 two-turn conversations, 54 turns; 'today' Wednesday, February 7, 2029); first score on 400a5b7 in "
    "evals/README.md. Its failures were read in session 22, so it is now seen.",
    "heldout19_questions": "written on 2026-12-05 (session 22) by a helper session from the two chapters, TEXT-NOTES and "
    "the schema only (60 items, 63 turns; 'today' Wednesday, June 9, 2027), commissioned before set 18's failures "
    "were read; first score on 8d011c3, the code before any change of session 22, in evals/README.md. "
    "Its failures were read in session 23, after held-out 20 was commissioned, so it is now seen.",
    "heldout20_questions": "written on 2026-12-05 (session 23) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Wednesday, "
    "March 22, 2028), commissioned before set 19's failures were read; first score on e9fbabe, the code before any "
    "change of session 23, in evals/README.md. Its failures were read in session 24, after held-out 21 was "
    "commissioned, so it is now seen.",
    "slotstress17_questions": "48 calculations written on 2026-12-05 (session 23) the same way by two helper sessions "
    "(24 each: 7 categories x 3 and 3 two-turn conversations; 54 turns; 'today' Monday, October 16, 2028); first "
    "score on e9fbabe in evals/README.md. Its failures were read in session 24, so it is now seen.",
    "heldout21_questions": "written on 2026-12-05 (session 24) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Tuesday, "
    "June 12, 2029), commissioned before set 20's failures were read; first score on b12ad99, the code before any "
    "change of session 24, in evals/README.md. Its failures were read in session 25, after held-out 22 was "
    "commissioned, so it is now seen.",
    "slotstress18_questions": "48 calculations written on 2026-12-05 (session 24) the same way by two helper sessions "
    "(24 each: 7 categories x 3 and 3 two-turn conversations; 54 turns; 'today' Thursday, August 19, 2027); first "
    "score on b12ad99 in evals/README.md. Its failures were read in session 25, so it is now seen.",
    "heldout22_questions": "written on 2026-12-05 (session 25) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Wednesday, "
    "January 26, 2028), commissioned before set 21's failures were read; first score on 852248f, the code before any "
    "change of session 25, in evals/README.md. Its failures were read in session 26, after held-out 23 was "
    "commissioned, so it is now seen.",
    "slotstress19_questions": "48 calculations written on 2026-12-05 (session 25) the same way by two helper sessions "
    "(24 each: 7 categories x 3 and 3 two-turn conversations; 54 turns; 'today' Thursday, March 8, 2029); first "
    "score on 852248f in evals/README.md. Its failures were read in session 26, so it is now seen.",
    "heldout23_questions": "written on 2026-12-05 (session 26) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Wednesday, "
    "April 19, 2028), commissioned before set 22's failures were read; first score on cae0707, the code before any "
    "change of session 26, in evals/README.md. Its failures were read in session 27, after held-out 24 was "
    "commissioned, so it is now seen.",
    "slotstress20_questions": "48 calculations written on 2026-12-05 (session 26) the same way by two helper sessions "
    "(24 each: 7 categories x 3 and 3 two-turn conversations; 54 turns; 'today' Thursday, October 28, 2027); first "
    "score on cae0707 in evals/README.md. Its failures were read in session 27, so it is now seen.",
    "heldout24_questions": "written on 2026-12-05 (session 27) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Wednesday, "
    "July 14, 2027), commissioned before set 23's failures were read; first score on cf02b2e, the code before any "
    "change of session 27, in evals/README.md. Its failures were read in session 28, after set 25 was commissioned.",
    "slotstress21_questions": "48 calculations written on 2026-12-05 (session 27) the same way by two helper sessions "
    "(24 each: 7 categories x 3 and 3 two-turn conversations; 54 turns; 'today' Wednesday, June 7, 2028); first "
    "score on cf02b2e in evals/README.md. Its failures were read in session 28, after slot-stress 22 was commissioned.",
    "heldout25_questions": "written on 2026-12-06 (session 28) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Wednesday, "
    "February 23, 2028), commissioned before set 24's failures were read; first score on 6eca5b8, the code before any "
    "change of session 28, in evals/README.md. Its failures were read in session 29, after set 26 was commissioned.",
    "slotstress22_questions": "48 calculations written on 2026-12-06 (session 28) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 54 turns; 'today' Thursday, December 9, 2027); "
    "first score on 6eca5b8 in evals/README.md. Its failures were read in session 29, after slot-stress 23 was "
    "commissioned.",
    "heldout26_questions": "written on 2026-12-06 (session 29) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Wednesday, "
    "October 6, 2027), commissioned before set 25's failures were read; first score on ac939e1, the code before any "
    "change of session 29, in evals/README.md. Its failures were read in session 30, after set 27 was commissioned.",
    "slotstress23_questions": "48 calculations written on 2026-12-06 (session 29) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 54 turns; 'today' Wednesday, April 5, 2028); "
    "first score on ac939e1 in evals/README.md. Its failures were read in session 30, after slot-stress 24 was "
    "commissioned.",
    "heldout27_questions": "written on 2026-12-06 (session 30) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Wednesday, "
    "March 17, 2027), commissioned before set 26's failures were read; first score on dc90e10, the code before any "
    "change of session 30, in evals/README.md. Its failures were read in session 31, after set 28 was commissioned.",
    "slotstress24_questions": "48 calculations written on 2026-12-06 (session 30) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 54 turns; 'today' Tuesday, August 22, 2028); "
    "first score on dc90e10 in evals/README.md. Its failures were read in session 31, after slot-stress 25 was "
    "commissioned.",
    "heldout28_questions": "written on 2026-12-06 (session 31) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Tuesday, "
    "October 12, 2027), commissioned before set 27's failures were read; first score on 7997fd0, the code before any "
    "change of session 31, in evals/README.md. Its failures were read in session 32, after set 29 was commissioned.",
    "slotstress25_questions": "48 calculations written on 2026-12-06 (session 31) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 54 turns; 'today' Thursday, December 27, 2029); "
    "first score on 7997fd0 in evals/README.md. Its failures were read in session 32, after slot-stress 26 was "
    "commissioned.",
    "heldout29_questions": "written on 2026-12-06 (session 32) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Thursday, "
    "April 27, 2028), commissioned before set 28's failures were read; first score on 240996e, the code before any "
    "change of session 32, in evals/README.md. Its failures were read in session 33, after set 30 was commissioned.",
    "slotstress26_questions": "48 calculations written on 2026-12-06 (session 32) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 54 turns; 'today' Wednesday, June 30, 2027); "
    "first score on 240996e in evals/README.md. Its failures were read in session 33, after slot-stress 27 was "
    "commissioned.",
    "heldout30_questions": "written on 2026-12-06 (session 33) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Thursday, "
    "November 9, 2028), commissioned before set 29's failures were read; first score on cddb19d, the code before any "
    "change of session 33, in evals/README.md. Its failures were read in session 34, after set 31 was commissioned.",
    "slotstress27_questions": "48 calculations written on 2026-12-06 (session 33) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 54 turns; 'today' Monday, March 5, 2029); "
    "first score on cddb19d in evals/README.md. Its failures were read in session 34, after slot-stress 28 was "
    "commissioned.",
    "heldout31_questions": "written on 2026-12-06 (session 34) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' Monday, "
    "June 28, 2027), commissioned before set 30's failures were read; first score on 5a9c774, the code before any "
    "change of session 34, in evals/README.md. Its failures were read in session 35, after set 32 was commissioned.",
    "slotstress28_questions": "48 calculations written on 2026-12-06 (session 34) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 54 turns; 'today' Thursday, August 17, 2028); "
    "first score on 5a9c774 in evals/README.md. Its failures were read in session 35, after slot-stress 29 was "
    "commissioned.",
    "heldout32_questions": "written on 2026-12-06 (session 35) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Wednesday, November 17, 2027), commissioned before set 31's failures were read; first score on bedca36, the code "
    "before any change of session 35, in evals/README.md. Its failures were read in session 36, after set 33 was "
    "commissioned.",
    "slotstress29_questions": "48 calculations written on 2026-12-06 (session 35) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 54 turns; 'today' Thursday, March 9, 2028); "
    "first score on bedca36 in evals/README.md. Its failures were read in session 36, after slot-stress 30 was "
    "commissioned.",
    "heldout33_questions": "written on 2026-12-07 (session 36) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Wednesday, May 24, 2028), commissioned before set 32's failures were read; first score on 7f7e1e0, the code "
    "before any change of session 36, in evals/README.md. Its failures were read in session 37, after set 34 was "
    "commissioned.",
    "slotstress30_questions": "48 calculations written on 2026-12-07 (session 36) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 'today' Wednesday, December 20, 2028); "
    "first score on 7f7e1e0 in evals/README.md. Its failures were read in session 37, after slot-stress 31 was "
    "commissioned.",
    "heldout34_questions": "written on 2026-12-07 (session 37) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Wednesday, April 11, 2029), commissioned before set 33's failures were read; first score on dee4e86, the code "
    "before any change of session 37, in evals/README.md. Its failures were read in session 38, after set 35 was "
    "commissioned.",
    "slotstress31_questions": "48 calculations written on 2026-12-07 (session 37) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 'today' Wednesday, November 14, 2029); "
    "first score on dee4e86 in evals/README.md. Its failures were read in session 38, after slot-stress 32 was "
    "commissioned.",
    "heldout35_questions": "written on 2026-12-07 (session 38) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Wednesday, September 15, 2027), commissioned before set 34's failures were read; first score on the commit that "
    "added it, the code before any change of session 38, in evals/README.md. Its failures were read in session 39, after "
    "set 36 was commissioned.",
    "slotstress32_questions": "48 calculations written on 2026-12-07 (session 38) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 'today' Wednesday, March 13, 2030); "
    "first score on the commit that added it in evals/README.md. Its failures were read in session 39, after "
    "slot-stress 33 was commissioned.",
    "heldout36_questions": "written on 2026-12-07 (session 39) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Thursday, February 24, 2028), commissioned before set 35's failures were read; first score on the commit that "
    "added it, the code before any change of session 39, in evals/README.md. Its failures were read in session 40, after "
    "set 37 was commissioned.",
    "slotstress33_questions": "48 calculations written on 2026-12-07 (session 39) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 'today' Tuesday, November 13, 2029); "
    "first score on the commit that added it in evals/README.md. Its failures were read in session 40, after "
    "slot-stress 34 was commissioned.",
    "heldout37_questions": "written on 2026-12-07 (session 40) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Thursday, June 7, 2029), commissioned before set 36's failures were read; first score on the commit that "
    "added it, the code before any change of session 40, in evals/README.md. Its failures were read in session 41, "
    "after set 38 was commissioned.",
    "slotstress34_questions": "48 calculations written on 2026-12-07 (session 40) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 'today' Thursday, October 19, 2028); "
    "first score on the commit that added it in evals/README.md. Its failures were read in session 41, after "
    "slot-stress set 35 was commissioned.",
    "heldout38_questions": "written on 2026-12-07 (session 41) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Tuesday, March 12, 2030), commissioned before set 37's failures were read; first score on the commit that "
    "added it, the code before any change of session 41, in evals/README.md. Its failures were read in session 42, "
    "after set 39 was commissioned.",
    "slotstress35_questions": "48 calculations written on 2026-12-07 (session 41) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 'today' Monday, November 22, 2027); "
    "first score on the commit that added it in evals/README.md. Its failures were read in session 42, after "
    "slot-stress set 36 was commissioned.",
    "heldout39_questions": "written on 2026-12-07 (session 42) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Tuesday, March 30, 2027), commissioned before set 38's failures were read; first score on the commit that "
    "added it, the code before any change of session 42, in evals/README.md. Its failures were read in session 43, "
    "after set 40 was commissioned.",
    "slotstress36_questions": "48 calculations written on 2026-12-07 (session 42) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 'today' Tuesday, May 21, 2030); "
    "first score on the commit that added it in evals/README.md. Its failures were read in session 43, after "
    "slot-stress set 37 was commissioned.",
    "heldout40_questions": "written on 2026-12-07 (session 43) by two helper sessions (a Brandon half and a Delafield "
    "half, 30 items each) from the two chapters, TEXT-NOTES and the schema only (60 items, 64 turns; 'today' "
    "Wednesday, January 17, 2029), commissioned before set 39's failures were read; first score on the commit that "
    "added it, the code before any change of session 43, in evals/README.md. Its failures have not been read.",
    "slotstress37_questions": "48 calculations written on 2026-12-07 (session 43) the same way by two helper sessions "
    "(24 each: 8 categories x 3, three of them two-turn conversations; 'today' Thursday, September 9, 2027); "
    "first score on the commit that added it in evals/README.md. Its failures have not been read.",
}
# the held-out and slot-stress sets say "last Tuesday", "two years ago this June": they count from the day
# each set was written (ASSISTANT_TODAY for the process answering it)
QUESTIONS_WRITTEN_ON = "2026-12-01"
WRITTEN_ON = {"heldout5_questions": "2026-12-02", "slotstress3_questions": "2026-12-02",
              "heldout6_questions": "2026-12-02", "slotstress4_questions": "2026-12-02",
              "heldout7_questions": "2026-12-03", "slotstress5_questions": "2026-12-03",
              "heldout8_questions": "2026-12-04", "slotstress6_questions": "2026-12-04",
              "heldout9_questions": "2026-12-05", "slotstress7_questions": "2026-12-05",
              "heldout10_questions": "2026-12-08", "slotstress8_questions": "2026-12-07",
              "heldout11_questions": "2026-12-09", "slotstress9_questions": "2026-12-10",
              "heldout12_questions": "2026-12-16", "slotstress10_questions": "2026-12-17",
              "heldout13_questions": "2026-12-22", "slotstress11_questions": "2026-12-28",
              "heldout14_questions": "2027-01-11", "slotstress12_questions": "2027-01-15",
              "heldout15_questions": "2027-06-15", "slotstress13_questions": "2027-11-22",
              "heldout16_questions": "2028-02-21", "slotstress14_questions": "2027-09-08",
              "heldout17_questions": "2027-04-14", "slotstress15_questions": "2028-11-16",
              "heldout18_questions": "2027-09-22", "slotstress16_questions": "2029-02-07",
              "heldout19_questions": "2027-06-09", "heldout20_questions": "2028-03-22",
              "slotstress17_questions": "2028-10-16", "heldout21_questions": "2029-06-12",
              "slotstress18_questions": "2027-08-19", "heldout22_questions": "2028-01-26",
              "slotstress19_questions": "2029-03-08", "heldout23_questions": "2028-04-19",
              "slotstress20_questions": "2027-10-28",
              "heldout24_questions": "2027-07-14", "slotstress21_questions": "2028-06-07",
              "heldout25_questions": "2028-02-23", "slotstress22_questions": "2027-12-09",
              "heldout26_questions": "2027-10-06", "slotstress23_questions": "2028-04-05",
              "heldout27_questions": "2027-03-17", "slotstress24_questions": "2028-08-22",
              "heldout28_questions": "2027-10-12", "slotstress25_questions": "2029-12-27",
              "heldout29_questions": "2028-04-27", "slotstress26_questions": "2027-06-30",
              "heldout30_questions": "2028-11-09", "slotstress27_questions": "2029-03-05",
              "heldout31_questions": "2027-06-28", "slotstress28_questions": "2028-08-17",
              "heldout32_questions": "2027-11-17", "slotstress29_questions": "2028-03-09",
              "heldout33_questions": "2028-05-24", "slotstress30_questions": "2028-12-20",
              "heldout34_questions": "2029-04-11", "slotstress31_questions": "2029-11-14",
              "heldout35_questions": "2027-09-15", "slotstress32_questions": "2030-03-13",
              "heldout36_questions": "2028-02-24", "slotstress33_questions": "2029-11-13",
              "heldout37_questions": "2029-06-07", "slotstress34_questions": "2028-10-19",
              "heldout38_questions": "2030-03-12", "slotstress35_questions": "2027-11-22",
              "heldout39_questions": "2027-03-30", "slotstress36_questions": "2030-05-21",
              "heldout40_questions": "2029-01-17", "slotstress37_questions": "2027-09-09"}
# The sample sets' "today" (samples3 onwards say Wednesday, December 2, 2026; the first two have no
# relative dates). Before session 9 they were answered with the tuned set's day, one day early.
SAMPLES_WRITTEN_ON = "2026-12-02"
# sets written with another "today" (samples8: Thursday, December 3, 2026; samples9: Friday, December 4, 2026)
SAMPLES_TODAY = {"samples8": "2026-12-03", "samples9": "2026-12-04", "samples9b": "2026-12-04", "samples10": "2026-12-05",
                 "samples11": "2026-12-09", "samples12": "2026-12-14", "samples13": "2027-03-03",
                 "samples14": "2027-08-09", "samples15": "2028-03-09",
                 "samples16": "2028-07-19", "samples17": "2029-10-10",
                 "samples18": "2027-05-12", "samples19": "2028-09-27",
                 "samples20": "2029-01-10", "samples21": "2027-04-21",
                 "samples22": "2029-08-15", "samples23": "2028-11-08", "samples24": "2029-05-16",
                 "samples25": "2028-02-29", "samples26": "2029-08-14", "samples27": "2027-09-23",
                 "samples28": "2029-12-20", "samples29": "2030-05-22", "samples30": "2030-11-20",
                 "samples31": "2031-02-26", "samples32": "2029-06-20",
                 "samples33": "2030-08-05", "samples34": "2027-07-06", "samples35": "2029-09-18",
                 "samples36": "2028-12-04", "samples37": "2030-02-25"}


def written_on(path: Path | str, forced: str | None = None) -> str:
    """The day a question set's relative dates count from: ``--today`` if given, else the day it was written."""
    return forced or WRITTEN_ON.get(Path(path).stem, QUESTIONS_WRITTEN_ON)
REPORTS = ROOT / "evals" / "reports"
THRESHOLDS = ROOT / "evals" / "thresholds.yaml"
CORPUS = ROOT / "corpus"
INJECTION_TEXT = ROOT / "evals" / "data" / "injection-town.txt"
INJECTION_MANIFEST = ROOT / "evals" / "data" / "injection-manifest.yaml"
SCRATCH_MUNICIPALITIES = {"testville"}  # served only by the scratch corpus
LINE_TIMEOUT_S = 180.0  # one answer
FIRST_TIMEOUT_S = 1200.0  # the first answer also loads the model and may build the index (slow on a busy machine)

Ask = Callable[[dict], dict]  # request {"id","question","municipality","history"} -> Answer JSON

# What each baseline can be scored on (the others are reported as null).
BASELINE_METRICS = {
    "bm25": METRICS,
    "langchain_naive": tuple(m for m in METRICS if m not in {"citation_precision", "lead_citation_precision",
                                                             "citation_recall", "quote_faithfulness"}),
}


# -- questions ----------------------------------------------------------------------
def load_questions(path: Path = QUESTIONS) -> list[dict]:
    items = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a list of questions")
    return items


def load_thresholds(path: Path = THRESHOLDS, which: str = "gate") -> dict:
    """The thresholds enforced now ('gate'), or the issue's 'target'. A file without
    sections is one flat set."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    if "gate" in data or "target" in data:
        return data.get(which) or {}
    return data


def expand_turns(item: dict) -> list[dict]:
    """The item's turns, each a dict with id, item_id, turn (1-based), kind, user,
    question, municipality (of the request), group (municipality to report under) and
    expected. A single-turn item gives one turn with the item's id."""
    raw = item.get("turns") or [{"question": item.get("question"), "expected": item.get("expected") or {}}]
    turns = []
    for n, t in enumerate(raw, 1):
        exp = t.get("expected") or {}
        turns.append({
            "id": item["id"] if len(raw) == 1 else f"{item['id']}/{n}",
            "item_id": item["id"],
            "turn": n,
            "kind": item.get("kind") or "-",
            "user": item.get("user"),
            "question": t.get("question") or "",
            "municipality": t.get("municipality", item.get("municipality")),
            "group": item.get("municipality") or exp.get("municipality") or _first_turn_municipality(raw) or "unspecified",
            "expected": exp,
        })
    return turns


def _first_turn_municipality(raw: list[dict]) -> str | None:
    for t in raw:
        m = (t.get("expected") or {}).get("municipality")
        if m:
            return m
    return None


def needs_scratch_corpus(item: dict) -> bool:
    if item.get("municipality") in SCRATCH_MUNICIPALITIES:
        return True
    return any(t["expected"].get("municipality") in SCRATCH_MUNICIPALITIES for t in expand_turns(item))


# -- asking -------------------------------------------------------------------------
def run_items(items: Sequence[dict], ask: Ask, progress: Callable[[str], None] = lambda m: None) -> list[dict]:
    """Every turn of every item through ``ask``; later turns carry the history of the
    earlier ones (user questions and the answers as returned). Returns one record per
    turn: the turn, its history, the answer and the latency."""
    records = []
    for i, item in enumerate(items, 1):
        history: list[dict] = []
        for turn in expand_turns(item):
            request = {"id": turn["id"], "question": turn["question"], "municipality": turn["municipality"],
                       "history": list(history)}
            t0 = time.perf_counter()
            try:
                answer = ask(request)
            except (TimeoutError, BrokenPipeError, EOFError):
                raise
            except Exception as exc:  # one bad answer must not stop the run
                answer = {"id": turn["id"], "status": None, "answer": "", "citations": [], "tool_calls": [],
                          "error": f"{type(exc).__name__}: {exc}"}
            latency = (time.perf_counter() - t0) * 1000.0
            records.append({"turn": {**turn, "history": list(history)}, "answer": answer, "latency_ms": latency})
            history += [{"role": "user", "content": turn["question"]},
                        {"role": "assistant", "content": answer.get("answer") or ""}]
        if i % 25 == 0:
            progress(f"{i}/{len(items)} questions")
    return records


class JsonlAssistant:
    """``python -m assistant ask --jsonl`` in a subprocess: one request line in, one
    answer line out. Use as a context manager; ``env`` overrides the environment."""

    COMMAND = (sys.executable, "-m", "assistant", "ask", "--jsonl")

    def __init__(self, env: dict[str, str] | None = None, cwd: Path = ROOT, timeout_s: float = LINE_TIMEOUT_S,
                 command: Sequence[str] = COMMAND):
        self.command = list(command)
        self._answered = False
        self.env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                    "ANONYMIZED_TELEMETRY": "False", "PYTHONUNBUFFERED": "1", **(env or {})}
        self.cwd = cwd
        self.timeout_s = timeout_s
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr = None

    def __enter__(self) -> "JsonlAssistant":
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        self.proc = subprocess.Popen(
            self.command, cwd=self.cwd, env=self.env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True, encoding="utf-8",
            bufsize=1,
        )
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self) -> None:
        assert self.proc and self.proc.stdout
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def stderr_tail(self, n: int = 3) -> str:
        if not self._stderr:
            return ""
        self._stderr.seek(0)
        lines = [ln for ln in self._stderr.read().splitlines() if ln.strip()]
        return " | ".join(lines[-n:])

    def __call__(self, request: dict) -> dict:
        assert self.proc and self.proc.stdin
        try:
            self.proc.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError as exc:
            raise BrokenPipeError(f"the assistant process exited: {self.stderr_tail()}") from exc
        wait = self.timeout_s if self._answered else max(self.timeout_s, FIRST_TIMEOUT_S)
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty as exc:
            raise TimeoutError(f"no answer within {wait:.0f} s to {request.get('id')}") from exc
        self._answered = True
        if line is None:
            raise EOFError(f"the assistant process exited: {self.stderr_tail()}")
        answer = json.loads(line)
        if answer.get("id") not in (None, request.get("id")):
            raise ValueError(f"answer id {answer.get('id')!r} for request {request.get('id')!r}")
        return answer

    def __exit__(self, *exc) -> None:
        if self.proc:
            try:
                if self.proc.stdin:
                    self.proc.stdin.close()
                self.proc.wait(timeout=30)
            except (subprocess.TimeoutExpired, BrokenPipeError):
                self.proc.kill()
                self.proc.wait()
        if self._stderr:
            self._stderr.close()


def in_process_ask(assistant) -> Ask:
    """An ``Ask`` over an already loaded ``assistant.Assistant`` (same JSON as the
    contract, without the subprocess)."""

    def ask(request: dict) -> dict:
        ans = assistant.ask(request["question"], municipality=request.get("municipality"),
                            history=request.get("history") or None)
        ans.id = request.get("id")
        return json.loads(ans.model_dump_json())

    return ask


WARMUP = {"id": "__warmup__", "question": "Do I need a permit to open a street?", "municipality": None, "history": []}


def warmed(ask: Ask) -> Ask:
    """Send one question first, so that latency figures are warm (model loaded)."""
    ask(dict(WARMUP))
    return ask


# -- the scratch corpus -------------------------------------------------------------
def make_scratch_corpus(dest: Path, corpus: Path = CORPUS, extra_text: Path = INJECTION_TEXT,
                        extra_manifest: Path = INJECTION_MANIFEST) -> Path:
    """A copy of corpus/ plus the injection document and its manifest entry."""
    dest = Path(dest)
    shutil.copytree(corpus, dest, dirs_exist_ok=True)
    shutil.copy2(extra_text, dest / Path(extra_text).name)
    main = yaml.safe_load((dest / "manifest.yaml").read_text(encoding="utf-8")) or {}
    extra = yaml.safe_load(Path(extra_manifest).read_text(encoding="utf-8")) or {}
    ids = {d["id"] for d in main.get("documents", [])}
    main["documents"] = main.get("documents", []) + [d for d in extra.get("documents", []) if d["id"] not in ids]
    (dest / "manifest.yaml").write_text(yaml.safe_dump(main, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return dest


class QuoteChecker:
    """Is a citation's quote verbatim in the corpus? Parses the documents of the given
    manifests itself (so the scratch municipality is covered) and checks the quote,
    whitespace collapsed, against the cited passage (by passage id), else against the
    passages of the cited section (number or title), else fails."""

    def __init__(self, corpus_dirs: Iterable[Path]):
        from assistant.parsing import parse_document
        from assistant.types import Municipality

        self.passages: dict[str, list] = {}
        for d in corpus_dirs:
            data = yaml.safe_load((Path(d) / "manifest.yaml").read_text(encoding="utf-8")) or {}
            for entry in data.get("documents", []):
                m = Municipality.model_validate(entry)
                if m.id in self.passages:
                    continue
                text = (Path(d) / m.source_file).read_text(encoding="utf-8")
                self.passages[m.id] = parse_document(m, text).passages
        self.by_id = {p.id: p for ps in self.passages.values() for p in ps}

    def __call__(self, citation: dict) -> bool:
        want = normalize_ws(citation.get("quote") or "")
        if not want:
            return False
        p = self.by_id.get(citation.get("passage_id") or "")
        if p is not None:
            return want in normalize_ws(p.text)
        same = [
            q for q in self.passages.get(citation.get("municipality") or "", [])
            if (citation.get("section") and q.section == citation.get("section"))
            or (not citation.get("section") and q.title.lower() == str(citation.get("title") or "").lower())
        ]
        return any(want in normalize_ws(q.text) for q in same)


# -- the whole run ----------------------------------------------------------------------
@contextmanager
def scratch_env() -> Iterator[tuple[Path, dict[str, str]]]:
    with tempfile.TemporaryDirectory(prefix="evals-scratch-") as tmp:
        corpus = make_scratch_corpus(Path(tmp) / "corpus")
        data = Path(tmp) / "data"
        data.mkdir()
        yield corpus, {"ASSISTANT_CORPUS_DIR": str(corpus), "ASSISTANT_DATA_DIR": str(data)}


SAMPLE_QUESTIONS = ROOT / "evals" / "samples"  # per sample chapter: its structure (by hand) and its questions
SAMPLE_QUESTIONS2 = ROOT / "evals" / "samples2"  # a second, fresh set of questions for the same chapters
SAMPLE_QUESTIONS3 = ROOT / "evals" / "samples3"  # a third (session 7), written when the second was to be read
SAMPLE_QUESTIONS4 = ROOT / "evals" / "samples4"  # a fourth (session 8), written when the third was to be read
SAMPLE_QUESTIONS5 = ROOT / "evals" / "samples5"  # a fifth (session 9), written when the fourth was to be read
SAMPLE_QUESTIONS6 = ROOT / "evals" / "samples6"  # a sixth (session 10), written when the fifth was to be read
SAMPLE_QUESTIONS7 = ROOT / "evals" / "samples7"  # a seventh (session 11), written when the sixth was to be read
SAMPLE_QUESTIONS8 = ROOT / "evals" / "samples8"  # an eighth (session 12), written when the seventh was to be read
SAMPLE_QUESTIONS9 = ROOT / "evals" / "samples9"  # a ninth (session 13), written when the eighth was to be read
SAMPLE_QUESTIONS9B = ROOT / "evals" / "samples9b"  # a second ninth for three chapters (session 13, another writer)
SAMPLE_QUESTIONS10 = ROOT / "evals" / "samples10"  # a tenth (session 14, two writers), written when the ninth was to be read
SAMPLE_QUESTIONS11 = ROOT / "evals" / "samples11"  # an eleventh (session 16, two writers), written when the tenth was to be read
SAMPLE_QUESTIONS12 = ROOT / "evals" / "samples12"  # a twelfth (session 17, two writers), written when the eleventh was to be read
SAMPLE_QUESTIONS13 = ROOT / "evals" / "samples13"  # a thirteenth (session 18, two writers), written when the twelfth was to be read
SAMPLE_QUESTIONS14 = ROOT / "evals" / "samples14"  # a fourteenth (session 19, two writers), written when the thirteenth was to be read
SAMPLE_QUESTIONS15 = ROOT / "evals" / "samples15"  # a fifteenth (session 20, two writers), written when the fourteenth was to be read
SAMPLE_QUESTIONS16 = ROOT / "evals" / "samples16"  # a sixteenth (session 21, two writers), written when the fifteenth was to be read
SAMPLE_QUESTIONS17 = ROOT / "evals" / "samples17"  # a seventeenth (sessions 22 and 23, three writers), read in session 24
SAMPLE_QUESTIONS18 = ROOT / "evals" / "samples18"  # an eighteenth (session 24, writers per chapter), read in session 25
SAMPLE_QUESTIONS19 = ROOT / "evals" / "samples19"  # a nineteenth (session 25, writers per chapter), read in session 26
SAMPLE_QUESTIONS20 = ROOT / "evals" / "samples20"  # a twentieth (session 26, writers per chapter), read in session 27
SAMPLE_QUESTIONS21 = ROOT / "evals" / "samples21"  # a twenty-first (session 27, writers per chapter), read in session 28
SAMPLE_QUESTIONS22 = ROOT / "evals" / "samples22"  # a twenty-second (session 28, writers per chapter), read in session 29
SAMPLE_QUESTIONS23 = ROOT / "evals" / "samples23"  # a twenty-third (session 29, writers per chapter), read in session 30
SAMPLE_QUESTIONS24 = ROOT / "evals" / "samples24"  # a twenty-fourth (session 30, writers per chapter), read in session 31
SAMPLE_QUESTIONS25 = ROOT / "evals" / "samples25"  # a twenty-fifth (session 31, writers per chapter), read in session 32
SAMPLE_QUESTIONS26 = ROOT / "evals" / "samples26"  # a twenty-sixth (session 32, writers per chapter), read in session 33
SAMPLE_QUESTIONS27 = ROOT / "evals" / "samples27"  # a twenty-seventh (session 33, writers per chapter), read in session 34
SAMPLE_QUESTIONS28 = ROOT / "evals" / "samples28"  # a twenty-eighth (session 34, writers per chapter), read in session 35
SAMPLE_QUESTIONS29 = ROOT / "evals" / "samples29"  # a twenty-ninth (session 35, writers per chapter), read in session 36
SAMPLE_QUESTIONS30 = ROOT / "evals" / "samples30"  # a thirtieth (session 36, writers per chapter), read in session 37
SAMPLE_QUESTIONS31 = ROOT / "evals" / "samples31"  # a thirty-first (session 37, writers per chapter), read in session 38
SAMPLE_QUESTIONS32 = ROOT / "evals" / "samples32"  # a thirty-second (session 38, writers per chapter), read in session 39
SAMPLE_QUESTIONS33 = ROOT / "evals" / "samples33"  # a thirty-third (session 39, writers per chapter), read in session 40
SAMPLE_QUESTIONS34 = ROOT / "evals" / "samples34"  # a thirty-fourth (session 40, writers per chapter), read in session 41
SAMPLE_QUESTIONS35 = ROOT / "evals" / "samples35"  # a thirty-fifth (session 41, writers per chapter), read in session 42
SAMPLE_QUESTIONS36 = ROOT / "evals" / "samples36"  # a thirty-sixth (session 42, writers per chapter), read in session 43
SAMPLE_QUESTIONS37 = ROOT / "evals" / "samples37"  # a thirty-seventh (session 43, writers per chapter), unread
SAMPLE_SETS = (("samples", SAMPLE_QUESTIONS), ("samples2", SAMPLE_QUESTIONS2), ("samples3", SAMPLE_QUESTIONS3),
               ("samples4", SAMPLE_QUESTIONS4), ("samples5", SAMPLE_QUESTIONS5),
               ("samples6", SAMPLE_QUESTIONS6), ("samples7", SAMPLE_QUESTIONS7),
               ("samples8", SAMPLE_QUESTIONS8), ("samples9", SAMPLE_QUESTIONS9), ("samples9b", SAMPLE_QUESTIONS9B),
               ("samples10", SAMPLE_QUESTIONS10), ("samples11", SAMPLE_QUESTIONS11), ("samples12", SAMPLE_QUESTIONS12),
               ("samples13", SAMPLE_QUESTIONS13), ("samples14", SAMPLE_QUESTIONS14), ("samples15", SAMPLE_QUESTIONS15),
               ("samples16", SAMPLE_QUESTIONS16), ("samples17", SAMPLE_QUESTIONS17), ("samples18", SAMPLE_QUESTIONS18),
               ("samples19", SAMPLE_QUESTIONS19), ("samples20", SAMPLE_QUESTIONS20),
               ("samples21", SAMPLE_QUESTIONS21), ("samples22", SAMPLE_QUESTIONS22), ("samples23", SAMPLE_QUESTIONS23),
               ("samples24", SAMPLE_QUESTIONS24), ("samples25", SAMPLE_QUESTIONS25),
               ("samples26", SAMPLE_QUESTIONS26), ("samples27", SAMPLE_QUESTIONS27),
               ("samples28", SAMPLE_QUESTIONS28), ("samples29", SAMPLE_QUESTIONS29),
               ("samples30", SAMPLE_QUESTIONS30), ("samples31", SAMPLE_QUESTIONS31),
               ("samples32", SAMPLE_QUESTIONS32), ("samples33", SAMPLE_QUESTIONS33),
               ("samples34", SAMPLE_QUESTIONS34), ("samples35", SAMPLE_QUESTIONS35),
               ("samples36", SAMPLE_QUESTIONS36), ("samples37", SAMPLE_QUESTIONS37))
# what each later sample set has seen (the report prints it beside its figures)
SAMPLE_NOTES = {
    "samples2": "Written on 2026-12-01 (session 6) from the texts and the schema alone when the first set's failures "
    "were to be read; first score on commit 087aa86: accuracy Boston 0.789, Chagrin Falls 0.737, Crawfordville "
    "0.789, Somerville 0.737, Williams 0.737.",
    "samples3": "Written on 2026-12-02 (session 7) the same way, before the second set's failures were read; its "
    "first score is in evals/README.md. Its failures were read in session 8, after samples4 was written.",
    "samples4": "Written on 2026-12-02 (session 8) the same way (16 items, 18 turns per chapter), before the third "
    "set's failures were read; its first score is in evals/README.md. Its failures were read in session 9, after "
    "samples5 was written and first scored.",
    "samples5": "Written on 2026-12-02 (session 9) the same way (16 items, 18 turns per chapter), before the fourth "
    "set's failures were read; its first score is in evals/README.md. Its failures were read in session 10, after "
    "samples6 was written and first scored.",
    "samples6": "Written on 2026-12-02 (session 10) the same way (16 items, 18 turns per chapter), before the fifth "
    "set's failures were read; its first score is in evals/README.md. Its failures were read in session 11, after "
    "samples7 was written.",
    "samples7": "Written on 2026-12-02 (session 11) the same way (16 items, 18 turns per chapter), before the sixth "
    "set's failures were read; its first score is in evals/README.md. Its failures were read in session 12, after "
    "samples8 was written and first scored.",
    "samples8": "Written on 2026-12-02 (session 12) the same way (16 items, 18 turns per chapter; 'today' December 3, "
    "2026), before the seventh set's failures were read; its first score is in evals/README.md. Its failures were read "
    "in session 13, after samples9 was written and first scored.",
    "samples9": "Written on 2026-12-03 (session 13) the same way (16 items, 18 turns per chapter; 'today' December 4, "
    "2026), before the eighth set's failures were read; its first score is in evals/README.md. Its failures were read "
    "in session 14, after samples10 was written and first scored.",
    "samples9b": "Written on 2026-12-03 (session 13) the same way by a second writer, for Boston, Chagrin Falls and "
    "Crawfordville only (12 items, 14 turns per chapter; 'today' December 4, 2026; ids renamed s9b- so as not to meet "
    "samples9's); first score on 365d242 in evals/README.md. Its failures were read in session 14, after samples10 "
    "was written and first scored.",
    "samples10": "Written on 2026-12-03 (session 14) the same way by two writers (Boston, Chagrin Falls, Crawfordville / "
    "Somerville, Williams; 16 items, 18 turns per chapter; 'today' Saturday, December 5, 2026), before samples9's "
    "failures were read; first score on 200ec7d in evals/README.md. Its failures were read in session 16, after "
    "samples11 was written and first scored.",
    "samples11": "Written on 2026-12-04 (session 16) the same way by two writers (Boston, Chagrin Falls, Crawfordville / "
    "Somerville, Williams; 16 items, 18 turns per chapter; 'today' Wednesday, December 9, 2026), before samples10's "
    "failures were read; first score in evals/README.md. Its failures were read in session 17, after samples12 was "
    "written.",
    "samples12": "Written on 2026-12-04 (session 17) the same way by two writers (Boston, Chagrin Falls, Crawfordville / "
    "Somerville, Williams; 16 items, 18 turns per chapter; 'today' Monday, December 14, 2026), commissioned before "
    "samples11's failures were read (the writers saw only the texts); first score on 35fcda9, the code before any change "
    "of session 17, in evals/README.md. Its failures were read in session 18, after samples13 was commissioned.",
    "samples13": "Written on 2026-12-04 (session 18) the same way by two writers (Boston, Chagrin Falls, Crawfordville / "
    "Somerville, Williams; 16 items, 18 turns per chapter; 'today' Wednesday, March 3, 2027), commissioned before "
    "samples12's failures were read (the writers saw only the texts); first score on 10654ce, the code before any change "
    "of session 18, in evals/README.md. Its failures were read in session 19, after samples14 was commissioned.",
    "samples14": "Written on 2026-12-04 (session 19) the same way by two writers (Boston, Chagrin Falls, Crawfordville / "
    "Somerville, Williams; 16 items, 18 turns per chapter; 'today' Monday, August 9, 2027), commissioned before "
    "samples13's failures were read (the writers saw only the texts); first score on f636de8, the code before any change "
    "of session 19, in evals/README.md. Its failures were read in session 20, after samples15 was commissioned.",
    "samples15": "Written on 2026-12-04 (session 20) the same way by two writers (Boston, Chagrin Falls, Crawfordville / "
    "Somerville, Williams; 16 items, 18 turns per chapter; 'today' Thursday, March 9, 2028), commissioned before "
    "samples14's failures were read (the writers saw only the texts); first score on 4ca4692 (code 0488a2e), the code "
    "before any change of session 20, in evals/README.md. Its failures were read in session 21, after samples16 was "
    "commissioned.",
    "samples16": "Written on 2026-12-04 (session 21) the same way by two writers (Boston, Chagrin Falls, Crawfordville / "
    "Somerville, Williams; 16 items, 17 turns per chapter; 'today' Wednesday, July 19, 2028), commissioned before "
    "samples15's failures were read (the writers saw only the texts); first score on 400a5b7, the code before any change "
    "of session 21, in evals/README.md. Its failures were read in session 22.",
    "samples17": "Written on 2026-12-05 the same way: Boston, Chagrin Falls and Crawfordville by one writer in session 22 "
    "(16 items, 17 turns per chapter), Somerville and Williams by one writer each in session 23 (16 items, 18 turns; "
    "'today' Wednesday, October 10, 2029 for all five); first scores in evals/README.md (session 23), on 8d011c3 and "
    "e9fbabe for the first three, on e9fbabe for the last two. Its failures were read in session 24, after samples18 "
    "was commissioned.",
    "samples18": "Written on 2026-12-05 (session 24) the same way, commissioned before samples17's failures were read: "
    "Boston and Chagrin Falls by one writer, Somerville, Williams and Crawfordville by one writer each (16 items, 18 "
    "turns per chapter; 'today' Wednesday, May 12, 2027); first scores on b12ad99, the code before any change of "
    "session 24, in evals/README.md. Its failures (Boston, Chagrin Falls, Somerville, Williams) were read in session 25, "
    "after samples19 was commissioned; Crawfordville, first scored in session 25 on 852248f (9/18), was not read.",
    "samples19": "Written on 2026-12-05 (session 25) the same way, commissioned before samples18's failures were read: "
    "Boston and Chagrin Falls by one writer, Somerville, Williams and Crawfordville by one writer each (16 items, 18 "
    "turns per chapter; 'today' Wednesday, September 27, 2028); first score on 852248f, the code before any change of "
    "session 25, in evals/README.md. Its failures were read in session 26, after samples20 was commissioned.",
    "samples20": "Written on 2026-12-05 (session 26) the same way, commissioned before samples19's failures were read: "
    "Boston and Chagrin Falls by one writer, Somerville, Williams and Crawfordville by one writer each (16 items, 18 "
    "turns per chapter; 'today' Wednesday, January 10, 2029); first score on cae0707, the code before any change of "
    "session 26, in evals/README.md. Its failures were read in session 27, after samples21 was commissioned.",
    "samples21": "Written on 2026-12-05 (session 27) the same way, commissioned before samples20's failures were read: "
    "Boston and Chagrin Falls by one writer, Somerville, Williams and Crawfordville by one writer each (16 items, 18 "
    "turns per chapter; 'today' Wednesday, April 21, 2027); first score on cf02b2e, the code before any change of "
    "session 27, in evals/README.md. Its failures were read in session 28, after samples22 was commissioned.",
    "samples22": "Written on 2026-12-06 (session 28) the same way, commissioned before samples21's failures were read: "
    "Boston and Chagrin Falls by one writer, Somerville, Williams and Crawfordville by one writer each (16 items, 18 "
    "turns per chapter; 'today' Wednesday, August 15, 2029); first score on 6eca5b8, the code before any change of "
    "session 28, in evals/README.md. Its failures were read in session 29, after samples23 was commissioned.",
    "samples23": "Written on 2026-12-06 (session 29) the same way, commissioned before samples22's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Wednesday, November 8, 2028); first score on ac939e1, the code before any change of "
    "session 29, in evals/README.md. Its failures were read in session 30, after samples24 was commissioned.",
    "samples24": "Written on 2026-12-06 (session 30) the same way, commissioned before samples23's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Wednesday, May 16, 2029); first score on dc90e10, the code before any change of "
    "session 30, in evals/README.md. Its failures were read in session 31, after samples25 was commissioned.",
    "samples25": "Written on 2026-12-06 (session 31) the same way, commissioned before samples24's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Tuesday, February 29, 2028); first score on 7997fd0, the code before any change of "
    "session 31, in evals/README.md. Its failures were read in session 32, after samples26 was commissioned.",
    "samples26": "Written on 2026-12-06 (session 32) the same way, commissioned before samples25's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Tuesday, August 14, 2029); first score on 240996e, the code before any change of "
    "session 32, in evals/README.md. Its failures were read in session 33, after samples27 was commissioned.",
    "samples27": "Written on 2026-12-06 (session 33) the same way, commissioned before samples26's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Thursday, September 23, 2027; each state's own counting of time); first score on "
    "cddb19d, the code before any change of session 33, in evals/README.md. Its failures were read in session 34, after "
    "samples28 was commissioned.",
    "samples28": "Written on 2026-12-06 (session 34) the same way, commissioned before samples27's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Thursday, December 20, 2029; each state's own counting of time); first score on "
    "5a9c774, the code before any change of session 34, in evals/README.md. Its failures were read in session 35, after "
    "samples29 was commissioned.",
    "samples29": "Written on 2026-12-06 (session 35) the same way, commissioned before samples28's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Wednesday, May 22, 2030; each state's own counting of time); first score on "
    "bedca36, the code before any change of session 35, in evals/README.md. Its failures were read in session 36, after "
    "samples30 was commissioned.",
    "samples30": "Written on 2026-12-07 (session 36) the same way, commissioned before samples29's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Wednesday, November 20, 2030; each state's own counting of time); first score on "
    "7f7e1e0, the code before any change of session 36, in evals/README.md. Its failures were read in session 37, after "
    "samples31 was commissioned.",
    "samples31": "Written on 2026-12-07 (session 37) the same way, commissioned before samples30's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Wednesday, February 26, 2031; each state's own counting of time); first score on "
    "dee4e86, the code before any change of session 37, in evals/README.md. Its failures were read in session 38, after "
    "samples32 was commissioned.",
    "samples32": "Written on 2026-12-07 (session 38) the same way, commissioned before samples31's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Wednesday, June 20, 2029; each state's own counting of time); first score on the "
    "commit that added it, the code before any change of session 38, in evals/README.md. Its failures were read in "
    "session 39, after samples33 was commissioned.",
    "samples33": "Written on 2026-12-07 (session 39) the same way, commissioned before samples32's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Monday, August 5, 2030; each state's own counting of time); first score on the "
    "commit that added it, the code before any change of session 39, in evals/README.md. Its failures were read in "
    "session 40, after samples34 was commissioned.",
    "samples34": "Written on 2026-12-07 (session 40) the same way, commissioned before samples33's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Tuesday, July 6, 2027; each state's own counting of time); first score on the "
    "commit that added it, the code before any change of session 40, in evals/README.md. Its failures were read in "
    "session 41, after samples35 was commissioned.",
    "samples35": "Written on 2026-12-07 (session 41) the same way, commissioned before samples34's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Tuesday, September 18, 2029; each state's own counting of time); first score on the "
    "commit that added it, the code before any change of session 41, in evals/README.md. Its failures were read in "
    "session 42, after samples36 was commissioned.",
    "samples36": "Written on 2026-12-07 (session 42) the same way, commissioned before samples35's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Monday, December 4, 2028; each state's own counting of time); first score on the "
    "commit that added it, the code before any change of session 42, in evals/README.md. Its failures were read in "
    "session 43, after samples37 was commissioned.",
    "samples37": "Written on 2026-12-07 (session 43) the same way, commissioned before samples36's failures were read: "
    "Boston, Somerville and Chagrin Falls by one writer each, Crawfordville and Williams by one writer (16 items, 18 "
    "turns per chapter; 'today' Monday, February 25, 2030; each state's own counting of time); first score on the "
    "commit that added it, the code before any change of session 43, in evals/README.md. Its failures have not been "
    "read.",
}
SAMPLE_TEXTS = ROOT.parent / "shared" / "corpus-samples"


def load_sample_questions(folder: Path = SAMPLE_QUESTIONS) -> list[dict]:
    items: list[dict] = []
    for f in sorted(Path(folder).glob("*.yaml")):
        items += (yaml.safe_load(f.read_text(encoding="utf-8")) or {}).get("questions") or []
    return items


@contextmanager
def samples_env(texts: Path = SAMPLE_TEXTS) -> Iterator[tuple[Path, dict[str, str]]]:
    """A scratch corpus: corpus/ plus the five sample chapters, added with `municipality add`
    (scripts/build_samples_corpus.py) and indexed, in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="evals-samples-") as tmp:
        corpus, data = Path(tmp) / "corpus", Path(tmp) / "data"
        env = {**os.environ, "ASSISTANT_CORPUS_DIR": str(corpus), "ASSISTANT_DATA_DIR": str(data),
               "HF_HUB_OFFLINE": "1"}
        done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_samples_corpus.py"), str(corpus),
                               "--samples", str(texts), "--index"], env=env, capture_output=True, text=True,
                              cwd=ROOT, timeout=1800)
        if done.returncode != 0:
            raise RuntimeError("could not build the samples corpus: " + (done.stderr.strip().splitlines() or ["?"])[-1])
        yield corpus, {"ASSISTANT_CORPUS_DIR": str(corpus), "ASSISTANT_DATA_DIR": str(data)}


def evaluate_samples(progress: Callable[[str], None] = lambda m: None, today: str | None = None) -> dict:
    """The sample chapters' questions (written from their texts alone), answered by a JSONL
    subprocess on the corpus with the samples added, scored per municipality. Not gated.
    Relative dates count from ``today`` (default: the day the sample sets were written)."""
    sets = {name: load_sample_questions(folder) for name, folder in
            SAMPLE_SETS if folder.is_dir()}
    items = [it for qs in sets.values() for it in qs]
    progress(f"sample chapters: building their corpus, then {len(items)} questions")
    with samples_env() as (corpus, env):
        records = []
        days = {name: today or SAMPLES_TODAY.get(name, SAMPLES_WRITTEN_ON) for name in sets}
        for day in sorted(set(days.values())):  # one answering process per "today" the sets were written with
            batch = [it for name, qs in sets.items() if days[name] == day for it in qs]
            with JsonlAssistant(env={**env, "ASSISTANT_TODAY": day}) as ask:
                records += run_items(batch, warmed(ask), progress)
        checker = QuoteChecker([corpus])
        progress("sample chapters: search recall@5")
        recall = sample_recall(env)
    scores = score_records(records, checker)
    outs = {}
    for name, qs in sets.items():
        ids = {it["id"] for it in qs}
        mine = [sc for sc in scores if sc.id.split("/")[0] in ids]  # a conversation's turns are "id/1", "id/2"
        out = rounded(summarise_all(mine))
        if name == "samples":  # search recall@5 is measured on the first set's questions
            for m, row in (out.get("by_municipality") or {}).items():
                row["recall_at_5"] = (recall.get(m) or {}).get("recall_at_5")
            out["recall"] = recall
        out["questions"] = len(qs)
        out["failed"] = [sc.id for sc in mine if not sc.correct]
        outs[name] = out
    first = outs.pop("samples", {})
    first["_scores"], first["_records"] = scores, records  # every answer of both sets (samples_turns.jsonl)
    if outs:
        first["more_sets"] = outs  # "samples2", "samples3": the later sets, each per municipality
    return first


def sample_recall(env: dict[str, str]) -> dict:
    """Search recall@5 per sample municipality (evals/sample_recall.py, on the samples corpus)."""
    done = subprocess.run([sys.executable, "-m", "evals.sample_recall"], env={**os.environ, "HF_HUB_OFFLINE": "1", **env},
                          capture_output=True, text=True, cwd=ROOT, timeout=1800)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def answer_all(items: Sequence[dict], main_ask: Ask | None = None,
               progress: Callable[[str], None] = lambda m: None) -> tuple[list[dict], QuoteChecker]:
    """Answer every item: the ordinary ones through ``main_ask`` (default: a JSONL
    subprocess), the scratch-corpus ones through a JSONL subprocess on the scratch
    corpus. Returns the records and a quote checker covering both corpora."""
    ordinary = [it for it in items if not needs_scratch_corpus(it)]
    scratch = [it for it in items if needs_scratch_corpus(it)]
    records: list[dict] = []
    if ordinary:
        if main_ask is None:
            progress(f"asking {len(ordinary)} questions through `python -m assistant ask --jsonl`")
            with JsonlAssistant() as ask:
                records += run_items(ordinary, warmed(ask), progress)
        else:
            progress(f"asking {len(ordinary)} questions in process")
            records += run_items(ordinary, warmed(main_ask), progress)
    with scratch_env() as (corpus, env):
        if scratch:
            progress(f"asking {len(scratch)} questions on the scratch corpus (JSONL subprocess)")
            with JsonlAssistant(env=env) as ask:
                records += run_items(scratch, warmed(ask), progress)
        checker = QuoteChecker([CORPUS, corpus])
    order = {it["id"]: i for i, it in enumerate(items)}
    records.sort(key=lambda r: (order[r["turn"]["item_id"]], r["turn"]["turn"]))
    return records, checker


def score_records(records: Sequence[dict], checker: Callable[[dict], bool]) -> list[TurnScore]:
    return [score_turn(r["turn"], r["answer"], checker, r["latency_ms"]) for r in records]


def run_baselines(items: Sequence[dict], checker: Callable[[dict], bool],
                  progress: Callable[[str], None] = lambda m: None) -> dict[str, dict]:
    """Both baselines on the ordinary items (the scratch municipality is not in their
    index). Returns {name: {"scores": [...], "figures": {...}}}."""
    from assistant.retrieval.embeddings import get_embedder
    from assistant.retrieval.index import SearchIndex
    from evals.baselines import BM25Baseline, NaiveLangChainRAG

    ordinary = [it for it in items if not needs_scratch_corpus(it)]
    embedder = get_embedder()
    out = {}
    progress("baseline: BM25 alone")
    bm25 = BM25Baseline(SearchIndex.open(embedder=embedder))
    out["bm25"] = run_items(ordinary, bm25.answer)
    progress("baseline: naive LangChain RAG")
    naive = NaiveLangChainRAG.build(embedder=embedder)
    naive.answer({"question": "warm up", "municipality": None})

    def naive_ask(request: dict) -> dict:
        embedder._cache.clear()  # pay for the query embedding, like a fresh question
        return naive.answer(request)

    out["langchain_naive"] = run_items(ordinary, naive_ask)
    return {name: {"scores": score_records(recs, checker)} for name, recs in out.items()}


def evaluate(items: Sequence[dict], main_ask: Ask | None = None, baselines: bool = True,
             thresholds: dict | None = None, progress: Callable[[str], None] = lambda m: None,
             targets: dict | None = None) -> dict:
    """Answer, score and summarise. Returns the figures (latest.json) with the per-turn
    scores under ``_scores`` and the baselines' under ``_baseline_scores``."""
    records, checker = answer_all(items, main_ask, progress)
    scores = score_records(records, checker)
    figures: dict[str, Any] = {
        "generated_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "questions": len(items),
        "backend": next((r["answer"].get("backend") for r in records if r["answer"].get("backend")), None),
        **summarise_all(scores),
        "citation_precision_loss": precision_loss(scores),
    }
    figures["baselines"] = {}
    baseline_scores = {}
    if baselines:
        for name, res in run_baselines(items, checker, progress).items():
            figures["baselines"][name] = summarise_all(res["scores"], BASELINE_METRICS[name])
            baseline_scores[name] = res["scores"]
    if thresholds is not None:
        failures = check_thresholds(figures, thresholds)
        figures["thresholds"] = thresholds
        figures["gate"] = {"passed": not failures, "failures": failures}
    if targets is not None:
        missed = check_thresholds(figures, targets)
        figures["targets"] = targets
        figures["target"] = {"met": not missed, "missed": missed}
    figures["_scores"] = scores
    figures["_baseline_scores"] = baseline_scores
    figures["_records"] = records
    return figures


def evaluate_heldout(items: Sequence[dict], main_ask: Ask | None = None, baselines: bool = True,
                     progress: Callable[[str], None] = lambda m: None) -> dict:
    """The held-out questions (written after the tuning, never tuned on): the same figures,
    reported beside the main ones and never gated."""
    progress(f"held-out set: {len(items)} questions")
    held = evaluate(items, main_ask, baselines, progress=progress)
    out = {k: v for k, v in held.items() if k not in ("generated_at", "backend") and not k.startswith("_")}
    out["failed"] = [s.id for s in held["_scores"] if not s.correct]
    return out


def public_figures(figures: dict) -> dict:
    """The figures without the private per-turn data, plus the failed turns' ids."""
    out = rounded({k: v for k, v in figures.items() if not k.startswith("_")})
    if isinstance(out.get("samples"), dict):
        out["samples"] = {k: v for k, v in out["samples"].items() if not k.startswith("_")}
    out["failed"] = [s.id for s in figures.get("_scores", []) if not s.correct]
    out["invented"] = {s.id: s.invented for s in figures.get("_scores", []) if s.invented}
    return out


def write_outputs(figures: dict, out_dir: Path) -> list[Path]:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    latest = out_dir / "latest.json"
    latest.write_text(json.dumps(public_figures(figures), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    written = [latest]
    sam = figures.get("samples") or {}
    for name, scores, records in (("turns.jsonl", figures.get("_scores"), figures.get("_records")),
                                  ("samples_turns.jsonl", sam.get("_scores"), sam.get("_records"))):
        if scores is None:
            continue
        (out_dir / name).write_text(
            "".join(json.dumps({**asdict(s), "answer": r["answer"]}, ensure_ascii=False) + "\n"
                    for s, r in zip(scores, records)),
            encoding="utf-8",
        )
        written.append(out_dir / name)
    return [*written, *write_report(figures, out_dir)]


# -- the report ----------------------------------------------------------------------------
HEADLINE = ("answer_accuracy", "citation_precision", "citation_recall", "quote_faithfulness",
            "numeric_exactness", "status_accuracy")
SYSTEM_NAMES = {"assistant": "assistant", "bm25": "BM25 alone", "langchain_naive": "naive LangChain RAG"}


def _systems(figures: dict) -> dict[str, dict]:
    return {"assistant": figures, **figures.get("baselines", {})}


def write_charts(figures: dict, out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    systems = _systems(figures)
    paths = []

    def grouped(ax, groups: list[str], series: dict[str, list[float | None]], ylabel: str, ymax: float | None = 1.05):
        n = max(1, len(series))
        width = 0.8 / n
        for i, (name, vals) in enumerate(series.items()):
            xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
            ax.bar(xs, [v if v is not None else 0 for v in vals], width, label=SYSTEM_NAMES.get(name, name))
            for x, v in zip(xs, vals):
                if v is None:
                    ax.text(x, 0.01, "n/a", ha="center", va="bottom", fontsize=6, rotation=90)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel(ylabel)
        if ymax:
            ax.set_ylim(0, ymax)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)

    fig, ax = plt.subplots(figsize=(9, 4.5))
    grouped(ax, list(HEADLINE), {k: [v.get(m) for m in HEADLINE] for k, v in systems.items()}, "share")
    ax.set_title("Headline figures: assistant and baselines on the same questions")
    fig.tight_layout()
    paths.append(out_dir / "headline.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    kinds = list(figures.get("by_kind", {}))
    fig, ax = plt.subplots(figsize=(9, 4.5))
    grouped(ax, kinds, {k: [v.get("by_kind", {}).get(kind, {}).get("answer_accuracy") for kind in kinds]
                        for k, v in systems.items()}, "answer accuracy")
    ax.set_title("Answer accuracy by kind of question")
    fig.tight_layout()
    paths.append(out_dir / "accuracy_by_kind.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    munis = list(figures.get("by_municipality", {}))
    fig, ax = plt.subplots(figsize=(7, 4))
    grouped(ax, munis, {k: [v.get("by_municipality", {}).get(m, {}).get("answer_accuracy") for m in munis]
                        for k, v in systems.items()}, "answer accuracy")
    ax.set_title("Answer accuracy by municipality")
    fig.tight_layout()
    paths.append(out_dir / "accuracy_by_municipality.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(9, 4.5))
    bk = figures.get("by_kind", {})
    grouped(ax, kinds, {"p50 ms": [bk[k].get("p50_ms") for k in kinds], "p95 ms": [bk[k].get("p95_ms") for k in kinds]},
            "milliseconds", ymax=None)
    ax.set_title("Assistant answer latency by kind (warm)")
    fig.tight_layout()
    paths.append(out_dir / "latency_by_kind.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def _cell(v: Any) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.1%}" if v <= 1.0 else f"{v:,.0f}"
    return str(v)


def _ms(v: Any) -> str:
    return "n/a" if v is None else f"{v:,.1f}" if v < 10 else f"{v:,.0f}"


def _metric_table(rows: dict[str, dict], first: str) -> list[str]:
    head = f"| {first} | turns | answer acc. | cit. precision | cit. recall | quotes faithful | numeric exact | status acc. | invented numbers | p50 ms | p95 ms |"
    lines = [head, "|" + "---|" * 11]
    for name, f in rows.items():
        lines.append(
            f"| {name} | {f.get('turns', '')} | {_cell(f.get('answer_accuracy'))} | {_cell(f.get('citation_precision'))} | "
            f"{_cell(f.get('citation_recall'))} | {_cell(f.get('quote_faithfulness'))} | {_cell(f.get('numeric_exactness'))} | "
            f"{_cell(f.get('status_accuracy'))} | {_cell(f.get('invented_numbers'))} | {_ms(f.get('p50_ms'))} | {_ms(f.get('p95_ms'))} |"
        )
    return lines


def render_report(figures: dict, charts: Sequence[Path] = ()) -> str:
    systems = _systems(figures)
    gate = figures.get("gate") or {}
    L = [
        "# Evaluation report",
        "",
        f"Generated {figures.get('generated_at')} by `python -m evals run` over {figures['questions']} known questions "
        f"({figures['turns']} turns, multi-turn conversations included) from `evals/questions.yaml`; "
        f"assistant backend: `{figures.get('backend')}`. Answers went through the `python -m assistant ask --jsonl` "
        "contract; the prompt-injection document questions (municipality `testville`) ran on a scratch corpus.",
        "",
    ]
    def bounds(rules: dict) -> str:
        return ", ".join(f"{k} {'≥' if 'min' in v else ('=' if v.get('max') == 0 else '≤')} {v.get('min', v.get('max'))}"
                         for k, v in rules.items())

    if gate:
        L += [f"**CI gate ({'passed' if gate['passed'] else 'FAILED'})** — the floor `evals/thresholds.yaml` enforces "
              f"now: {bounds(figures.get('thresholds') or {})}"
              + (". Failures: " + "; ".join(gate["failures"]) if gate["failures"] else "."), ""]
    target = figures.get("target")
    if target:
        L += [f"**Issue 6 targets ({'met' if target['met'] else 'NOT MET'})**: {bounds(figures.get('targets') or {})}"
              + (". Missed: " + "; ".join(target["missed"]) if target["missed"] else "."), ""]
    L += ["## Headline", "", "| metric | " + " | ".join(SYSTEM_NAMES.get(k, k) for k in systems) + " |",
          "|---|" + "---|" * len(systems)]
    for m in METRICS:
        fmt = _ms if m.endswith("_ms") else _cell
        L.append(f"| {m} | " + " | ".join(fmt(v.get(m)) for v in systems.values()) + " |")
    L.append("| *answer length, median characters* | "
             + " | ".join(_ms(v.get("answer_chars_p50")) for v in systems.values()) + " |")
    L += [
        "",
        "Baselines are scored on what they can be scored on (n/a otherwise): both always answer with status "
        "`answered`; BM25 alone answers with the top passage's text and its citation; the naive LangChain RAG "
        "(RecursiveCharacterTextSplitter 1000/200, the same MiniLM embeddings, in-memory Chroma, top 4 chunks) cites "
        "only the municipality, so its citation and quote figures are n/a. Baselines run on the ordinary questions "
        "(not the scratch-corpus ones). Their `invented_numbers` is 0 by construction: they return the code's text; "
        "and their answers are whole passages or chunks, so a required fact is easier to find in them (see the "
        "answer length) — they have no way to say a figure is not in the code, ask which municipality, or refuse.",
        "",
        "Published anchors: commercial legal AI tools answer 42–65% of queries correctly and hallucinate in "
        "17–33% (Stanford RegLab/HAI 2024); a municipal RAG project reports 86.7% correct answer type.",
        "",
    ]
    for c in charts:
        L += [f"![{c.stem}]({c.name})", ""]
    loss = figures.get("citation_precision_loss")
    if loss and loss.get("answers_citing"):
        L += ["## Where citation precision is lost", "",
              f"Points of citation precision lost, over the {loss['answers_citing']} answers that cite something "
              "(they add up to 1 − precision):", "",
              "| cause | points | answers |", "|---|---|---|"]
        for part, what in (("wrong_provision", "a lookup quoting only unexpected provisions"),
                           ("extra_citations", "a lookup quoting an expected provision and others beside it"),
                           ("calculator", "a calculator citing provisions beyond the expected ones")):
            row = loss.get(part) or {}
            ids = ", ".join(f"`{i}`" for i in row.get("answers", [])) or "—"
            L.append(f"| {what} | {row.get('points', 0.0):.3f} | {ids} |")
        L.append("")
    sam = figures.get("samples") or {}
    if sam:
        L += ["## Sample chapters of other municipalities (`evals/samples/`)", "",
              "Five real chapters in five publisher layouts, added with `municipality add` into a scratch corpus "
              "(no code change between them); questions written from their texts alone by a helper session. "
              "Not gated.", ""]
        if sam.get("error"):
            L += [f"Not scored: {sam['error']}", ""]
        else:
            L += [*_metric_table(sam.get("by_municipality", {}), "municipality"), ""]
            rec = sam.get("recall") or {}
            if rec.get("error"):
                L += [f"Search recall@5 not measured: {rec['error']}", ""]
            elif rec:
                L += ["Search recall@5 (a hit: one of the top 5 passages lies in a cited section):", "",
                      "| municipality | queries | recall@5 | missed |", "|---|---|---|---|"]
                L += [f"| {m} | {r['queries']} | {_cell(r['recall_at_5'])} | "
                      + (", ".join(f"`{i}`" for i in r["missed"]) or "—") + " |" for m, r in rec.items()]
                L.append("")
            L += ["Failed: " + (", ".join(f"`{i}`" for i in sam.get("failed", [])) or "none"), ""]
            for name, more in (sam.get("more_sets") or {}).items():
                L += [f"### Sample questions `evals/{name}/`", "", SAMPLE_NOTES.get(name, ""), "",
                      *_metric_table(more.get("by_municipality", {}), "municipality"), ""]
    for name, held in (figures.get("heldout") or {}).items():
        L += [f"## Held-out questions: `evals/{name}.yaml`", "",
              f"{held['questions']} questions ({held['turns']} turns), "
              + HELDOUT_NOTES.get(name, "written after the tuning.") + " Not gated.", "",
              *_metric_table({SYSTEM_NAMES.get(k, k): v for k, v in {"assistant": held, **held.get("baselines", {})}.items()},
                             "system"), "",
              *_metric_table(held.get("by_kind", {}), "kind"), "",
              "Failed: " + (", ".join(f"`{i}`" for i in held.get("failed", [])) or "none"), ""]
    L += ["## Assistant by kind of question", "", *_metric_table(figures.get("by_kind", {}), "kind"), "",
          "## Assistant by municipality", "", *_metric_table(figures.get("by_municipality", {}), "municipality"), ""]
    for name, b in figures.get("baselines", {}).items():
        L += [f"## Baseline: {SYSTEM_NAMES.get(name, name)} by kind", "", *_metric_table(b.get("by_kind", {}), "kind"), ""]
    bad = [s for s in figures.get("_scores", []) if not s.correct or s.invented or s.unfaithful_quotes
           or s.unmatched_citations or s.missed_citations or s.values_ok is False or s.error]
    L += ["## Turns with a problem", "",
          f"{len(bad)} of {figures['turns']} turns (wrong answer, a citation not expected or missed, an unfaithful "
          "quote, a missing value or an invented number). Full answers: `turns.jsonl` beside this report.", ""]
    for s in bad:
        parts = []
        if not s.status_ok:
            parts.append(f"status {s.status_got} (expected {s.status_expected})")
        if s.missing:
            parts.append("missing " + "; ".join(f"“{m}”" for m in s.missing))
        if s.forbidden:
            parts.append("forbidden " + "; ".join(f"“{m}”" for m in s.forbidden))
        if s.invented:
            parts.append("INVENTED " + ", ".join(s.invented))
        if s.unfaithful_quotes:
            parts.append("UNFAITHFUL quote " + "; ".join(s.unfaithful_quotes))
        if s.missing_values:
            parts.append("values missing " + ", ".join(s.missing_values))
        if s.missed_citations:
            parts.append("citation missed " + ", ".join(s.missed_citations))
        if s.unmatched_citations:
            parts.append("cited unexpectedly " + ", ".join(s.unmatched_citations))
        if s.error:
            parts.append("error " + s.error)
        L.append(f"- `{s.id}` ({s.kind}): " + " · ".join(parts))
    return "\n".join(L) + "\n"


def write_report(figures: dict, out_dir: Path) -> list[Path]:
    charts = write_charts(figures, out_dir)
    report = out_dir / "report.md"
    report.write_text(render_report(figures, charts), encoding="utf-8")
    return [report, *charts]


# -- CLI ----------------------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--questions", type=Path, default=QUESTIONS)
    p.add_argument("--out", type=Path, default=REPORTS)
    p.add_argument("--baselines", action=argparse.BooleanOptionalAction, default=True,
                   help="also score BM25 alone and the naive LangChain RAG (default: yes)")
    p.add_argument("--heldout", type=Path, action="append",
                   help="held-out questions scored beside, not gated (repeatable; default: "
                        + ", ".join(s.name for s in HELDOUT_SETS) + "; '' to skip)")
    p.add_argument("--samples", action=argparse.BooleanOptionalAction, default=None,
                   help="also score the sample chapters' questions, per municipality (default: when "
                        "../shared/corpus-samples exists)")
    p.add_argument("--samples-only", action="store_true",
                   help="score only the sample chapters' questions (writes samples_latest.json and "
                        "samples_turns.jsonl under --out)")
    p.add_argument("--kind", action="append", help="only questions of this kind (repeatable)")
    p.add_argument("--in-process", action="store_true",
                   help="ask the ordinary questions in this process instead of the JSONL subprocess")
    p.add_argument("--json", action="store_true", help="print latest.json instead of the summary")
    p.add_argument("--today", default=None,
                   help="the day relative dates in the questions count from ('last Tuesday'), for every set; default: "
                        "the day each set was written (ASSISTANT_TODAY for its answering process)")


def run_samples_only(out_dir: Path, today: str | None = None) -> int:
    def progress(msg: str) -> None:
        print(f"[evals] {msg}", file=sys.stderr)

    figures = {"samples": evaluate_samples(progress, today)}
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    sam = figures["samples"]
    (out_dir / "samples_latest.json").write_text(
        json.dumps(public_figures(figures)["samples"], indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out_dir / "samples_turns.jsonl").write_text(
        "".join(json.dumps({**asdict(s), "answer": r["answer"]}, ensure_ascii=False) + "\n"
                for s, r in zip(sam["_scores"], sam["_records"])), encoding="utf-8")
    print_samples(sam)
    print(f"\nwrote {out_dir / 'samples_latest.json'}, {out_dir / 'samples_turns.jsonl'}")
    return 0


def run(args: argparse.Namespace) -> int:
    forced = getattr(args, "today", None)
    os.environ["ASSISTANT_TODAY"] = written_on(args.questions, forced)
    if args.samples_only:
        return run_samples_only(args.out, forced)
    items = load_questions(args.questions)
    if args.kind:
        items = [it for it in items if it.get("kind") in set(args.kind)]
    if not items:
        raise ValueError("no questions to ask")

    def progress(msg: str) -> None:
        print(f"[evals] {msg}", file=sys.stderr)

    main_ask = None
    if args.in_process:
        from assistant.answering.assistant import Assistant

        main_ask = in_process_ask(Assistant.load())
    figures = evaluate(items, main_ask, args.baselines, load_thresholds(), progress,
                       targets=load_thresholds(which="target"))
    sets = [p for p in (HELDOUT_SETS if args.heldout is None else args.heldout)
            if str(p) not in ("", ".") and Path(p).exists()]
    if sets and not args.kind:
        figures["heldout"] = {}
        for p in sets:  # each set's answering process counts relative dates from the day it was written
            os.environ["ASSISTANT_TODAY"] = written_on(p, forced)
            figures["heldout"][Path(p).stem] = evaluate_heldout(load_questions(p), main_ask, args.baselines, progress)
        os.environ["ASSISTANT_TODAY"] = written_on(args.questions, forced)
    want_samples = args.samples if args.samples is not None else (SAMPLE_TEXTS.is_dir() and not args.kind)
    if want_samples:
        try:
            figures["samples"] = evaluate_samples(progress, forced)
        except Exception as exc:  # the samples are reported, never allowed to sink the run
            figures["samples"] = {"error": str(exc)}
            progress(f"sample chapters not scored: {exc}")
    paths = write_outputs(figures, args.out)
    if args.json:
        print(json.dumps(public_figures(figures), indent=2, ensure_ascii=False))
    else:
        print_summary(figures)
        print("\nwrote " + ", ".join(str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in paths))
    gate = figures.get("gate") or {}
    if not gate.get("passed", True):
        print("below thresholds: " + "; ".join(gate["failures"]), file=sys.stderr)
        return 1
    return 0


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.3f}" if v <= 1.0 else f"{v:.0f}"
    return str(v)


def print_samples(sam: dict) -> None:
    if sam.get("error"):
        print(f"sample chapters: not scored ({sam['error']})")
    for m, row in (sam.get("by_municipality") or {}).items():
        print(f"sample {m} ({row['turns']} turns, not gated): "
              + ", ".join(f"{k} {_fmt(row.get(k))}" for k in ("answer_accuracy", "citation_precision",
                                                             "lead_citation_precision", "citation_recall",
                                                             "recall_at_5")))
    if (sam.get("recall") or {}).get("error"):
        print(f"sample recall@5 not measured: {sam['recall']['error']}")
    if sam.get("failed"):
        print("sample failures: " + ", ".join(sam["failed"]))
    for name, more in (sam.get("more_sets") or {}).items():
        for m, row in (more.get("by_municipality") or {}).items():
            print(f"{name} {m} ({row['turns']} turns, not gated): "
                  + ", ".join(f"{k} {_fmt(row.get(k))}" for k in ("answer_accuracy", "citation_precision",
                                                                 "lead_citation_precision", "citation_recall")))


def print_summary(figures: dict) -> None:
    cols = ["assistant", *figures.get("baselines", {})]
    rows = [figures, *figures.get("baselines", {}).values()]
    print(f"{figures['questions']} questions, {figures['turns']} turns · backend {figures.get('backend')}\n")
    print(f"{'metric':<20}" + "".join(f"{c:>18}" for c in cols))
    for m in METRICS:
        cells = [("—" if r.get(m) is None else f"{r[m]:.1f}") if m.endswith("_ms") else _fmt(r.get(m)) for r in rows]
        print(f"{m:<20}" + "".join(f"{c:>18}" for c in cells))
    gate = figures.get("gate")
    if gate:
        print("\ngate: " + ("passed" if gate["passed"] else "FAILED — " + "; ".join(gate["failures"])))
    loss = figures.get("citation_precision_loss")
    if loss and loss.get("answers_citing"):
        print("citation precision lost (points): "
              + ", ".join(f"{k.replace('_', ' ')} {loss[k]['points']:.3f} ({len(loss[k]['answers'])} answers)"
                          for k in ("wrong_provision", "extra_citations", "calculator")))
    for name, held in (figures.get("heldout") or {}).items():
        print(f"held-out {name} ({held['questions']} questions, not gated): "
              + ", ".join(f"{m} {_fmt(held.get(m))}" for m in ("answer_accuracy", "citation_precision",
                                                              "lead_citation_precision", "citation_recall",
                                                              "status_accuracy", "invented_numbers", "wrong_figures",
                                                              "right_or_ask")
                          if held.get(m) is not None))
    print_samples(figures.get("samples") or {})
    target = figures.get("target")
    if target:
        print("issue targets: " + ("met" if target["met"] else "not met — " + "; ".join(target["missed"])))
