"""One term for one thing: where the English says "round" (a round of a game, scored at
its end) Swedish says "omgång" and Finnish "kierros"; where it says "deal" (one deal of
cards within a round) Swedish says "giv" and Finnish "jako", as the table does ("Omgång 1 ·
giv 1 av 6", "Kierros 1 · jako 1/6"). Checked word by word over every translated message."""

from __future__ import annotations

import re

import pytest

from bot.catalogue import translated

# "round robin" is a tournament's format; "to deal" the verb; a tournament's round is a
# "rond" in Swedish (chess and card tournaments alike), "kierros" in Finnish
EN_ROUND = re.compile(r"\brounds?\b(?! robin)", re.I)
EN_DEAL = re.compile(r"(?<!to )\bdeals?\b", re.I)
# "sampled deals of the cards you could not see": ways the hidden cards may lie, not deals
NOT_A_DEAL = ("sampled deals",)
TERMS = {
    "sv": (re.compile(r"\b(omgång|rond)", re.I), re.compile(r"\bgiv(en|et|ar|arna|ens)?\b", re.I)),
    "fi": (
        re.compile(r"\bkierro", re.I),
        re.compile(r"\b(jako|jaon|jaot|jaossa|jaosta|jaolla|jakoa|jakoon|jakojen|jaoissa)\b", re.I),
    ),
}


def texts(code: str) -> list[tuple[str, str]]:
    """Every translated message: the English and its translation (plural forms joined)."""
    found = []
    for ids, strings in translated(code):
        found.append((" ".join(ids), " ".join(strings)))
    return found


@pytest.mark.parametrize("code", sorted(TERMS))
def test_round_is_omgang_or_kierros_and_deal_is_giv_or_jako(code: str) -> None:
    round_word, deal_word = TERMS[code]
    wrong = []
    for english, said in texts(code):
        is_round = bool(EN_ROUND.search(english))
        is_deal = bool(EN_DEAL.search(english)) and not any(n in english for n in NOT_A_DEAL)
        if is_round and not round_word.search(said):
            wrong.append(("round, but not the word for it", english, said))
        if is_round and not is_deal and deal_word.search(said):
            wrong.append(("round, said as a deal", english, said))
        if is_deal and not deal_word.search(said):
            wrong.append(("deal, but not the word for it", english, said))
        if is_deal and not is_round and round_word.search(said):
            wrong.append(("deal, said as a round", english, said))
    assert not wrong, "\n".join(map(str, wrong))
