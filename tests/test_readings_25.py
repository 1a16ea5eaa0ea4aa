"""Session 25: readings that decide a figure, on any question.

Two parties asked about "each of us" get one figure each (a value of the same kind left unread is the other party's,
"and for his it's $1,870", ", hers came to $1,845.25", "and another plumber ... he wrapped up August 16"); a
consequence asked beside a worked figure quotes what the worked section makes follow a failure; "who do I have to tell"
of a dated start gives the start notices; a limit the user tells after a dash or colon is no measurement; with no
municipality named and codes that differ, which code is asked before any value; rules the data gives together are
worked together; an amount cued by "put down ... as a deposit" or "came in at" is money; "within 100' of each end" is a
distance; "impounded" finds "removal".
"""

from __future__ import annotations

from decimal import Decimal


from assistant.answering import limits, parties, slot_safety
from assistant.answering.reading import read_query, read_slots
from assistant.retrieval.expansion import expand
from assistant.tools.deadlines import rules


def test_each_of_us_with_a_second_amount_for_his_gets_a_figure_each(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("The Village is replacing the broken walk along our lot and along the Hansens' lot too. The "
                        "estimate for our frontage is $2,600 and for theirs it's $1,480. What does each of us pay?",
                        "brandon")
    assert ans.status == "answered"
    assert "$1,300.00" in ans.answer and "$740.00" in ans.answer


def test_another_party_doing_its_own_is_not_a_second_account():
    assert slot_safety._set_against(", the other ") == "accounts"
    assert slot_safety._set_against(" and my wife says ") == "accounts"
    assert slot_safety._set_against(", and another plumber for a sewer lateral he wrapped up ") != "accounts"


def test_two_contractors_days_each_get_their_own_deadline(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("Two of us crossed the roadside ditch in the Town -- me for a septic repair that I finished "
                        "on January 4, 2028, and another contractor for a well job he completed on January 10, 2028. "
                        "What's the ditch repair deadline for each of us?", "delafield")
    assert ans.status == "answered"
    assert "February 3, 2028" in ans.answer and "February 9, 2028" in ans.answer


def test_a_possessive_standing_for_its_noun_opens_a_clause():
    assert parties.clauses("My final cost came to $2,310, hers came to $1,845.25.") == \
        ["My final cost came to $2,310", "hers came to $1,845.25."]


def test_a_consequence_asked_beside_a_worked_deadline_quotes_what_follows_a_failure(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("Our truck had to cross the Town ditch to reach a septic tank we replaced; the job wrapped up "
                        "on Friday, January 14, 2028. When is the ditch repair due, and what if we miss it?", "delafield")
    assert ans.status == "answered"
    assert "February 14, 2028" in ans.answer  # (January 14 + 30 = Sunday, February 13: moved to Monday)
    assert "further plumbing permit" in ans.answer.split("On the rest of the question")[1]


def test_whom_to_tell_before_a_dated_start_gets_the_start_notices(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("Our excavation under the street opening permit starts at 8 AM on Thursday, June 8, 2028. Who "
                        "has to be notified beforehand, and by when for each?", "brandon")
    assert ans.status == "answered"
    # the 24 hours to the Director of Public Works, and the one business day to the Clerk and everyone affected
    assert "Latest moment: **June 7, 2028 8:00 AM**" in ans.answer and "Latest day: **June 7, 2028**" in ans.answer


def test_a_limit_told_after_a_dash_or_colon_is_no_measurement():
    q = read_query("The posted limit on our road: 6 tons. Our dump truck weighs 16,000 lbs loaded. Are we over?")
    weights = [s for s in q.slots if s.kind == "weight"]
    told = [s for s in weights if limits.told_limit(s)]
    assert [s.span.text for s in told] == ["6 tons"]


def test_with_no_municipality_named_which_code_is_asked_before_a_value(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("Our house got its address a few days ago. How tall do the numbers need to be and how long do "
                        "we have to put them up?", None)
    assert ans.status == "clarify"
    assert "Brandon" in ans.answer and "Delafield" in ans.answer


def test_rules_the_data_gives_together_are_worked_together(assistant, monkeypatch):
    assert "brandon_emergency_fee_waiver" in rules()["brandon_emergency_apply"].together
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("We had an emergency water main dig on Friday, February 18, 2028 with no permit. When is the "
                        "last day to file so there's no permit fee?", "brandon")
    assert ans.status == "answered"
    # the fee waiver's two business days and the duty to apply by the next business day (Presidents' Day skipped)
    assert "February 23, 2028" in ans.answer and "February 22, 2028" in ans.answer


def test_an_amount_put_down_as_a_deposit_or_that_came_in_at_is_money():
    got = {(s.kind, s.value) for s in read_slots("I put down fifteen hundred as a deposit. The bill came in at two "
                                                 "thousand one hundred.")}
    assert ("money", "1500") in got and ("money", "2100") in got


def test_within_a_distance_of_each_end_holds_a_length_in_yards():
    q = read_query("The sign went up 40 yards from the end of the bridge. Is that close enough?")
    sentence = ("Any temporary weight limitation with reference to any bridge or culvert shall be imposed by erecting "
                "similar signs within 100' of each end of the bridge or culvert.")
    checks = limits.check_against(q.turn, q.of_origin("turn"), [sentence])
    assert len(checks) == 1
    assert checks[0].measured_value == 120 and checks[0].difference == 20 and not checks[0].passes


def test_impounded_finds_the_codes_removal():
    assert "removal" in expand("Our crew impounded a batch of carts on Thursday.")
    assert "removal" in expand("City workers rounded up a bunch of our carts last Friday.")


def test_road_lengths_of_another_scale_than_the_layers_are_no_figures_of_the_users(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("Our subdivision road is about 900 ft long with a 250 ft soggy stretch the Town Board calls "
                        "seasonably wet. There, how much stone goes down in total, and how thick is everything once "
                        "the first asphalt lift is on?", "delafield")
    assert ans.status == "answered"
    assert "16 inches" in ans.answer and "18.5 inches" in ans.answer


def test_a_layer_the_user_names_as_the_working_does_is_no_figure_of_their_own(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("The Town Board wants the extra no. 2 stone under the aggregate in our seasonably wet stretch, "
                        "the engineer says half a foot of it. With the two aggregate lifts and the first blacktop lift, "
                        "how thick is the whole thing?", "delafield")
    assert ans.status == "answered"
    assert "18.5 inches" in ans.answer


def test_worded_widths_of_the_walk_and_the_street_for_building_materials(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("We'd like to stack bricks out front during the remodel. The walk is nine feet wide and the "
                        "traveled part of the street is thirty feet curb to curb. How much of each can building "
                        "materials cover?", "brandon")
    assert ans.status == "answered"
    assert "4.5 feet" in ans.answer and "10 feet" in ans.answer


def test_the_other_ones_dollar_amount_after_a_rate_is_a_rate_too():
    q = read_query("Two workers, 2 hours each: one makes $31.50 an hour with benefits and the other $27.25 with "
                   "benefits. What's the bill?")
    rates = [(s.value, s.unit) for s in q.slots if s.kind == "money"]
    assert rates == [("31.5", "USD/hour"), ("27.25", "USD/hour")]


def test_visits_on_different_days_are_never_one_crew_on_one_occasion(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("The Village cleared a walk twice for an absent owner. December 12: one employee, 2 hours at "
                        "$36 an hour with benefits. January 9: two employees, 1 hour each at $36 an hour with benefits. "
                        "What is the total to bill?", "brandon")
    assert ans.status == "clarify"
    assert "**" not in ans.answer  # no figure worked out


def test_a_weekday_and_day_of_month_take_the_month_the_text_names(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-05-12")
    days = [s.value for s in read_query("Back in February the snow quit at night on Tuesday the 16th. When was I due?").slots
            if s.kind == "date" and s.precision == "day"]
    assert days == ["2027-02-16"]  # (not March 16, 2027, the nearer Tuesday the 16th)


def test_a_relative_day_restated_in_brackets_by_its_date_is_that_date(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-05-12")
    days = [s.value for s in read_query("The snow stopped at 10:30 this morning (Tuesday, February 2, 2027). By what "
                                        "time must it be cleared?").slots if s.kind == "date"]
    assert days == ["2027-02-02"]


def test_todays_date_written_out_is_the_day_a_late_fine_is_paid(monkeypatch):
    from datetime import date

    from assistant.answering import late_fines

    monkeypatch.setenv("ASSISTANT_TODAY", "2027-05-12")
    turn = "I got a ticket on April 10, 2027 and never paid it. If I pay it today (May 12, 2027), how much do I owe?"
    section = ("The fine for each violation shall be fifty dollars ($50.00). This fine shall increase by twenty dollars "
               "($20.00) if it remains unpaid at least twenty-one (21) days after issuance of a notice of the violation.")
    worked = late_fines.owed(turn, read_query(turn).of_origin("turn"), [(section.split(". ")[1], section)],
                             date(2027, 5, 12))
    assert worked is not None and worked.result == 70


def test_walking_on_new_concrete_finds_foot_traffic():
    assert "foot traffic" in expand("They poured the walk Tuesday. When can we walk on it?")
    assert "auto traffic" in expand("When can I drive on the new apron?")


def test_how_long_have_i_got_of_a_dated_notice_asks_its_last_day():
    from assistant.answering import periods

    assert periods.ASKS_A_DAY.search("The notice came on June 24. How long have I got?")
    assert periods.ASKS_A_DAY.search("How much time do we have?")
    assert periods.ASKS_A_DAY.search("The demand is dated August 2. How long before they can put a lien on it?")
    assert not periods.ASKS_A_DAY.search("How long is the permit?")


def test_a_period_set_for_one_case_beside_an_alike_case_is_not_counted_when_neither_is_said(monkeypatch):
    from assistant.answering import periods

    monkeypatch.setenv("ASSISTANT_TODAY", "2027-05-12")
    one = ("Snow and ice shall be so removed from sidewalks in all business districts within the city within 24 hours "
           "after the cessation of all fall of snow, sleet or freezing rain.")
    other = ("Snow and ice shall be so removed from all other sidewalks within the city on the same day of the "
             "cessation of any fall of snow, sleet or freezing rain within the first six hours of daylight after the "
             "cessation of any such fall, whichever period is longer.")
    unsaid = "The snow quit at 3 PM on May 10, 2027. By when must the walk be cleared?"
    said = "My shop is in the business district. The snow quit at 3 PM on May 10, 2027. By when must the walk be cleared?"
    assert periods.count_from(unsaid, read_query(unsaid).of_origin("turn"), [one, other]) == []
    counted = periods.count_from(said, read_query(said).of_origin("turn"), [one, other])
    assert len(counted) == 1 and counted[0].day.day == 11


def test_an_added_codes_periods_walk_on_it_planks_after_and_an_unsaid_case(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-09-27")
    a = with_samples("chagrin-falls", "williams", "somerville")
    first = "We pour the new walk out front on Monday, October 2, 2028 at 9:00 AM. When can people walk on it?"
    walk = a.ask(first, "chagrin-falls")
    assert walk.status == "answered" and "October 4, 2028 9:00 AM" in walk.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": walk.answer}]
    planks = a.ask("And cars over it at the driveway: planks until what date?", "chagrin-falls", history)
    assert planks.status == "answered" and "October 9, 2028" in planks.answer
    assert "October 4, 2028 9:00 AM" in planks.answer  # ("for forty-eight hours and then only on planks for seven days")
    # business districts have one period, all other sidewalks another: unsaid, no day is counted (both are quoted)
    snow = a.ask("It quit snowing at 3 PM on October 1, 2028. By when do I have to have my sidewalk shoveled?",
                 "williams")
    assert "**" not in snow.answer and "business districts" in snow.answer
    # what skipping a permit brings, asked beside whether one is needed: the section's own penalty sentences
    skip = a.ask("Our contractor wants a roll-off dumpster on the street during our bathroom remodel. Do we need a "
                 "permit, and from whom? What happens if we skip it?", "somerville")
    assert skip.status == "answered" and "separate offense" in skip.answer and "penalties" in skip.answer


def test_a_share_of_a_count_is_made_whole_the_way_its_bound_says():
    from assistant.answering import portions

    sentence = ("The applicant has submitted a petition, signed by not less than 70% of the residents abutting the "
                "property to be used.")
    turn = "There are 23 residents along the block. How many have to sign?"
    got = portions.share_of_count(turn, read_query(turn).of_origin("turn"), [sentence])
    assert len(got) == 1 and got[0].value == 17 and got[0].rounded == "up" and got[0].raw == Decimal("16.1")
    assert got[0].words == "not less than 70% of the residents abutting"
    even = "There are 20 residents along the block. How many have to sign?"
    assert portions.share_of_count(even, read_query(even).of_origin("turn"), [sentence])[0].value == 14
    # no number asked, or no bound to say which way an uneven share is made whole: nothing worked out
    assert portions.share_of_count("There are 23 residents. Do we need a petition?", [], [sentence]) == []
    loose = "A petition of 70% of the residents is needed."
    assert portions.share_of_count(turn, read_query(turn).of_origin("turn"), [loose]) == []


def test_one_side_of_a_pair_is_not_held_alone_against_a_limit():
    sentence = "House numbers displayed on mailboxes must be placed at a height between 2' and 8' above the finished grade."
    pair = read_query("Our new number plates are 3 x 4 inches. Big enough?")
    assert limits.check_against(pair.turn, pair.of_origin("turn"), [sentence]) == []
    one = read_query("We put the numbers 18 inches above the grade. Is that high enough?")
    assert len(limits.check_against(one.turn, one.of_origin("turn"), [sentence])) == 1


def test_asked_about_the_asker_and_another_gets_a_figure_each(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("The Village redid the broken walk along my lot and along my neighbor's. My estimate was $2,900 "
                        "and hers was $2,300. How much do I pay and how much does she pay?", "brandon")
    assert ans.status == "answered"
    assert "$1,450.00" in ans.answer and "$1,150.00" in ans.answer


def test_asks_listed_with_commas_and_one_after_its_condition():
    from assistant.answering.planner import asked_parts

    assert asked_parts("Can we challenge it, how long do we get to do the work, and if the village does it what share "
                       "of the bill is ours?") == ["Can we challenge it", "how long do we get to do the work",
                                                   "what share of the bill is ours"]
    assert asked_parts("If it snows on Friday night, when do I have to clear it?") == []


def test_a_follow_up_asking_how_to_get_a_deposit_back_asks_no_amount(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    first = "We need a driveway culvert on a Town road. How much is the deposit for the ditch landscaping?"
    one = assistant.ask(first, "delafield")
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": one.answer}]
    back = assistant.ask("and how do we get that back when the work is finished?", "delafield", history)
    assert back.status == "answered"
    assert "return of the financial guarantee" in back.answer


def test_each_ask_of_a_lookup_gets_its_own_provision(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("A plat in the Town names a new street 'Lakeview Court' but there's already a Lakeview Road. Is "
                        "that allowed, and who has the final say on the names of new streets?", "delafield")
    assert ans.status == "answered"
    assert "accept or reject proposed names" in ans.answer and "duplication" in ans.answer


def test_tons_and_pounds_written_together_are_one_weight():
    got = [(s.value, s.span.text) for s in read_slots("The loaded truck is 6 tons 500 lbs on the scale ticket.")
           if s.kind == "weight"]
    assert got == [("6.25", "6 tons 500 lbs")]
    two = [s.value for s in read_slots("A 6 ton limit and a 7,000 lb truck.") if s.kind == "weight"]
    assert two == ["6", "3.5"]


def test_holidays_by_their_short_names(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-03-08")
    for said in ("MLK Day", "Martin Luther King Jr. Day"):
        assert [s.value for s in read_slots(f"The snow quit on {said}.") if s.kind == "date"] == ["2029-01-15"]
    assert [s.value for s in read_slots("It was President's Day.") if s.kind == "date"] == ["2029-02-19"]


def test_a_persons_age_is_no_period_of_the_case():
    for said in ("My 8-year-old son shovels it.", "I'm 72 years old.", "My neighbor, who is 80 years old, can't shovel."):
        assert [s for s in read_slots(said) if s.kind == "duration"] == []
    assert [s.value for s in read_slots("The pavement is 3 years old.") if s.kind == "duration"] == ["3"]
