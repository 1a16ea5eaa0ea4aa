"""A measurement the user gives, held against a limit the quoted sentence states (limits.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from assistant.answering import limits, phrasing
from assistant.answering.guards import invented_numbers
from assistant.answering.reading import read_slots

TRENCH = ("Except by special permission from the Director of Public Works, no trench shall be excavated more than "
          "250 feet in advance of pipe or conduit laying nor left unfilled more than 500 feet from where pipe or "
          "conduit has been laid.")
PATCH = "Concrete pavement shall be placed to the full depth of the existing pavement or seven inches, whichever is greater."
WALK = ("Sidewalks in front of commercial or industrial establishments shall be not less than eight feet in width "
        "and five inches in thickness.")


@pytest.mark.parametrize("sentence, expected", [
    (TRENCH, [("max", Decimal(250), "ft", "no trench shall be excavated more than 250 feet"),
              ("max", Decimal(500), "ft", "more than 500 feet")]),
    (PATCH, [("min", Decimal(7), "in", "seven inches, whichever is greater")]),
    # ("not less than eight feet in width and five inches in thickness": the comparator holds for both)
    (WALK, [("min", Decimal(8), "ft", "not less than eight feet"), ("min", Decimal(5), "in", "five inches")]),
    ("Numbers shall be placed no more than 25 feet from the edge of the road pavement.",
     [("max", Decimal(25), "ft", "no more than 25 feet")]),
    ("No driveway shall have a grade exceeding 12%.", [("max", Decimal(12), "%", "No driveway shall have a grade exceeding 12%")]),
    ("A driveway may be 24 feet wide.", []),  # a quantity with no comparator is no bound
    ("Any driveway more than 20 feet wide requires a permit.", []),  # "more than" outside a prohibition
])
def test_limits_are_read_with_their_comparator_words(sentence, expected):
    got = [(x.bound, x.value, x.unit, x.words) for x in limits.limits_in(sentence)]
    assert got == expected
    for *_, words in got:
        assert words in sentence  # verbatim


def _check(question: str, sentences: list[str]):
    return limits.check_against(question, read_slots(question), sentences)


def test_a_measurement_in_yards_is_held_against_a_limit_in_feet_of_the_same_aspect():
    checks = _check("The excavator is running about 90 yards ahead of where we're setting pipe. Are we OK?", [TRENCH])
    assert len(checks) == 1  # "ahead" is the length in advance, not the 500 feet left unfilled
    c = checks[0]
    assert (c.measured_value, c.limit_value, c.difference, c.passes) == (Decimal(270), Decimal(250), Decimal(20), False)
    text = phrasing.limit_check(checks)
    assert "270 feet (“90 yards”)" in text and "20 feet more than 250 feet" in text


def test_inches_against_feet_compare_in_inches_and_a_minimum_met_passes():
    c = _check("Our walk in front of the store is 100 inches wide, is that enough?", [WALK])[0]
    assert c.unit == "in" and c.limit_value == 96 and c.passes and c.difference == 4


def test_no_check_without_a_question_about_it_or_with_two_different_measurements():
    assert _check("The excavator is 90 yards ahead of the pipe.", [TRENCH]) == []
    assert _check("The trench is 90 yards ahead of the pipe, or 300 feet by the survey. Are we OK?", [TRENCH]) == []


def test_no_check_against_a_sentence_about_something_else():
    assert _check("My shed is 300 feet from the lake, is that too far?", [TRENCH]) == []


def test_every_figure_of_the_check_comes_from_its_call():
    checks = _check("The excavator is running about 90 yards ahead of the pipe laying. Are we OK?", [TRENCH])
    text = phrasing.limit_check(checks)
    calls = [limits.as_call(c) for c in checks]
    assert invented_numbers(text, [], [part for c in calls for part in (c["arguments"], c["result"])]) == []


def test_a_sentence_with_several_limits_of_the_kind_and_none_named_gets_no_check():
    backfill = ("When any excavation is made within 5' of the edge of the pavement, the excavation shall be backfilled "
                "to within 5\" of the surface with 1 1/2\" maximum crushed gravel.")
    assert _check("Our hole is 4'6\" deep. How much gravel goes in before we stop for the surface?", [backfill]) == []


def test_whichever_is_greater_takes_the_measurement_as_the_other_measure_too():
    """"The full depth of the existing pavement or seven inches, whichever is greater" and "the old
    slab is half a foot thick": the 6 inches may be the existing depth (then 7 inches are required)
    or the new slab (then it is 1 inch short); the answer gives both readings, each worked out."""
    (lim,) = limits.limits_in(PATCH)
    assert lim.either and not limits.limits_in(WALK)[0].either
    checks = _check("The old concrete slab is half a foot thick. How thick does the new one have to be?", [PATCH])
    assert checks and checks[0].required == Decimal(7)
    text = phrasing.limit_check(checks)
    assert "the requirement is **7 inches**" in text and "1 inch short of 7 inches" in text
    calls = [limits.as_call(c) for c in checks]
    assert invented_numbers(text, [], [part for c in calls for part in (c["arguments"], c["result"])]) == []
    assert _check("The old concrete is 9 inches thick. How thick does the new slab have to be?", [PATCH])[0].required == 9


def test_whichever_is_greater_with_the_measurement_named_as_the_other_measure():
    (c,) = _check("The existing slab measured six and one-half inches thick. How thick does the replacement have to "
                  "be?", [PATCH])
    assert c.of_the_other and c.required == 7
    text = phrasing.limit_check([c])
    assert "the requirement is **7 inches**" in text and "short" not in text


def test_a_codes_everyday_word_ties_no_measurement_to_a_limit():
    """'One slab of the walk has sunk about an inch': in a sidewalk chapter 'walk' is in every other passage,
    and a joint's depth ('at least one inch depth for the full width of the walk') is no limit for the sink."""
    joint = "The grooving tool shall leave a joint at least one inch depth for the full width of the walk."
    q = "One slab of the walk in front of my place has sunk about an inch below the next one. Is that bad enough?"
    assert limits.check_against(q, read_slots(q), [joint])  # "walk" alone ties them ...
    assert limits.check_against(q, read_slots(q), [joint], frozenset({"walk"})) == []  # ... not when it is everyday
