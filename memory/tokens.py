"""How many tokens a text costs, estimated the same way everywhere memory budgets."""

from __future__ import annotations

import math


def estimate_tokens(text: str) -> int:
    """About four characters a token: close enough to budget with, and needs no tokenizer."""
    return math.ceil(len(text) / 4)
