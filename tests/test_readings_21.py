"""Session 21: the assistant asks for the input its rule needs, on any code.

An amount the code sets by a condition the question does not say is asked with every case quoted (each figure the
question names is cited); a share of a sum the question does not give asks for the sum; a rate per unit asked for
one's own case ("for my sewer hookup") asks for the quantity even when a date's digits are in the question; amounts
listed as parts of one sum are never read as one of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.answering import rates
from assistant.answering.assistant import Assistant
from assistant.answering.conditions import condition_needed
from assistant.answering.guards import check_answer
from assistant.answering.plan import Clarify
from assistant.answering.planner import Request
from assistant.answering.reading import read_query, read_slots
from assistant.retrieval.chunking import sentences

from tests.test_readings_20 import BOSTON_F


# -- a condition is asked in its own words; every case is quoted --------------------------------------------------
def test_the_conditions_asked_about_carry_no_amount():
    needed = condition_needed("I got a ticket for the snow on the sidewalk in front of my building. How much is it "
                              "going to cost me?", BOSTON_F)
    assert needed is not None and len(needed.conditions) == 3
    for words in needed.conditions:
        assert "$" not in words and "dollars" not in words and "shall" not in words, words


def test_a_clarifying_question_quotes_each_case_and_passes_the_guard(assistant):
    planner = assistant.embedded
    hits = assistant.search("indemnity bond liability insurance amount", "brandon", k=8)
    pairs = list({s: (h.passage, s) for h in hits for s in sentences(h.passage.text) if "$" in s}.values())
    assert len(pairs) >= 2
    first = pairs[0][1]
    figure = next(w for w in pairs[1][1].split() if "$" in w and w.strip(".,;()") not in first).strip(".,;()")
    plan = Clarify(f"To work this out I need which case is yours: is it “{figure}”?", municipality="brandon",
                   slot="which case applies", quote=pairs[0], more_quotes=(pairs[1],))
    answer = planner.render(plan, Request(read_query("How much will it cost me?")))
    assert answer.status == "clarify" and len(answer.citations) == 2
    assert "The provisions, one for each case:" in answer.answer
    assert check_answer(answer, allowed_text=planner._coverage(), question="How much will it cost me?") == []


# -- a share of a sum the question does not give ------------------------------------------------------------------
PENALTY = ("Each such person or entity by whose failure makes it necessary that the Director of Public Works causes "
           "work to be done, shall be liable to the city for the cost of such work, plus a penalty of 10% of such cost.")


@pytest.mark.parametrize("turn, asked", [
    ("Public Works shoveled my sidewalk after last week's storm because I was out of town. How much are they going "
     "to bill me?", "the cost of the work"),
    ("Public Works shoveled my sidewalk; the work cost $300. How much are they going to bill me?", None),  # given
    ("What is the penalty when the city has to clear a walk?", None),  # no own amount asked: the quote answers
    ("Their crew of 3 cleared our walk. How much will it cost us?", None),  # a number of its own: left to the quote
])
def test_a_share_of_a_sum_not_given_asks_for_the_sum(turn, asked):
    assert rates.needs_amount(turn, read_slots(turn), PENALTY) == asked


def test_a_share_divided_among_owners_asks_nothing_here():
    shared = "100% of the assessment shall be distributed equally between property owners on both sides of the street."
    assert rates.needs_amount("How much will my share be?", read_slots("How much will my share be?"), shared) is None


# -- a rate per unit, asked for one's own case --------------------------------------------------------------------
FEE = ("The fee for such permits shall be $2.00 for excavations which do not exceed 25 square feet in area or tunnels "
       "not exceeding 25 feet in length; and $0.25 for each additional square foot in the case of excavations, or "
       "lineal foot in the case of tunnels; but not to exceed $100.00 for any permit.")
NEWSRACK = ("In addition to the certificate of compliance fee, an annual fee of $25.00 per newsrack authorized shall be "
            "paid to the city to offset the costs of the city's monitoring compliance with this article.")


@pytest.mark.parametrize("turn, sentence, unit", [
    ("How much is the city permit fee to dig in the street for my sewer hookup?", FEE, "square foot"),
    ("How much is the city permit fee to dig in the street?", FEE, None),  # the fee in general: the rate answers
    ("Our newsrack certificate comes up for renewal April 1. What's the total we'll owe the city this year?",
     NEWSRACK, "newsrack"),  # a date's digits are no count
    ("Our 6 newsracks come up for renewal April 1. What's the total we'll owe?", NEWSRACK, None),
])
def test_a_rate_per_unit_for_ones_own_case_asks_for_the_quantity(turn, sentence, unit):
    slots = read_slots(turn)
    assert rates.needs_quantity(turn, slots, sentence) == unit


# -- amounts listed as parts of one sum ---------------------------------------------------------------------------
def test_amounts_listed_as_parts_of_a_cost_are_asked_about_not_one_taken(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-04-14")
    parts = assistant.ask("The Town did the asphalt on my driveway apron in the right-of-way. I'd put down a $2,600 "
                          "deposit. Their final numbers: $1,240 in time, $830 in materials and $115 administrative. Do "
                          "I get money back, and how much?", "delafield")
    assert parts.status == "clarify" and all(x in parts.answer for x in ("$1,240", "$830", "$115"))
    assert "$1,360.00" not in parts.answer
    whole = assistant.ask("The Town did the asphalt on my driveway apron in the right-of-way. I'd put down a $2,600 "
                          "deposit and the final bill was $2,185. Do I get money back, and how much?", "delafield")
    assert "**$415.00**" in whole.answer


def test_a_reply_giving_the_one_amount_asked_for_is_taken_over_the_listed_parts(assistant, monkeypatch):
    from assistant.types import ChatTurn

    monkeypatch.setenv("ASSISTANT_TODAY", "2027-04-14")
    first = ("The Town did the asphalt on my driveway apron in the right-of-way. I'd put down a $2,600 deposit. Their "
             "final numbers: $1,240 in time, $830 in materials and $115 administrative. Do I get money back?")
    asked = assistant.ask(first, "delafield")
    assert asked.status == "clarify" and "one amount" in asked.answer
    reply = assistant.ask("$2,185 in all", "delafield",
                          [ChatTurn(role="user", content=first), ChatTurn(role="assistant", content=asked.answer)])
    assert reply.status == "answered" and "**$415.00**" in reply.answer and "“$2,185”" in reply.answer


# -- a deadline whose existence is asked; the period a clarifying question names is the one quoted -----------------
def test_whether_there_is_a_deadline_asks_no_date():
    from assistant.answering.periods import day_needed

    rule = ["The owner shall clear the sidewalk within 24 hours after the cessation of all fall of snow."]
    asks = "When's my deadline to clear the walk in front of my shop?"
    assert day_needed(asks, read_slots(asks), rule) is not None
    whether = "Is there a deadline for getting the snow off my walk?"
    assert day_needed(whether, read_slots(whether), rule) is None


# -- an answer that fails the number guard degrades to the code's quotes, never to no answer ----------------------
def test_a_planned_answer_failing_the_guard_is_replaced_by_quotes(assistant, monkeypatch):
    from assistant.answering import phrasing

    planner = assistant.embedded
    real = type(planner).answer

    def bad(self, question, municipality=None, history=None):
        a = real(self, question, municipality, history)
        return a.model_copy(update={"answer": a.answer + "\n\nThe fee is $123.45.", "citations": a.citations})

    monkeypatch.setattr(type(planner), "answer", bad)
    a = assistant.ask("How wide must a sidewalk be?", "brandon")
    assert a.status == "answered" and "$123.45" not in a.answer and a.citations
    assert phrasing.QUOTED_AFTER_GUARD in a.notes


# -- a sample code added by a clerk: the same asking, no table of it ------------------------------------------------
WILLIAMS = Path(__file__).resolve().parents[2] / "shared" / "corpus-samples" / "williams-az-ch152" / "text.txt"


@pytest.mark.skipif(not WILLIAMS.is_file(), reason="the corpus samples are not beside the project")
def test_an_added_code_asks_for_the_cost_its_penalty_is_a_share_of(tmp_corpus, monkeypatch, capsys):
    from assistant.__main__ import main
    from assistant.settings import get_settings

    assert main(["municipality", "add", str(WILLIAMS), "--id", "williams", "--name", "City of Williams", "--state",
                 "AZ", "--no-index"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-03-09")
    a = Assistant.load(settings=get_settings())
    bill = a.ask("Public Works shoveled my sidewalk after last week's storm because I was out of town. How much are "
                 "they going to bill me?", "williams")
    assert bill.status == "clarify" and "the cost of the work" in bill.answer
    assert [c.section for c in bill.citations] == ["152.20"]
    given = a.ask("Public Works shoveled my sidewalk; the work cost $300. How much are they going to bill me?",
                  "williams")
    assert "**$330.00**" in given.answer
    roof = a.ask("Big snow load on the roof of my building and it hangs right over the sidewalk. Is there a deadline "
                 "for getting that cleared off?", "williams")
    assert roof.status == "answered" and "eight hours" in roof.answer
    # periods of two sections (a bus stop's, a sidewalk's) are not cases of one rule to ask about
    bus = a.ask("the bus company never clears the ice where people get on by my house. how long are they supposed to "
                "have after it stops snowing?", "williams")
    assert bus.status == "answered" and "six hours of daylight" in bus.answer


# -- an aside in parentheses sets no topic; "owes" labels a bill; a party named with its number ---------------------
def test_an_aside_closed_by_a_parenthesis_is_not_part_of_the_asking_sentence():
    from assistant.answering.planner import asking_sentences

    q = "The bill just came: $1,980. (Property tax this year was $4,312, ugh.) What do we still owe?"
    assert asking_sentences(q) == "What do we still owe?"


def test_each_lots_guarantee_and_what_it_owes_are_read_under_the_lots_own_name(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-11-16")
    a = assistant.ask("Two culvert jobs where the owners never paid our ditch restoration bills and it's been more than "
                      "30 days. Lot 7 posted a $1,500 cash guarantee and owes $420; Lot 8 posted $2,000 and owes $1,135. "
                      "How much of each guarantee goes back to the owner?", "delafield")
    assert "**$1,080.00**" in a.answer and "**$865.00**" in a.answer
    assert "“Lot 7”" in a.answer and "“Lot 8”" in a.answer


# -- a driveway's slope from a rise and a run in the user's own words; the slope a lookup asks for -----------------
@pytest.mark.parametrize("turn, read, slope", [
    ("Our driveway drops 30 inches over a 20-foot stretch near the garage. Is that too steep under the Town rule?",
     "rise 2.5 feet (“30 inches” ÷ 12)", "**12.5%**"),
    ("the driveway comes up from the road about a foot and a half for every ten feet of run. what grade is that and is "
     "it allowed", "rise 1.5 feet (“a foot and a half”)", "**15%**"),
    ("The driveway would run 60 feet and climb a steady 6.6 feet from the road up to the garage. Does that meet the "
     "Town's driveway slope limit?", "run 60 feet", "**11%**"),
])
def test_a_driveways_rise_and_run_are_read_from_their_own_words(assistant, turn, read, slope):
    a = assistant.ask(turn, "delafield")
    assert a.status == "answered" and read in a.answer and slope in a.answer


def test_the_maximum_slope_asked_is_the_sentence_that_states_a_slope():
    from assistant.answering.planner import QUANTITY_Q, figure_kind, figure_pattern

    q = "What is the maximum slope of a driveway in the Town?"
    assert QUANTITY_Q.search("How steep can my driveway be?") and figure_kind(q) == "slope"
    states = figure_pattern(q)
    assert states.search("a paved driveway ... and a slope not to exceed 12% at any such point.")
    assert not states.search("Slopes Less than 0.50% 0.50% to 2.00% Ditch bottom may be seeded.")


def test_a_part_of_my_blocks_and_redo_all_of_it(assistant):
    (part, whole) = read_slots("flagged 20 of my 32 squares as defective")
    assert (part.value, whole.value) == ("20", "32")
    a = assistant.ask("The Village inspected my sidewalk and flagged 20 of my 32 squares as defective. Do they make me "
                      "redo all of it?", "brandon")
    assert a.status == "answered" and "**62.5%**" in a.answer


# -- a question of two asks, one worked out and one looked up -------------------------------------------------------
def test_the_ask_no_calculator_takes_is_quoted_after_the_working(assistant, monkeypatch):
    from assistant.answering import phrasing
    from assistant.types import ChatTurn

    monkeypatch.setenv("ASSISTANT_TODAY", "2027-04-14")
    a = assistant.ask("Our street opening permit was approved Monday, April 12. When does it run out, and what do we "
                      "do if the job goes longer?", "brandon")
    assert "**May 12, 2027**" in a.answer and phrasing.OTHER_ASK in a.answer and "renewal" in a.answer
    first = "How long is a street opening permit good for once it's approved?"
    b = assistant.ask("Ours was approved Monday, April 12. When does it run out, and what do we do if the job goes "
                      "longer?", "brandon", [ChatTurn(role="user", content=first),
                                            ChatTurn(role="assistant", content=assistant.ask(first, "brandon").answer)])
    assert "May 12, 2027" in b.answer and "renewal" in b.answer
    one = assistant.ask("Our street opening permit was approved Monday, April 12. When does it run out?", "brandon")
    assert phrasing.OTHER_ASK not in one.answer


def test_the_most_rise_over_the_same_run_is_worked_out_beside_the_slope(assistant):
    a = assistant.ask("The driveway would run 60 feet and climb a steady 6.6 feet from the road up to the garage. Does "
                      "that meet the Town's driveway slope limit? And what's the most it could rise over that 60 feet?",
                      "delafield")
    assert "**11%**" in a.answer and "**7.2 feet**" in a.answer


def test_a_second_rise_told_as_a_bare_number_is_no_rise_read(assistant):
    a = assistant.ask("My driveway runs 60 feet from the road up to the garage. One contractor says it climbs 6 feet, "
                      "the other measured 8. Does it meet the Town's max grade?", "delafield")
    assert "**10%**" not in a.answer and not a.tool_calls


def test_a_hyphenated_label_after_an_amount_is_one_word(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-01-15")
    a = assistant.ask("Each house had a $1,500 curb-and-gutter guarantee posted with the building permit. The Town fixed "
                      "a cracked curb section and billed us $380, which we never paid (six weeks now). How much of the "
                      "guarantee comes back to us?", "delafield")
    assert "**$1,120.00**" in a.answer and "guarantee $1,500.00" in a.answer
