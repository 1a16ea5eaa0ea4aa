"""Session 37: readings that decide a figure or an ask, on any question.

A follow-up that names the conversation's own municipality by its common word ("let the village do it") changes
nothing, and a calculator the conversation reaches that takes the turn's own amount is run; a dated letter picks the
rule counted from a notice over one whose event only shares its words; a number closing a quotation ("'weight 2.9'")
is no length in feet, and a weight named after its number ("5,800 for weight") with no unit is asked; a street's
thickness ("a concrete street that's 6 inches thick") is its existing pavement, and a follow-up's own depth replaces the
earlier one; two persons' figures in clauses or sentences of their own are each person's; "had a service blow" is an
emergency; "how late can I ..." asks a last moment, and "the week of April 16" names no single day.
"""

from __future__ import annotations

import pytest

from assistant.answering import slots
from assistant.answering.reading import read_query


def _talk(assistant, municipality: str, *turns: str):
    history, answer = [], None
    for turn in turns:
        answer = assistant.ask(turn, municipality=municipality, history=history or None)
        history += [{"role": "user", "content": turn}, {"role": "assistant", "content": answer.answer}]
    return answer


def _tools(answer) -> list[str]:
    return [c.name for c in answer.tool_calls]


# -- a follow-up's own amount, the municipality named by its common word ----------------------------------------------
def test_a_follow_up_naming_the_village_takes_its_own_amount(assistant, today):
    today("2028-05-24")
    a = _talk(assistant, "brandon",
              "The village marked my front walk defective: one block sits about an inch above the next. Is that enough?",
              "ok, the notice is dated June 5. if I fix it myself, by when?",
              "and if I let the village handle it and their estimate is $2,400, what's my part?")
    assert a.status == "answered" and "sidewalk_assessment" in _tools(a)
    assert "$1,200.00" in a.answer


# -- a dated letter is a notice --------------------------------------------------------------------------------------
def test_a_dated_letter_counts_the_notice_rule(assistant, today):
    today("2028-12-20")
    a = assistant.ask("Got a letter from the Town dated March 3 that they'll install a culvert at our existing driveway "
                      "at our expense. By when is the deposit due?", municipality="delafield")
    assert a.status == "answered"
    call = next(c for c in a.tool_calls if c.name == "deadline")
    assert call.arguments["rule"] == "delafield_culvert_deposit"
    assert "March 13, 2029" in a.answer and "November 1" not in a.answer.split("How it was worked out")[0]


# -- a quotation mark is no foot; a weight named after its number is asked ----------------------------------------------
def test_a_number_closing_a_quotation_is_no_length():
    assert not [s for s in read_query("The only tag on it says 'length 12'. Is that allowed?").slots if s.kind == "length"]
    walk = [s for s in read_query("We poured a 10' wide walk.").slots if s.kind == "length"]
    assert [(s.value, s.unit) for s in walk] == [("10", "ft")]


@pytest.mark.parametrize("question", [
    "Want to drive my compact track loader down a Town of Delafield road. The data plate just says 'weight 4.1'. Do I "
    "need the permit?",
    "The loader's plate lists 6,200 for weight. Do I need a Town of Delafield permit to run it down a town road?",
])
def test_a_weight_with_no_unit_is_asked(assistant, question):
    a = assistant.ask(question, municipality="delafield")
    assert a.status == "clarify" and "unit" in a.answer
    assert "heavy_vehicle_check" not in _tools(a)  # no check run on a weight guessed in tons or pounds


# -- a street's thickness is its existing pavement ------------------------------------------------------------------------
def test_a_streets_thickness_gives_the_backfill_depth(assistant):
    a = assistant.ask("Opening an asphalt street in Brandon that's 3 inches thick. How far below the surface does the "
                      "backfill stop?", municipality="brandon")
    assert a.status == "answered" and "pavement_patch_check" in _tools(a)
    assert "**11 inches**" in a.answer  # 4 + 4 + 3


def test_a_follow_up_depth_and_pavement_replace_the_earlier(assistant):
    a = _talk(assistant, "brandon",
              "Street cut in Brandon, the existing asphalt is 3 inches thick. How far down do we stop the backfill?",
              "and if it's concrete, 9 inches thick?")
    call = next(c for c in a.tool_calls if c.name == "pavement_patch_check")
    assert call.arguments["pavement"] == "concrete" and call.arguments["existing_pavement_depth_in"] == "9"
    assert "**17 inches**" in a.answer  # 4 + 4 + 9


# -- two persons, each with their own figures ----------------------------------------------------------------------------
def test_two_persons_in_one_sentence_by_preposition(assistant):
    a = assistant.ask("The Village's estimate for my walk is $2,600 and for hers it's $1,500. What will I be assessed?",
                      municipality="brandon")
    assert a.status == "answered" and "$1,300.00" in a.answer and "$750" not in a.answer


def test_two_persons_a_sentence_each(assistant):
    a = assistant.ask("My neighbor and I both used the Town's asphalt crew. I put down $1,900 and my final cost came to "
                      "$1,650. She deposited $2,100 and hers came to $2,300. For me, do I get money back?",
                      municipality="delafield")
    assert a.status == "answered" and "$250.00" in a.answer and "$200" not in a.answer


# -- an emergency, a last moment, a week ----------------------------------------------------------------------------------
def test_a_service_that_blew_is_an_emergency():
    assert slots.is_emergency("Had a water service blow this morning and we dug it up right away.")


def test_how_late_asks_a_last_moment(assistant, today):
    today("2028-12-20")
    a = assistant.ask("Brandon job: we're cutting into the street for a water lateral on Monday, April 16 at 8 am. How "
                      "late can I let the Director of Public Works know before we start?", municipality="brandon")
    assert a.status == "answered" and "April 14, 2029 8:00 AM" in a.answer


def test_the_week_of_a_day_is_asked(assistant, today):
    today("2028-12-20")
    slot = next(s for s in read_query("sometime the week of April 16").slots if s.kind == "date")
    assert slot.precision == "week" and slot.span.text == "the week of April 16"
    a = assistant.ask("Brandon sewer lateral job sometime the week of April 16. How late can I let the Director of "
                      "Public Works know?", municipality="brandon")
    assert a.status == "clarify" and "which day" in a.answer.lower() and "April 14" not in a.answer


# -- added codes: a day named by the conversation, a letter, every one of the days, a width along a length --------------
def test_added_codes_read_a_follow_up_event_a_letter_all_the_days_and_an_area(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2030-11-20")
    a = with_samples("chagrin-falls", "crawfordville", "williams")
    # the refilling's start named by the earlier turn, this turn's day counted back 10 hours on the clock
    first = "Once the pipe is in, how much notice does the clerk want before we start backfilling the trench?"
    before = a.ask(first, "crawfordville")
    call = a.ask("ok, we plan to backfill Monday, November 25 at 7 AM. latest I can call him?", "crawfordville",
                 history=[{"role": "user", "content": first}, {"role": "assistant", "content": before.answer}])
    assert call.status == "answered" and "November 24, 2030 9:00 PM" in call.answer, call.answer
    # a letter is the notice the ten days run from (the tenth day a holiday in Arizona: moved)
    letter = a.ask("Got a letter from the streets superintendent on Monday, November 18 saying I have to repair the "
                   "broken sidewalk out front. What's the last day to get it done?", "williams")
    assert letter.status == "answered" and "November 29, 2030" in letter.answer, letter.answer
    # "every one of those days": each day a separate offense, 8 of them
    fines = a.ask("I was cited for leaving my sidewalk in disrepair and it took 8 more days to fix. If they counted every "
                  "one of those days, what's the most the fines could total?", "chagrin-falls")
    assert fines.status == "answered" and "$4,000.00" in fines.answer, fines.answer
    # a width "along" a length is an area
    curing = a.ask("New 4 ft wide walk along a 150 foot frontage. At the minimum rate in the spec, how much curing "
                   "compound do I need?", "chagrin-falls")
    assert curing.status == "answered" and "**3 gallons**" in curing.answer, curing.answer


# -- the public way named as "the block"; damage someone caused; a road opening permit --------------------------------
def test_mud_down_the_block_is_a_street_question(assistant):
    a = assistant.ask("The crew hauling dirt for my back yard job dropped mud all over the block from their truck. Who "
                      "has to clean it up?", municipality="brandon")
    assert a.status == "answered" and any(c.section == "404-17" for c in a.citations)


def test_damage_i_caused_is_not_a_defect(assistant):
    a = assistant.ask("Swinging my trailer around I cracked a piece of the public sidewalk. What do I have to do now?",
                      municipality="brandon")
    assert a.status == "answered" and a.citations[0].section == "404-18"
    assert "sidewalk_defect_check" not in _tools(a)


def test_a_road_opening_permit_is_the_excavation_permit(assistant):
    a = assistant.ask("What's the application fee for a road opening permit, and is it refundable?", municipality="delafield")
    assert a.citations and a.citations[0].title == "EXCAVATION IN PUBLIC RIGHT-OF-WAY"
    assert "non-refundable" in a.answer


# -- the same number "on each" side; insurance limits in words, each by the words after it ---------------------------
def test_owners_on_each_with_the_side_left_out(assistant):
    a = assistant.ask("The Village is putting a new sidewalk on our side; there's none on either side now. It costs "
                      "$12,000 and there are 8 property owners counting both sides, 4 on each. What's my share?",
                      municipality="brandon")
    assert a.status == "answered" and "$1,500.00" in a.answer


def test_worded_limits_each_named_by_the_words_after_it():
    from assistant.answering.slots import insurance_limits

    text = "Our policy is twenty thousand per person, thirty thousand per accident, and nine thousand for property damage."
    q = read_query(text)
    said = [(s.span.start, s.span.end, s.number) for s in q.slots if s.kind == "money"]
    limits = insurance_limits(text, said)
    assert {k: int(v) for k, v in limits.items()} == {"per_person_limit": 20000, "per_accident_limit": 30000,
                                                       "property_damage_limit": 9000}
    assert not [s for s in read_query("limit 4 per person").slots if s.kind == "money"]


def test_what_the_village_charges_for_a_permit_is_its_fee(assistant):
    a = assistant.ask("How much does the Village charge for the permit to replace my own sidewalk?", municipality="brandon")
    assert a.status == "not_stated" and "Village Board" in a.answer and "50%" not in a.answer


# -- the culvert deposit the Town's estimate sets, beside its day; a cost part's worded hundreds ---------------------------
def test_the_culvert_deposit_and_its_day(assistant, today):
    today("2029-07-11")
    a = assistant.ask("Town letter dated Monday July 16 (ref 2029-61) says they'll install a culvert under my existing "
                      "driveway at 118 Elm Ct; estimated cost is $1,340. How much do I have to put down and by when?",
                      municipality="delafield")
    assert a.status == "answered" and "$1,340.00" in a.answer and "July 26, 2029" in a.answer
    assert {"culvert_installation_deposit", "deadline"} <= set(_tools(a))


def test_a_pipe_bought_is_no_part_of_the_deposit(assistant):
    a = assistant.ask("New driveway in the Town of Delafield. I bought the culvert pipe myself for $380 and the "
                      "superintendent estimates $720 to install it. How much do I deposit with the application?",
                      municipality="delafield")
    assert a.status == "answered" and "**$720.00**" in a.answer and "$1,100" not in a.answer


def test_when_the_deposit_is_due_stays_the_deadline(assistant, today):
    today("2029-07-11")
    a = assistant.ask("The Town sent a letter dated July 16 that a culvert is needed at my existing driveway at my cost. "
                      "When is the deposit due?", municipality="delafield")
    assert _tools(a) == ["deadline"] and "July 26, 2029" in a.answer


def test_worded_hundreds_after_a_cost_part():
    slots_ = read_query("Labor twenty-one hundred, materials seven hundred twenty, equipment four-eighty.").slots
    assert [(s.value, s.span.text) for s in slots_ if s.kind == "money"] == [
        ("2100", "twenty-one hundred"), ("720", "seven hundred twenty"), ("480", "four-eighty")]
    assert not [s for s in read_query("labor four-eighty").slots if s.kind == "money"]  # alone: $4.80 or $480


# -- a slab measured in feet; a permit's day over a pour's wait; a walk's fall so it drains --------------------------------
def test_a_slab_measured_in_feet_gives_the_backfill_depth(assistant):
    a = assistant.ask("Cutting a concrete street in Brandon; the slab measured 0.8 ft thick at the cut. How far below the "
                      "surface does the backfill stop? In inches.", municipality="brandon")
    assert "pavement_patch_check" in _tools(a) and "**17.6 inches**" in a.answer  # 4 + 4 + 9.6


def test_the_permit_asked_is_the_permits_day_not_the_pours(assistant, today):
    today("2029-07-11")
    a = assistant.ask("My contractor will pour the new sidewalk squares a week from Friday. How late can we pull the "
                      "village permit?", municipality="brandon")
    assert a.status == "answered" and "July 18, 2029" in a.answer  # Friday July 20 less two days
    assert next(c for c in a.tool_calls if c.name == "deadline").arguments["rule"] == "brandon_sidewalk_permit"


def test_how_far_the_curb_edge_sits_below_is_the_walks_fall(assistant):
    a = assistant.ask("New residential walk, six and a half feet wide. What's the least the curb edge has to sit below "
                      "the back edge so it drains?", municipality="brandon")
    assert a.status == "answered" and "3.25 inches" in a.answer


def test_a_deposit_coming_back_is_no_culvert_deposit_and_a_bill_for_six_fifty_is_read(assistant):
    a = assistant.ask("When the Town put in my culvert I left a twelve hundred dollar cash deposit for the ditch "
                      "landscaping. They redid the ditch and sent me a bill for three-forty that I never paid, and it's "
                      "been over 30 days. How much of my deposit do I get back?", municipality="delafield")
    assert "culvert_installation_deposit" not in _tools(a)
    assert a.status == "answered" and "$860.00" in a.answer


def test_the_act_asked_after_a_condition_is_the_ones_day():
    from assistant.answering import periods

    sentence = ("The notice shall inform the holder that at the expiration of ten days from the receipt of the violation "
                "notice, the newsrack will be removed by the superintendent, unless the violation is corrected.")
    need = periods.day_needed("We got a violation notice on our newsrack. If we don't fix it, what date can the city "
                              "come take it away?", [], [sentence])
    assert need is not None and "receipt" in need.event


def test_the_period_timing_the_act_the_letter_tells_is_counted():
    from assistant.answering import periods

    letter = "Got a letter from the superintendent this past Monday saying I have to fix the broken sidewalk out front."
    turn = f"{letter} When's the deadline before the city does it and bills me?"
    notice = ("The Superintendent shall notify the owners of the premises to remove or repair within ten days from the "
              "receipt of such notice, all such obstructions from the sidewalks.")
    demand = ("If the claim of expenses or costs are not paid within 30 days from demand the notice and claim shall be "
              "recorded, and when recorded shall become a lien upon the property, which the city may foreclose.")
    sentence, m, _ = periods._tied_period(turn, [demand, notice], letter)
    assert sentence == notice and "ten days" in m.group(0)
