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

import pytest

from assistant.answering import limits, parties, slot_safety
from assistant.answering.assistant import Assistant
from assistant.answering.reading import read_query, read_slots
from assistant.retrieval.expansion import expand
from assistant.settings import Settings
from assistant.tools.deadlines import rules


@pytest.fixture(scope="module")
def assistant(tmp_path_factory):
    return Assistant.load(settings=Settings(data_dir=tmp_path_factory.mktemp("data")))


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
    assert "plumbing permit" in ans.answer


def test_whom_to_tell_before_a_dated_start_gets_the_start_notices(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-01-26")
    ans = assistant.ask("Our excavation under the street opening permit starts at 8 AM on Thursday, June 8, 2028. Who "
                        "has to be notified beforehand, and by when for each?", "brandon")
    assert ans.status == "answered"
    assert "June 7, 2028 8:00 AM" in ans.answer and "June 7, 2028" in ans.answer
    assert ans.answer.count("Latest") >= 2


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
