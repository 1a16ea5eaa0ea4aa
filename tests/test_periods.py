"""A day a quoted period gives from the user's one date, for codes without a deadline catalogue (periods.py)."""

from __future__ import annotations

from datetime import date

from assistant.answering import periods, phrasing
from assistant.answering.guards import invented_numbers
from assistant.answering.reading import read_slots

PARADE = "The applicant has submitted an application for a parade permit at least one month prior to the date of the parade;"
NOTICE = "The owner shall remove the weeds within ten days from the receipt of such notice."


def _count(question: str, sentences: list[str]):
    return periods.count_from(question, read_slots(question, ref=date(2026, 12, 2)), sentences)


def test_a_period_before_the_users_event_counts_back_on_the_calendar_and_says_so():
    (c,) = _count("Our parade is July 4, 2027. What's the last day to get the permit application in?", [PARADE])
    assert c.day == date(2027, 6, 4) and c.backward
    line = phrasing.period_counted(c)
    assert "**June 4, 2027**" in line and "not applied here" in line
    call = c.call()
    assert invented_numbers(line, [], [call["arguments"], call["result"]]) == []


def test_a_period_after_a_notice_counts_forward():
    (c,) = _count("We got the notice on March 3, 2027. By when must the weeds be gone?", [NOTICE])
    assert c.day == date(2027, 3, 13) and not c.backward


def test_nothing_counted_without_one_day_or_for_another_event_or_in_business_days():
    assert _count("What's the last day to apply for a parade permit?", [PARADE]) == []  # no date
    assert _count("Parade on July 4 or July 11, 2027: when must we apply?", [PARADE]) == []  # two dates
    assert _count("Our block party is June 20, 2027. When do we apply?", [NOTICE]) == []  # not the notice's event
    biz = "Apply within two business days after the receipt of the notice."
    assert _count("The notice came March 3, 2027. When must we apply?", [biz]) == []  # business days not guessed


def test_a_period_in_hours_counts_from_the_time_of_day_and_the_expiration_wording_counts_forward():
    snow = ("Snow and ice shall be so removed from sidewalks in all business districts within 24 hours after the "
            "cessation of all fall of snow, sleet or freezing rain.")
    (c,) = _count("The snow quit at 3:00 PM on Friday, December 4, 2026. When's the latest my walk has to be cleared?",
                  [snow])
    assert str(c.day) == "2026-12-05 15:00:00" and "December 5, 2026 3:00 PM" in phrasing.period_counted(c)
    assert "(“December 4, 2026”, “3:00 PM”)" in phrasing.period_counted(c)  # both words read are shown
    assert _count("The snow quit on Friday, December 4, 2026. When's the latest?", [snow]) == []  # no time of day
    expiry = ("If, at the expiration of ten days from the sending or service of the said notice, the owner has "
              "failed to comply, the Council shall order the work done.")
    (c,) = _count("The city sent the notice on Monday, November 23, 2026. What's the last day before they do it?",
                  [expiry])
    assert c.day == date(2026, 12, 3)


def test_counting_forward_from_the_one_date_when_the_act_asked_is_the_one_the_sentence_times():
    appeal = ("Any person aggrieved by the decision or action of the Chief Administrative Officer may appeal to the "
              "Board of Zoning Appeals within 10 days of such official action.")
    (c,) = _count("The CAO turned down my request on Friday, November 20, 2026. What's the last day I can file an "
                  "appeal?", [appeal])
    assert c.day == date(2026, 11, 30)
    # another act asked, with no word of the event: nothing counted
    assert _count("Our permit was issued on Friday, November 20, 2026. What's the last day to pave?", [appeal]) == []


SNOW = ("No owner ... shall place or suffer to remain in place for more than three (3) hours after snow fall has ended "
        "between sunrise and sunset any slush or any loose, granular, or packed snow upon such sidewalk.")


def test_a_time_of_day_in_words_and_what_time_asked_count_hours_after_the_event():
    (c,) = _count("It finally quit snowing around quarter past ten this morning. I've a dentist appt at noon. What "
                  "time do I have to have the walk done by?", [SNOW])  # the time said with the day, not the other
    assert c.day.hour == 13 and c.day.minute == 15 and c.day.date() == date(2026, 12, 2)


def test_next_years_holiday_is_next_years():
    (c,) = _count("Our VFW post wants to march on next year's Fourth of July. What's the latest we can get our "
                  "application in?", [PARADE])
    assert c.day == date(2027, 6, 4)


def test_next_weekday_with_two_readings_gives_the_day_for_each():
    snow = ("Snow and ice shall be so removed from sidewalks in all business districts within 24 hours after the "
            "cessation of all fall of snow, sleet or freezing rain.")
    got = _count("If the snow quits next Thursday around 4 in the afternoon, when's the latest the walk has to be "
                 "cleared?", [snow])
    assert [str(c.day) for c in got] == ["2026-12-04 16:00:00", "2026-12-11 16:00:00"]
    text = " ".join(phrasing.period_counted(c) for c in got)
    assert "If “next Thursday”, “4 in the afternoon” is December 3, 2026 4:00 PM" in text
    assert "December 10, 2026 4:00 PM" in text and "**December 11, 2026 4:00 PM**" in text
