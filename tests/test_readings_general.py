"""General readings of session 13: each case fails when its rule is taken out.

Measurements held against a quoted limit among several in the story; a prohibition's least
distance; a decimal comma; a pay rate with no currency;
"the other thirty-one" after "... an hour with benefits"; parties split at a semicolon, named as
things, or as "I" and "they"; the top coat's date as the final paving; a denied lug; a period
"for N hours after" / "for a period of N years from"; a layer's thickness in words.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from assistant.answering import limits, periods, planner, roles, slots
from assistant.answering.parties import asked_about, split_parties
from assistant.answering.reading import read_query, read_slots


def _check(question: str, sentences: list[str]):
    return limits.check_against(question, read_slots(question), sentences)


ROCK = "Any rock encountered shall be excavated to a point at least 20\" below the finished grade of the roads."
NUMBERS = "The numbers used shall not be less than 2 1/2 inches in height."
CONCRETE = "No concrete surfacing shall be installed on a private driveway closer than 3' from the hard surface on the road right-of-way."
LIFT = ("After the aggregate has been placed and approved by the Town, a 2 1/2\" lift of bituminous concrete placement "
        "gradation no. 2 shall be installed in accordance with 402 of the Standard Specifications.")
TWO_LIFTS = "The lower lift shall be 5\" thick gradation no. 1 and the top lift shall be 5\" thick gradation no. 2."
MAILBOX = "Mailboxes may serve to display the house numbers if they are located within 10 ft of the driveway."
HEIGHT = "House numbers displayed on mailboxes must be placed at a height between 2' and 8' above the finished grade."


def test_of_several_measurements_the_one_whose_sentence_ties_to_the_code_is_held_up():
    q = ("Building a new subdivision road, 24 ft wide and about 600 ft long. We hit ledge at 14 inches under what "
         "will be the finished road grade. How much further down do we have to take the rock out?")
    [c] = _check(q, [ROCK])
    assert (c.measured.span.text, c.limit.value, c.difference) == ("14 inches", Decimal(20), Decimal(6))
    q2 = ("Our house sits 75 feet back from the street line, mailbox post is 4 feet high. I bought 2 inch numbers. "
          "How much taller do they need to be at minimum?")
    [c2] = _check(q2, [NUMBERS])
    assert c2.measured.span.text == "2 inch" and c2.difference == Decimal("0.5")


def test_two_measurements_as_close_to_the_sentence_are_not_guessed():
    q = "One set of numbers is 2 inches and the other numbers are 3 inches. How much taller do the numbers need to be?"
    assert _check(q, [NUMBERS]) == []


def test_closer_than_in_a_prohibition_is_a_least_distance():
    [lim] = limits.limits_in(CONCRETE)
    assert (lim.bound, lim.value, lim.unit) == ("min", Decimal(3), "ft")
    [c] = _check("Planning a concrete driveway, the form ends 2'6\" from the road's blacktop. How much further back "
                 "does it need to stop?", [CONCRETE])
    assert c.difference == Decimal("0.5") and not c.passes


def test_a_prescribed_figure_with_no_comparator_is_no_limit():
    # (held as a minimum for a shortfall asked, it added a wrong figure on an unseen set: taken out)
    q = "Core on the first asphalt lift came back at two and a quarter inches. By how much is it short?"
    assert _check(q, [TWO_LIFTS, LIFT]) == []
    assert limits.limits_in(LIFT) == []


def test_a_height_asked_prefers_the_sentence_that_limits_a_height():
    q = "Our house number sign is on the post at nine and a half feet off the ground. How much do we have to drop it?"
    [c] = _check(q, [MAILBOX, HEIGHT])
    assert c.limit.between and c.limit.value == Decimal(8) and c.difference == Decimal("1.5")


@pytest.mark.parametrize("text, expected", [
    ("1 worker, 1,5 hrs, rate 31,50/hr incl. benefits",
     [("duration", Decimal("1.5"), "hours"), ("money", Decimal("31.5"), "USD/hour")]),
    ("paid $1,500 for 1,200 feet", [("money", Decimal(1500), "USD"), ("length", Decimal(1200), "ft")]),
    ("their rate is 42 an hour", [("money", Decimal(42), "USD/hour")]),
    ("One makes twenty-nine dollars an hour with benefits, the other thirty-one.",
     [("money", Decimal(29), "USD/hour"), ("money", Decimal(31), "USD/hour")]),
    ("There are 9 homes on that side and 7 on ours.", [("count", Decimal(9), "homes"), ("count", Decimal(7), "homes")]),
    ("5 houses on our side and five on the south", [("count", Decimal(5), "houses")]),
])
def test_values_read(text, expected):
    got = [(s.kind, s.number, s.unit) for s in read_slots(text) if s.kind != "count" or "worker" not in (s.unit or "")]
    assert got == expected


def test_parties_split_at_a_semicolon_each_with_all_its_values():
    q = ("Me and the people next door both used the asphalt service. I deposited $2,400 and the final came to "
         "$2,910; they deposited $3,000 and theirs came to $2,640. What do I owe and what do they get back?")
    parties = split_parties(q, ("$2,400", "$3,000"))
    assert [p.label for p in parties] == ["I deposited", "they deposited"]
    assert "$2,910" in parties[0].text and "$2,640" not in parties[0].text
    assert asked_about(q, parties) == parties  # "I" and "they" both asked about


def test_things_named_with_their_figures_are_parties_when_each_is_asked():
    q = ("Sending two machines down a Town road: a skid steer at 5,400 lb and a tracked mini-ex at 7,300 lb. "
         "How many tons is each?")
    parties = split_parties(q, ("5,400 lb", "7,300 lb"))
    assert parties is not None and len(parties) == 2
    assert split_parties(q.replace("How many tons is each?", "How many tons?"), ("5,400 lb", "7,300 lb")) is None


def test_the_top_coat_is_the_final_paving_when_the_other_date_is_the_base():
    q = read_query("Permit fee is $70. The base asphalt went down in May 2022 and the top coat in September 2023. "
                   "What's the surcharge?", ref=date(2026, 12, 7))
    r = roles.surcharge_values(q)
    assert r.ambiguous is None and r.paving.span.text.endswith("September 2023")
    q2 = read_query("Permit fee is $70. The street was paved in May 2022 and the top coat was paved in September "
                    "2023 over part of it, the rest paved in June 2024. What's the surcharge?", ref=date(2026, 12, 7))
    assert roles.surcharge_values(q2).ambiguous is not None


@pytest.mark.parametrize("text, said", [
    ("a tracked mini-ex at 7,300 lb, neither has lugs", False),
    ("no lugs on it", False),
    ("without cleats", False),
    ("it has lugged wheels", True),
])
def test_a_denied_lug_is_not_read_as_one(text, said):
    assert slots.affirmed(r"lug|cleat", text) is said


@pytest.mark.parametrize("sentence, turn, expected", [
    ("Foot traffic on the walk shall not be permitted for forty-eight hours after placing the concrete.",
     "The crew poured our new sidewalk on December 3, 2026 at 9:30 AM. When is the earliest we can walk on it?",
     "2026-12-05T09:30:00"),
    ("The permittee is responsible for trench settlement for a period of three years from the date of the final "
     "permanent repair.", "We finished the final permanent repair on May 21, 2026. Until when are we responsible?",
     "2029-05-21"),
])
def test_a_period_for_n_units_after_an_act_is_counted(sentence, turn, expected):
    [c] = periods.count_from(turn, read_slots(turn, ref=date(2026, 12, 3)), [sentence])
    assert c.day.isoformat() == expected


def test_a_layers_thickness_in_words_states_a_thickness_and_a_date_period_in_words_a_date():
    states = planner.figure_pattern("How thick can each layer be?")
    assert states.search("Each layer (twelve-inch maximum) shall be uniformly compacted")
    dates = planner.figure_pattern("Until what date are we responsible?")
    assert dates.search("for a period of three years from the date")


def test_figures_of_a_text_tie_quotes_to_what_the_answer_states():
    assert planner._figures_of("insurance of $10,000.00 each person; 3 feet") == {"10000"}
    assert "20000" in planner._figures_of("$20,000 each accident")


@pytest.mark.parametrize("words, value, precision", [
    ("last Christmas", "2025-12-25", "day"),  # the latest one before today, not the nearest (two weeks ahead)
    ("next Memorial Day", "2027-05-31", "day"),
    ("this past Labor Day", "2026-09-07", "day"),
    ("the 15th of last month", "2026-11-15", "day"),
    ("earlier this month on the 3rd", "2026-12-03", "day"),
    ("next month on the 12th", "2027-01-12", "day"),
    ("a month ago today", "2026-11-10", "day"),
    ("a fortnight ago", "2026-11-26", "day"),
    ("12/1/26", "2026-12-01", "day"),
    ("on 11/30", "2026-11-30", "day"),
    ("the last day of November", "2026-11-30", "day"),
    ("last year on May 14", "2025-05-14", "day"),  # (had read as the coming May 14)
    ("30 September 2026", "2026-09-30", "day"),
    ("Friday before last", "2026-11-27", "day"),
    ("two Fridays ago", "2026-11-27", "day"),
    ("Wednesday of last week", "2026-12-02", "day"),
    ("last week Wednesday", "2026-12-02", "day"),
    ("this Wednesday past", "2026-12-09", "day"),  # (had read as the coming Wednesday)
    ("three weeks back", "2026-11-19", "day"),
    ("a year ago this month", "2025-12-01", "month"),
])
def test_relative_dates_read_to_the_day(words, value, precision):
    got = [(s.value, s.precision) for s in read_slots(f"It happened {words}.", ref=date(2026, 12, 10)) if s.kind == "date"]
    assert got == [(value, precision)]


@pytest.mark.parametrize("words", ["2 1/2 inches", "1/2 hour", "right before Thanksgiving"])
def test_no_date_is_read_where_none_is_meant(words):
    assert [s for s in read_slots(f"It was {words}.", ref=date(2026, 12, 10)) if s.kind == "date"] == []


@pytest.mark.parametrize("words, day", [("Christmas Eve", "2026-12-24"), ("last Christmas Eve", "2025-12-24")])
def test_christmas_eve_is_its_own_day_never_christmas(words, day):
    # (session 19: named days that are no legal holiday are read as their own dates; before, Christmas Eve was left
    # unread so that it would never be taken for Christmas Day)
    assert [s.value for s in read_slots(f"It was {words}.", ref=date(2026, 12, 10)) if s.kind == "date"] == [day]


def test_a_season_of_a_year_is_that_stretch():
    [s] = [x for x in read_slots("It was paved over the summer of 2024.", ref=date(2026, 12, 10)) if x.kind == "date"]
    # (June 1, meteorological, to September 20, the day before the astronomical autumn: people mean either)
    assert (s.value, s.precision, s.days) == ("2024-06-01", "month", (date(2024, 6, 1), date(2024, 9, 20)))


@pytest.mark.parametrize("text, expected", [
    ("three quarters of an hour", [("duration", Decimal("0.75"), "hours")]),  # (had read as 1 hour)
    ("nine tenths of a ton", [("weight", Decimal("0.9"), "tons")]),  # (had read as 1 ton)
    ("7k lbs", [("weight", Decimal("3.5"), "tons")]),  # (had read as $7,000)
    ("forty-two fifty an hour", [("money", Decimal("42.5"), "USD/hour")]),  # (had read as 1 hour)
    ("twenty five dollars an hour", [("money", Decimal(25), "USD/hour")]),
    ("an hour and a half", [("duration", Decimal("1.5"), "hours")]),
])
def test_fractions_thousands_and_spoken_cents(text, expected):
    assert [(s.kind, s.number, s.unit) for s in read_slots(f"It was {text}.")] == expected


@pytest.mark.parametrize("text, expected", [
    ("one point five hours", [("duration", Decimal("1.5"), "hours")]),  # (had read as 5 hours)
    ("a ton and a half", [("weight", Decimal("1.5"), "tons")]),  # (had read as 1 ton)
    ("an hour fifteen", [("duration", Decimal(75), "minutes")]),  # (had read as 1 hour)
    ("worked 2 hours 5 of us", [("duration", Decimal(2), "hours")]),
])
def test_decimals_in_words_a_unit_and_a_half_and_minutes_said_bare(text, expected):
    got = [(s.kind, s.number, s.unit) for s in read_slots(f"It was {text}.") if s.kind in ("duration", "weight")]
    assert got == expected


@pytest.mark.parametrize("words, value", [
    ("the twenty-third of November", "2026-11-23"),
    ("November the 23rd", "2026-11-23"),
    ("June 3rd, two thousand twenty-five", "2025-06-03"),  # (the year in words had been left: read as 2027)
    ("March first, twenty twenty-seven", "2027-03-01"),
    ("May the fourth", "2027-05-04"),
])
def test_a_day_of_a_month_in_words(words, value):
    assert [s.value for s in read_slots(f"It was {words}.", ref=date(2026, 12, 10)) if s.kind == "date"] == [value]


def test_may_and_march_as_verbs_date_nothing_and_a_grand_and_a_half():
    assert [s for s in read_slots("We may first need a permit.", ref=date(2026, 12, 10)) if s.kind == "date"] == []
    assert [(s.kind, s.number) for s in read_slots("It was a grand and a half.")] == [("money", Decimal(1500))]
    assert [s for s in read_slots("It is twenty-four hundred square feet.") if s.kind == "count"] == []
