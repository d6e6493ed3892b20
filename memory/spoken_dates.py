"""Dates as players say them, in English and Portuguese: when a told fact stops being
true ("until 10 Jul", "até dia 10", "nas férias") and which day a line names ("12 de
junho"). Part of reading a chat line; the store keeps the day it is handed.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
} | {"fev": 2, "abr": 4, "mai": 5, "ago": 8, "set": 9, "out": 10, "dez": 12}
MONTH = (
    r"(?P<month>jan|feb|fev|mar|apr|abr|may|mai|jun|jul|aug|ago|sep|set|oct|out|nov|dec|dez)[a-zç]*"
)
UNTIL = re.compile(
    r"\b(?:until|till|through|até(?: (?:o )?dia)?)\s+(?:(?P<iso>\d{4}-\d{2}-\d{2})"
    r"|(?P<day>\d{1,2})(?:\s+(?:de\s+)?" + MONTH + r"|/(?P<month_number>\d{1,2}))?"
    r"|(?P<month2>[a-z]{3})[a-z]*\s+(?P<day2>\d{1,2}))",
    re.IGNORECASE,
)
# "in early July", "no começo de julho": a part of a month, taken to end on this day.
# A month alone is no end: "born in May" is the past.
PART_OF_MONTH = re.compile(
    r"\b(?P<part>early|mid|late|end of|começo de|início de|meados de|fim de|final de)[\s-]+"
    + MONTH
    + r"\b",
    re.IGNORECASE,
)
PART_ENDS = {"early": 10, "começo de": 10, "início de": 10, "mid": 20, "meados de": 20}
WEEK = re.compile(r"\b(this week|esta semana|essa semana|nesta semana|nessa semana)\b", re.I)
NEXT_WEEK = re.compile(r"\b(next week|semana que vem|próxima semana)\b", re.IGNORECASE)
DAY_WORDS = {"today": 0, "tonight": 0, "hoje": 0, "tomorrow": 1, "amanhã": 1, "amanha": 1}
DAY_WORD = re.compile(r"\b(" + "|".join(DAY_WORDS) + r")\b")
UNTIL_FINAL = re.compile(r"\b(until|till|through|até)\s+(the|a)\s+final\b", re.IGNORECASE)
HOLIDAY = re.compile(
    r"\b(on holiday|on vacation|nas férias|de férias|em férias|away on a trip|viajando)\b",
    re.IGNORECASE,
)
HOLIDAY_LENGTH = timedelta(days=14)  # a holiday told without dates lasts two weeks


def expiry_in(text: str, today: date, final: date | None = None) -> date | None:
    """When a fact told ``today`` stops being true, as people say it; None: it lasts.

    English and Portuguese: "until 10 Jul", "until July 10", "until 2026-07-10",
    "até dia 10", "até 10/7", "this week", "next week", "today", "tomorrow",
    "until the final" (``final``: the day of the tournament's last match),
    "in early July" (the 10th), "mid July" (the 20th), "late July" (its last day),
    "no começo de julho", "fim de julho", and a holiday told without dates
    ("nas férias", "on holiday": two weeks).
    """
    lowered = text.lower()
    found = UNTIL.search(lowered)
    if found:
        return _until(found, today)
    if UNTIL_FINAL.search(lowered):
        return final
    day = DAY_WORD.search(lowered)
    if day:
        return today + timedelta(days=DAY_WORDS[day[1]])
    if WEEK.search(lowered):
        return today + timedelta(days=6 - today.weekday())
    if NEXT_WEEK.search(lowered):
        return today + timedelta(days=13 - today.weekday())
    part = PART_OF_MONTH.search(lowered)
    if part:
        return _part_of_month(part, today)
    if HOLIDAY.search(lowered):
        return today + HOLIDAY_LENGTH
    return None


DAY = re.compile(r"\b(?P<day>\d{1,2})(?:\s+de)?\s+" + MONTH + r"\b", re.IGNORECASE)


def day_in(text: str, today: date) -> date | None:
    """The day ``text`` names ("12 Jun", "12 de junho"), in ``today``'s year; None if none."""
    found = DAY.search(text)
    if found is None:
        return None
    try:
        return date(today.year, MONTHS[found["month"][:3].lower()], int(found["day"]))
    except ValueError:
        return None


def _until(found: re.Match[str], today: date) -> date | None:
    try:
        if found["iso"]:
            return date.fromisoformat(found["iso"])
        if found["month2"]:
            month = MONTHS.get(found["month2"][:3])
            return date(today.year, month, int(found["day2"])) if month else None
        day = int(found["day"])
        if found["month"]:
            return date(today.year, MONTHS[found["month"][:3]], day)
        if found["month_number"]:
            return date(today.year, int(found["month_number"]), day)
        # "até dia 10": the next 10th from today
        month, year = today.month, today.year
        if day < today.day:
            month, year = (1, year + 1) if month == 12 else (month + 1, year)
        return date(year, month, day)
    except ValueError:
        return None


def _part_of_month(found: re.Match[str], today: date) -> date | None:
    month = MONTHS.get(found["month"][:3])
    if month is None:
        return None
    year = today.year + (1 if month < today.month else 0)
    last = calendar.monthrange(year, month)[1]
    return date(year, month, PART_ENDS.get((found["part"] or "").lower(), last))
