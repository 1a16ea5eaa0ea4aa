"""Session 30: readings that decide a figure or a day, on any question.

An hour said bare after the one part of the day its sentence names ("the morning after the Fourth of July, crew on
site at 9") is of that part; "the morning after" a holiday is the day after it; a follow-up's bare "the 13th, not the
3rd" is a day of the month the conversation dated; a follow-up asking again "instead" of one new measurement replaces
the one told before; "cut into the asphalt on <day>" dates the opening, not the paving; an age "before that" counts
back from the day said before it; a value inside brackets has the bracket's words; a further ask of figure words
alone ("how much of it do I pay for") after a check that states no amount is answered by the rule's sentence.
"""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering import roles
from assistant.answering.planner import _states_money
from assistant.answering.reading import read_query, read_slots


def _of(slots, kind):
    return [s.value for s in slots if s.kind == kind]


def _conversation(assistant, muni, first, then):
    """The answers to a first question and to a follow-up asked after it (the first answer in the history)."""
    ans1 = assistant.ask(first, muni)
    return ans1, assistant.ask(then, muni, history=[{"role": "user", "content": first},
                                                    {"role": "assistant", "content": ans1.answer}])


# -- the part of the day an hour is said in ----------------------------------------------------------------------------
def test_a_bare_hour_after_the_morning_its_sentence_names_is_in_the_morning():
    got = read_slots("Crew opens the road the morning after the Fourth of July, on site at 9.", "turn", date(2028, 4, 5))
    assert _of(got, "time") == ["09:00"] and _of(got, "date") == ["2028-07-05"]
    got = read_slots("We start that evening, around 7.", "turn", date(2028, 4, 5))
    assert _of(got, "time") == ["19:00"]


@pytest.mark.parametrize("text", [
    "Crew starts at 7 and the inspector comes in the afternoon.",  # the part of the day said after it: another event's
    "Pour in the morning, finish in the evening, we start at 7.",  # two parts of the day: asked, never guessed
    "We start at 7 on Monday.",
])
def test_a_bare_hour_with_no_one_part_of_the_day_before_it_is_not_read(text):
    assert _of(read_slots(text, "turn", date(2028, 4, 5)), "time") == []


def test_the_night_before_a_holiday_is_the_day_before_it():
    got = read_slots("We dig the night before Christmas.", "turn", date(2028, 11, 1))
    assert _of(got, "date") == ["2028-12-24"]


# -- a follow-up's bare day of the month, and its correction ---------------------------------------------------------
def test_a_bare_day_in_a_follow_up_is_of_the_month_the_conversation_dated():
    q = read_query("hold on, the letter says the 13th, not the 3rd. what's the deadline then?",
                   "Our house got its new number assigned on June 3. When must the numbers be up?",
                   follow_up=True, ref=date(2028, 4, 5))
    assert _of(q.slots, "date") == ["2028-06-13"]


def test_a_bare_day_is_not_read_when_the_conversation_dated_two_months():
    q = read_query("and the 13th?", "Assigned June 3, occupied July 9. When must the numbers be up?",
                   follow_up=True, ref=date(2028, 4, 5))
    assert "2028-06-13" not in _of(q.slots, "date") and "2028-07-13" not in _of(q.slots, "date")


def test_a_corrected_day_of_the_month_dates_the_same_rule(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-05")
    first = "The Town of Delafield assigned our house its new number on June 3. When do the numbers have to be up by?"
    ans1, ans = _conversation(assistant, "delafield", first,
                              "hold on, the letter says the 13th, not the 3rd. what's the deadline then?")
    assert "July 3, 2028" in ans1.answer
    assert ans.status == "answered" and "July 13, 2028" in ans.answer and "July 3, 2028" not in ans.answer


# -- asked again "instead" of a new measurement ----------------------------------------------------------------------
def test_a_measurement_asked_again_instead_replaces_the_one_told_before(assistant):
    first = "We're putting in a new walk in front of our house in Brandon, 5 feet wide. How much lower must the curb " \
            "side be than the house side?"
    ans1, ans = _conversation(assistant, "brandon", first, "and if we make it 8 feet wide instead?")
    assert "2.5 inches" in ans1.answer
    assert ans.status == "answered" and "4 inches" in ans.answer and "8 feet" in ans.answer


def test_an_amount_asked_again_instead_is_read_where_the_one_it_replaces_was_said():
    # (its role is read from the words the earlier amount was said with: "Their labor, materials and equipment came to")
    q = read_query("what if it came to $4,100 instead?", "Their labor, materials and equipment came to $3,250. "
                   "What's the total they can bill us?", follow_up=True)
    money = [s for s in q.slots if s.kind == "money"]
    assert [s.value for s in money] == ["4100"] and money[0].span.origin == "earlier"
    assert money[0].span.text == "$4,100" and "in place of “$3,250”" in money[0].worked


# -- the paving's date and age ---------------------------------------------------------------------------------------
def test_the_asphalt_cut_into_dates_the_opening_not_the_paving(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-12-01")
    ans = assistant.ask("We need to cut into the asphalt on a Brandon street on March 1, 2028. The village repaved it "
                        "in May 2024. The permit fee is $80. What's the surcharge?", "brandon")
    assert ans.status == "answered" and "2 times" in ans.answer and "$160.00" in ans.answer


def test_an_age_before_that_counts_back_from_the_day_said_before(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-05")
    ans = assistant.ask("Permit fee is $100. We're opening Elm Street on June 10th and that asphalt went down a year "
                        "and a half before that. What's the surcharge?", "brandon")
    assert ans.status == "answered" and "4 times" in ans.answer and "$400.00" in ans.answer


@pytest.mark.parametrize("phrase", ["cut into the asphalt on", "saw-cut the blacktop on", "open the pavement on"])
def test_a_surface_opened_is_no_cue_of_the_paving(phrase):
    assert not roles.PAVED.search(f"we {phrase}")
    assert roles.PAVED.search("the asphalt went down on")


# -- a value inside brackets -----------------------------------------------------------------------------------------
def test_a_value_in_brackets_has_the_brackets_words(assistant):
    ans = assistant.ask("I put up a $2,000 cash deposit as the ditch landscaping guarantee (the culvert itself was "
                        "$3,100). The Town regraded the ditch and billed me $500, which I didn't pay within the 30 "
                        "days. How much of the deposit comes back?", "delafield")
    assert ans.status == "answered" and "$1,500.00" in ans.answer


# -- a further ask of figure words alone after a check -----------------------------------------------------------------
def test_how_much_do_i_pay_after_a_defect_check_quotes_the_share(assistant):
    ans = assistant.ask("one slab of the walk in front of my house heaved and sits about an inch above the next one. is "
                        "that a defective sidewalk the village can order fixed, and if so how much of it do I pay for",
                        "brandon")
    assert ans.status == "answered" and "50%" in ans.answer and "snow" not in ans.answer.lower()


def test_which_calculators_state_an_amount_of_money():
    assert _states_money("village_repair_bill") and _states_money("guarantee_balance")
    assert not _states_money("sidewalk_defect_check") and not _states_money("deadline")


# -- owners counted per side --------------------------------------------------------------------------------------------
def test_a_number_on_each_side_counts_both_sides(assistant):
    ans = assistant.ask("A new sidewalk is going in on the east side of our street only; there's no walk on either side "
                        "now. The village puts the cost at $16,000. There are eight of us homeowners, four on each "
                        "side. What does each house pay?", "brandon")
    assert ans.status == "answered" and "$2,000.00" in ans.answer and "four on each side" in ans.answer


def test_a_total_that_is_not_twice_each_sides_number_is_asked_about(assistant):
    ans = assistant.ask("A new sidewalk is going in on the east side of our street only; there's no walk on either side "
                        "now. The village puts the cost at $16,000. There are ten of us homeowners, four on each "
                        "side. What does each house pay?", "brandon")
    assert ans.status == "clarify"


# -- a period whose event "such" points back to; a total fall; a per-area rate or fee and one length -------------------
def test_such_official_action_is_the_decision_the_user_dated():
    from assistant.answering import periods
    from assistant.answering.reading import read_query as rq

    turn = "The officer turned down my request. The decision letter is dated Wednesday, November 1. What's the last " \
           "day I can file?"
    q = rq(turn, ref=date(2028, 10, 20))
    sentence = ("Any person aggrieved by the decision or action of the Chief Administrative Officer may appeal to the "
                "Board of Zoning Appeals within 10 days of such official action.")
    got = periods.count_from(turn, q.of_origin("turn"), [sentence], state="OH")
    assert len(got) == 1 and got[0].day == date(2028, 11, 11)


def test_how_much_total_fall_asks_a_rise():
    from assistant.answering.slopes import ASKS_RISE

    assert ASKS_RISE.search("how much total fall should there be across that distance?")
    assert ASKS_RISE.search("what's the total drop over 11 feet?")


def test_the_number_of_gallons_against_a_rate_per_area_asks_the_width():
    from assistant.answering.materials import area_needed

    rate = "The compound shall be applied at a minimum rate of one gallon of material for each 200 square feet."
    other = "Concrete shall be cured for seven days."
    turn = "Ordering curing compound for a walk 90 feet long. What's the minimum number of gallons?"
    assert area_needed(turn, read_slots(turn), [other, rate]) == ("90 feet", rate)


def test_a_fee_by_area_and_one_length_asks_the_width():
    from assistant.answering.tiers import width_needed

    fee = ("The fee shall be $2.00 for excavations which do not exceed 25 square feet in area or tunnels not exceeding "
           "25 feet in length; and $0.25 for each additional square foot in the case of excavations, or lineal foot in "
           "the case of tunnels.")
    turn = "We're digging an excavation 40 feet along the curb. What will the permit cost?"
    assert width_needed(turn, read_slots(turn), fee) == "40 feet"
    both = "We're digging an excavation 40 feet long and 3 feet wide. What will the permit cost?"
    assert width_needed(both, read_slots(both), fee) is None


# -- topics a text covers in words other than the question's ---------------------------------------------------------
def test_a_topic_is_off_where_the_text_uses_none_of_its_evidence_words(monkeypatch):
    from assistant.answering import status_phrases
    from assistant.types import Municipality, Passage

    def doc_of(text):
        class Doc:
            sections = []
            passages = [Passage(id="x", municipality="b", chapter="1", section="1-1", title="Streets", text=text,
                                start=0, end=10)]
        return Doc

    new = Municipality.model_validate({"id": "b", "name": "City of B", "kind": "city", "state": "OH",
                                       "chapters": [{"chapter": "1", "source_file": "b.txt"}]})
    car = "leave my car parked"
    status_phrases._default_lists.cache_clear()
    # (a place named "Riverside Park" and concrete at "600 pounds per cubic yard" are no parking or weight rule)
    monkeypatch.setattr("assistant.corpus.document", lambda mid: doc_of(
        "Sidewalks from Riverside Park west shall be concrete of 600 pounds per cubic yard."))
    always, _ = status_phrases.off_topic_lists(new)
    assert any(__import__("re").search(p, car) for p in always)
    assert any(__import__("re").search(p, "is there a weight limit for trucks") for p in always)
    status_phrases._default_lists.cache_clear()
    monkeypatch.setattr("assistant.corpus.document", lambda mid: doc_of(
        "No vehicle shall be parked on a sidewalk; a vehicle so parked may be towed. Gross vehicle weight limits "
        "are posted."))
    always, _ = status_phrases.off_topic_lists(new)
    status_phrases._default_lists.cache_clear()
    assert not any(__import__("re").search(p, car) for p in always)
    assert not any(__import__("re").search(p, "is there a weight limit for trucks") for p in always)


def test_a_noise_question_is_out_of_scope_for_a_chapter_that_sets_no_hours(assistant):
    ans = assistant.ask("How early in the morning can our crew start running the saw on a street job in Brandon? Are "
                        "there noise rules?", "brandon")
    assert ans.status == "out_of_scope"


# -- a distance said with no unit --------------------------------------------------------------------------------------
@pytest.mark.parametrize("question, status", [
    ("We want our concrete driveway to come within about 5 from the road's hard surface. Is that allowed?", "clarify"),
    ("Our concrete driveway will stop 5 feet from the road's hard surface. Is that allowed?", "answered"),
])
def test_a_distance_with_no_unit_asks_the_unit(assistant, question, status):
    ans = assistant.ask(question, "delafield")
    assert ans.status == status
    if status == "clarify":
        assert "feet or inches" in ans.answer


# -- this weekend's Saturday; "at 12" is noon or midnight ------------------------------------------------------------
def test_a_bare_saturday_beside_this_weekend_is_that_weekends():
    got = read_slots("If the snow this weekend quits on Saturday, when must the walk be clear?", "turn", date(2028, 4, 5))
    assert _of(got, "date") == ["2028-04-08"]
    # (session 42: "if" supposes a day to come, so a bare Saturday in a supposed clause is the coming one — said in the
    # answer's "I read" line — where before it was left undated)
    assert _of(read_slots("If it quits on Saturday, when?", "turn", date(2028, 4, 5)), "date") == ["2028-04-08"]


def test_a_snow_end_at_12_asks_noon_or_midnight(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-05")
    ans = assistant.ask("If the snow this weekend stops at 12 on Sunday, when do I have to have my walk shoveled in "
                        "Brandon?", "brandon")
    assert ans.status == "clarify" and "noon or midnight" in ans.answer


# -- the penalty asked; a penalty provision for a range of sections --------------------------------------------------
@pytest.mark.parametrize("question, kind", [
    ("whats the penalty if you dont shovel your sidewalk? is it a misdemeanor or just a fine", "penalty"),
    ("What are the penalties for blocking the street?", "penalty"),
    ("How much is the fine for blocking the street?", "money"),
])
def test_the_penalty_asked_is_its_own_kind_of_figure(question, kind):
    from assistant.answering.planner import figure_kind, stated_by

    assert figure_kind(question) == kind
    if kind == "penalty":
        assert stated_by("penalty").search("shall be deemed guilty of a Class 3 misdemeanor")


def test_a_penalty_for_a_range_that_misses_the_section_found_gives_way_to_the_one_that_holds_it():
    from assistant.answering.planner import EmbeddedPlanner
    from assistant.retrieval.index import SearchHit
    from assistant.types import Passage

    def p(pid, section, sub, text):
        return Passage(id=pid, municipality="m", chapter="1", section=section, subsection=sub, title=section, text=text,
                       start=0, end=1)

    snow = p("s", "1.16", "(A)", "Snow shall be removed within 24 hours.")
    b = p("b", "1.99", "(B)", "Violation of §§ 1.01 through 1.04 shall constitute a Class 3 misdemeanor.")
    c = p("c", "1.99", "(C)", "Any person who violates §§ 1.15 through 1.22 shall be guilty of a Class 2 misdemeanor.")

    class Stub:
        _same_section = staticmethod(lambda passage: [b, c] if passage.section == "1.99" else [snow])

    hits = [SearchHit(passage=x, score=1.0, dense_score=0.5) for x in (snow, b)]
    assert [h.passage.id for h in EmbeddedPlanner._in_range(Stub(), hits)] == ["s", "c"]
    hits = [SearchHit(passage=x, score=1.0, dense_score=0.5) for x in (snow, b, c)]
    assert [h.passage.id for h in EmbeddedPlanner._in_range(Stub(), hits)] == ["s", "c"]


def test_does_the_code_put_a_dollar_amount_on_it_asks_an_amount(assistant):
    ans = assistant.ask("Our street opening job is running long and we want the thirty-day renewal. Does 404-6 put a "
                        "dollar amount on the renewal fee?", "brandon")
    assert ans.status == "not_stated" and "Village Board" in ans.answer


def test_the_priced_things_own_deferral_is_not_crowded_out(assistant):
    ans = assistant.ask("how much is the permit to repair the public sidewalk out front?", "brandon")
    assert ans.status == "not_stated" and "A fee as set by the Village Board shall be charged for such permit" in ans.answer


# -- an opening in a month, with the paving's age ---------------------------------------------------------------------
def test_an_opening_next_month_with_the_pavings_age_is_worked_when_the_month_decides_nothing(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-05")
    ans = assistant.ask("Our crew is cutting Birch Ct next month where the final paving is about 8 months old; the "
                        "permit fee is $100. What's the surcharge?", "brandon")
    assert ans.status == "answered" and "$500.00" in ans.answer and "next month" in ans.answer


def test_an_opening_next_month_that_straddles_a_band_asks_the_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-04-05")
    # (11 months old today: under a year on May 1, over it on May 31)
    ans = assistant.ask("We're cutting Birch Ct next month; the final paving there is 11 months old. Permit fee is $100. "
                        "What's the surcharge?", "brandon")
    assert ans.status == "clarify" and "next month" in ans.answer


# -- an amount asked again "instead" takes the place of the one told ---------------------------------------------------
def test_an_amount_asked_again_instead_takes_the_place_of_the_one_told(assistant):
    first = "The village fixed a faulty patch of ours themselves. Their labor, materials and equipment came to $2,500. " \
            "What's the total they can bill us?"
    ans1, ans = _conversation(assistant, "brandon", first, "what if their costs were $3,000 instead?")
    assert "$3,000.00" in ans1.answer
    assert ans.status == "answered" and "$3,600.00" in ans.answer and "$3,000" in ans.answer


def test_an_amount_added_is_not_put_in_place_of_the_one_told():
    q = read_query("what if there was also $400 of equipment?", "Labor and materials came to $2,500.", follow_up=True)
    assert sorted(_of(q.slots, "money")) == ["2500", "400"]


# -- a total of something done more than once, from fewer amounts -----------------------------------------------------
@pytest.mark.parametrize("turn, short", [
    ("Public Works shoveled our walk twice. The first time their cost was $180. How much do we owe altogether?",
     (2, "twice")),
    ("They came out three times; one visit cost $90. What's the total with the penalty?", (3, "three times")),
    ("They shoveled twice, $180 each time. How much do we owe altogether?", None),
    ("They shoveled twice: $180 and $150. How much do we owe altogether?", None),
    ("They shoveled twice and the first cost $180. What is the penalty on that one?", None),  # no total asked
])
def test_a_total_of_several_times_from_fewer_amounts_is_asked(turn, short):
    from assistant.answering.planner import _fewer_amounts_than_times

    assert _fewer_amounts_than_times(turn, read_slots(turn)) == short
