"""Retention of clarification summaries (seed 004 §3.1): 18 months from their date; erased where
today > retention_until (strictly: on the day itself it is kept)."""

from __future__ import annotations

import calendar
from datetime import date

RETENTION_MONTHS = 18


def add_months(day: date, months: int) -> date:
    total = day.month - 1 + months
    year, month = day.year + total // 12, total % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def retention_until(day: date) -> date:
    return add_months(day, RETENTION_MONTHS)


def expired(retention: date, today: date) -> bool:
    return today > retention
