"""Questions about two or more parties, each with its own values (assistant/answering/parties.py)."""

from __future__ import annotations

import pytest

from assistant.answering import plan as plans
from assistant.answering.parties import asked_about, split_parties

TWO = ("My neighbor and I both had the Town asphalt our driveways. I deposited $1,800 and the actual cost "
       "was $2,150. She deposited $2,000 and her actual cost was $1,640. ")


def test_values_one_party_to_a_sentence_split_with_the_shared_sentences():
    parties = split_parties(TWO + "Where does each of us stand?", ("$1,800", "$2,000"))
    assert [p.label for p in parties] == ["I deposited", "She deposited"]
    assert parties[0].text.startswith("My neighbor and I") and "$2,000" not in parties[0].text
    assert "$1,800" not in parties[1].text and parties[1].text.endswith("Where does each of us stand?")


@pytest.mark.parametrize("question, labels", [
    ("Where does each of us stand?", ["I deposited", "She deposited"]),
    ("What do both of us get back?", ["I deposited", "She deposited"]),
    ("What do I owe?", ["I deposited"]),
    ("What does she get back?", ["She deposited"]),
    ("What happens now?", []),  # neither each nor one named: ask
])
def test_the_question_picks_every_party_one_or_none(question, labels):
    text = TWO + question
    assert [p.label for p in asked_about(text, split_parties(text, ("$1,800", "$2,000")))] == labels


def test_values_not_worded_alike_are_not_parties():
    """A building's date beside the street's paving date is a distractor, not a second party."""
    text = ("I live on a big lot; the house was built in 1987. The Village repaved Main Street on June 10, 2024. "
            "What surcharge do I owe?")
    assert split_parties(text, ("1987", "June 10, 2024")) is None


def test_values_in_one_sentence_or_a_question_sentence_are_left_to_the_question():
    assert split_parties("The first was approved May 3 and the second June 4. Through what date is each valid?",
                         ("May 3", "June 4")) is None
    assert split_parties("I paid $600. Was it $600 or $900 I owe?", ("$600", "$900")) is None


def test_each_party_gets_its_own_calculation(assistant):
    q = ("Two permittees ignored our notices about faulty street patches, so the Village fixed both. For Kessler "
         "Excavating we spent $600 labor, $250 materials and $150 equipment. For Northway Utilities it was $820 "
         "labor, $95.50 materials and $310 equipment. What does each get billed?")
    plan, _ = assistant.embedded.plan(q, "brandon")
    assert isinstance(plan, plans.Several) and len(plan.parts) == 2
    answer = assistant.ask(q, "brandon")
    assert answer.status == "answered" and len(answer.tool_calls) == 2
    assert "$1,200.00" in answer.answer and "$1,470.60" in answer.answer  # (600+250+150) x 1.2; (820+95.50+310) x 1.2
    assert answer.answer.index("Kessler") < answer.answer.index("$1,200.00") < answer.answer.index("Northway")


def test_one_party_asked_about_is_calculated_alone_and_said(assistant):
    answer = assistant.ask(TWO + "What do I owe?", "delafield")
    assert answer.status == "answered" and len(answer.tool_calls) == 1
    assert "$350.00" in answer.answer and "$360.00" not in answer.answer
    assert any("more than one party" in n for n in answer.notes)


def test_a_distractor_year_of_a_building_is_not_the_paving_date(assistant):
    answer = assistant.ask("I live at 1418 Main Street; the house was built in 1987. The Village repaved Main Street "
                           "on June 10, 2024. I'm opening the street on August 20, 2026 and the permit fee is $120. "
                           "What surcharge do I owe?", "brandon")
    assert answer.status == "answered" and "$360.00" in answer.answer  # 2 years 2 months: 3 times


def test_a_clarifying_question_quotes_the_provision_it_will_apply(assistant):
    answer = assistant.ask("Our street opening permit has two dates on it, April 5, 2027 and April 9, 2027, and "
                           "neither is labeled. Through what date is it valid?", "brandon")
    assert answer.status == "clarify"
    assert "date the permit was approved" in answer.answer  # asked by the rule's own event
    assert "30 days from the date of approval" in answer.answer and answer.citations
    assert answer.citations[0].section == "404-6"


@pytest.mark.parametrize("question, figure", [
    ("Permit fee for our opening was a hundred twelve dollars and a quarter, and the street's final paving will be "
     "a year and a half old when we open it. What's the surcharge?", "$449.00"),  # 4 times $112.25
    ("The pavement on our street is 8 months old. We open it on March 3, 2027 and the permit fee is $100. "
     "What's the surcharge?", "$500.00"),  # 11 months old on the opening day: 5 times
])
def test_a_surcharge_from_the_pavings_age_says_the_date_it_worked_out(assistant, question, figure, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-01")
    answer = assistant.ask(question, "brandon")
    assert answer.status == "answered" and figure in answer.answer
    assert "final paving date" in answer.answer and "before" in answer.answer


@pytest.mark.parametrize("question, muni, asked", [
    ("Our subcontractor's schedule has the opening starting Tuesday, March 9, 2027 at 7:30 AM, but our permit "
     "application says Thursday, March 11, 2027 at 7:00 AM. When must the written notice reach the Highway "
     "Commission?", "delafield", ("March 9, 2027", "March 11, 2027")),
    ("For my asphalt apron the Superintendent first estimated $2,640.00 and later revised it to $2,895.00; I paid the "
     "deposit at the estimate. The Town's final cost is $2,731.20. Do I owe money or get some back?", "delafield",
     ("$2,640.00", "$2,895.00")),
])
def test_values_the_words_set_against_each_other_are_asked_about(assistant, question, muni, asked, monkeypatch):
    """'X, but Y says Z', 'revised to', 'his ... and mine ...': whichever one a reading of roles would
    pick, the other competes for the same input; a figure from either would be a guess."""
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-01")
    answer = assistant.ask(question, muni)
    assert answer.status == "clarify" and not answer.tool_calls
    assert all(f"“{a}”" in answer.answer for a in asked)


@pytest.mark.parametrize("question, muni, figures, labels", [
    # "his ... and mine ...": whose each figure is, worded alike; "What do I owe?" asks about mine only
    ("Each of us deposited $1,950.00 for the Town's asphalting. His actual cost came to $2,214.35 and mine to "
     "$1,781.90. What do I owe?", "delafield", ["$168.10"], ["mine to $1,781.90"]),  # (read by person, session 35)
    # "$4,100 for mine and $2,850 for hers": a figure, then whose it is; "each of us" asks about both
    ("My sidewalk and my neighbor's are both being reconstructed. The village estimate is $4,100 for mine and $2,850 "
     "for hers. What is each of us assessed?", "brandon", ["$2,050.00", "$1,425.00"], ["$4,100 for mine", "$2,850 for hers"]),
])
def test_parties_named_by_whose_figure_it_is(assistant, question, muni, figures, labels, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-01")
    answer = assistant.ask(question, muni)
    assert answer.status == "answered", answer.answer
    assert all(f in answer.answer for f in figures) and all(f"“{lab}”" in answer.answer for lab in labels)
    if len(figures) == 1:
        assert "$2,214.35" not in answer.answer.split("I read:")[1].split("\n")[0]  # his figure is not read as mine


def test_parties_one_to_a_clause_of_one_sentence(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-01")
    answer = assistant.ask("Two utilities had emergency excavations without permits: the water utility dug up a broken "
                           "main on Friday, January 15, 2027, and the gas company dug on Thursday, December 24, 2026. "
                           "By what date must each apply for its excavation permit?", "brandon")
    assert answer.status == "answered" and len(answer.tool_calls) == 2
    assert [c.arguments["excavation"] for c in answer.tool_calls] == ["2027-01-15", "2026-12-24"]


def test_a_repair_part_named_without_an_amount_is_asked_for_never_zero(assistant):
    answer = assistant.ask("We had to fix a permittee's deficient restoration ourselves: labor ran two grand, and "
                           "materials and equipment too. What's the bill?", "brandon")
    assert answer.status == "clarify" and "materials" in answer.answer and not answer.tool_calls
    # amounts the part's name cues, without "dollars", are read (and shown)
    answer = assistant.ask("We had to fix a permittee's deficient restoration ourselves: labor ran two grand, materials "
                           "seven hundred fifty, and equipment a thousand and fifty. What's the bill?", "brandon")
    assert answer.status == "answered" and "$4,560.00" in answer.answer and "(“seven hundred fifty”)" in answer.answer
    answer = assistant.ask("The Village repaired the faulty work: $900 labor and $300 materials. No equipment was used. "
                           "What's the bill?", "brandon")
    assert answer.status == "answered" and "$1,440.00" in answer.answer  # (900 + 300) x 1.2


def test_a_listed_off_topic_word_does_not_veto_a_question_a_provision_answers_closely(assistant):
    """'zoning' is a default off-topic word; here it is a detail beside a snow question."""
    answer = assistant.ask("We are in a commercial zoning district. How long after the end of a snow event do we have "
                           "to clear the snow and ice from our sidewalk?", "brandon")
    assert answer.status == "answered" and any(c.section == "404-10" for c in answer.citations)
    assert assistant.ask("What is the zoning setback for a garage?", "brandon").status == "out_of_scope"


def test_a_permits_cost_is_no_assessment_to_compute(assistant):
    answer = assistant.ask("How much does the permit cost to replace a couple of sidewalk squares myself?", "brandon")
    assert not answer.tool_calls and "the assessment is a share of it" not in answer.answer


def test_the_closeness_that_lifts_an_off_topic_word_is_the_turns_own(assistant):
    """A follow-up 'And what's my property tax rate?' is not lifted by the earlier turn's close topic."""
    from assistant.types import ChatTurn

    first = "How much of the sidewalk reconstruction cost do I pay?"
    history = [ChatTurn(role="user", content=first),
               ChatTurn(role="assistant", content=assistant.ask(first, "brandon").answer)]
    assert assistant.ask("And what's my property tax rate?", "brandon", history).status == "out_of_scope"


def test_either_and_which_ask_about_every_party_even_when_a_figure_repeats_across_them(assistant):
    answer = assistant.ask("Two contractors sent insurance certificates for street openings. Rivera Excavating: public "
                           "liability $1,000,000 per person and $750,000 property damage. Beaumont Utilities: "
                           "$2,000,000 per person and $1,000,000 property damage. Does either fall short, and by how "
                           "much?", "brandon")
    assert answer.status == "answered" and len(answer.tool_calls) == 2
    assert "$250,000.00" in answer.answer  # Rivera's property damage: $1,000,000 required, $750,000 shown


@pytest.mark.parametrize("question, muni, figures", [
    # a length its own words give another measure ("16 feet wide", "60 feet long") is no rival
    ("Proposed driveway climbs 9 feet over 80 feet of run, 16 feet wide, paved. What's the grade?", "delafield",
     ("11.25%",)),
    ("The new walk will be 5 feet wide, 60 feet long and 4 inches thick. How much lower does the street-side edge "
     "have to be than the house-side edge?", "brandon", ("2.5 inches",)),
    # a head count whose noun comes after describing words, the rate given once for each
    ("I was out of town and the village cleared my corner lot. Bill says two public works guys spent an hour and "
     "forty-five minutes, and their rate with benefits is $38.50 an hour each. What should the total be with the "
     "village's fee on top?", "brandon", ("$159.75",)),
    # a day to act before a dated event: never a period counted after it
    ("We'll have to cut water to six houses on Elm St at 9:00 AM on Monday, December 28, 2026 to tie in the new main. "
     "What's the latest we can let those homeowners know?", "brandon", ("December 26, 2026 9:00 PM",)),
    # a sum held settled against a cost, the deposit in words
    ("I used the Town's asphalt service for my drive. Deposited two thousand nine hundred dollars, and the actual "
     "cost ended up $2,415.50. Do I get something back?", "delafield", ("$484.50",)),
    ("When we pulled our building permit we posted a $1,500 guarantee because there's curb and gutter out front. The "
     "Town fixed a cracked gutter section and billed us $640, which we never paid, and it's been over 30 days. What "
     "do we get back?", "delafield", ("$860.00",)),
    # one day named twice is no choice
    ("We dug at 3 AM on New Year's Day, Friday January 1, 2027. What's the last day to file and still skip the "
     "permit fee?", "brandon", ("January 5, 2027",)),
])
def test_values_read_in_their_roles_give_the_figure(assistant, question, muni, figures, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-03")
    answer = assistant.ask(question, muni)
    assert answer.status == "answered", answer.answer
    assert all(f in answer.answer for f in figures), answer.answer


@pytest.mark.parametrize("question, muni, asked", [
    ("We open Birch Lane on June 15, 2027, permit fee 80 bucks. One neighbor swears the final paving was August "
     "2022, the other says August 2024. What surcharge do we pay?", "brandon", ("August 2022", "August 2024")),
    ("Water service blew out Thursday night Jan 7, 2027. My foreman says we cut the street at 11:45 PM, the dispatch "
     "log says 12:10 AM Friday. What's the last day to file so we don't pay the permit fee?", "brandon",
     ("11:45 PM", "12:10 AM")),
    ("Setting forms for a homeowner's walk. The plans say 5 ft wide but the homeowner keeps telling me she wants 6. "
     "How much cross-fall do I build into it?", "brandon", ("5 ft", "6")),
])
def test_two_accounts_of_one_value_are_asked_about(assistant, question, muni, asked, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-03")
    answer = assistant.ask(question, muni)
    assert answer.status == "clarify" and not answer.tool_calls, answer.answer
    assert all(f"“{a}”" in answer.answer for a in asked)


def test_a_time_of_day_said_with_its_part_of_the_day_is_read_and_shown(assistant, monkeypatch):
    """'the snow should quit tomorrow night around 9': the hour after 'night around' is 9 PM, counted
    from the day 'tomorrow' names, and the answer shows both words it read."""
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-04")
    answer = assistant.ask("Forecast says the snow should quit tomorrow night around 9. If it does, what's the latest "
                           "I can have my walk shoveled?", "brandon")
    assert answer.status == "answered" and answer.tool_calls[0].arguments["event"] == "2026-12-05T21:00:00"
    assert "(“tomorrow”, “night around 9”)" in answer.answer and "December 7, 2026 9:00 PM" in answer.answer


def test_a_window_of_dates_asked_reaches_the_deadline_calculator(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-04")
    answer = assistant.ask("The Board wants a public hearing on a chapter 8 amendment on Thursday, April 15, 2027. "
                           "What is the window of dates for the hearing notice?", "delafield")
    assert answer.status == "answered" and answer.tool_calls and answer.tool_calls[0].name == "deadline"
    assert "March 16, 2027" in answer.answer and "April 5, 2027" in answer.answer


def test_each_ask_of_a_question_of_two_gets_its_own_sentence(assistant):
    answer = assistant.ask("If the Village finds stuff blocking my sidewalk, how long do I get to clear it, and once "
                           "they haul it off themselves, how long do I have to pay their bill?", "brandon")
    assert answer.status == "answered"
    assert "24 hours" in answer.answer and "10 calendar days" in answer.answer


def test_a_length_of_frontage_is_no_rival_for_a_width_across(assistant):
    """'66 feet of frontage' is a length along the street; 'a walk 5 feet across' is the width asked."""
    answer = assistant.ask("House was built in 1954, 66 feet of frontage, three big maples out front. I'm pouring a "
                           "new walk that's 5 feet across. How much lower does the street side edge need to be than "
                           "the house side edge?", "brandon")
    assert answer.status == "answered" and "I read: width 5 feet" in answer.answer
    from assistant.answering.slot_safety import dimension
    from assistant.answering.reading import read_slots

    assert [dimension(s) for s in read_slots("66 feet of frontage and a walk 5 feet across")] == ["length", "width"]


def test_a_surcharge_asked_as_what_extra_is_paid_on_top_of_the_fee(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-04")
    answer = assistant.ask("The street got its final blacktop on August 20, 2024. We need to cut it on June 8, 2027. "
                           "The permit fee is $75. What extra do we pay on top of the fee?", "brandon")
    assert answer.status == "answered" and "**$225.00**" in answer.answer


def test_a_letter_that_got_here_was_received():
    from assistant.retrieval.expansion import expand

    assert "received" in expand("The letter got here last Tuesday")
    assert "received" not in expand("I got a permit on May 3")


def test_a_sign_off_of_the_backfill_is_the_approval_of_the_filling(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-04")
    answer = assistant.ask("The Town signed off on our backfill and resurfacing of the trench on Monday, December 14, "
                           "2026. Until what date are we on the hook if it settles?", "delafield")
    assert answer.tool_calls and answer.tool_calls[0].arguments["rule"] == "delafield_settlement_responsibility"


def test_two_parties_in_one_sentence_asked_about_each(assistant):
    """'the pickup comes to 5,200 lbs, the trencher is 7,100 lbs. Which one needs the permit?': a comma between
    two clauses, each with its subject and figure, and a question about each: one calculation per party."""
    answer = assistant.ask("I've got two rigs for a job on a town road: the pickup with the mini-ex comes to 5,200 "
                           "lbs, the tracked trencher is 7,100 lbs. Which one needs the town's permit?", "delafield")
    assert answer.status == "answered" and len(answer.tool_calls) == 2
    assert "2.6 tons" in answer.answer and "3.55 tons" in answer.answer
    assert answer.answer.count("I read:") == 2  # each party's reading is shown (and its words may be echoed)
