"""Who gives to whom, in Chinese: the two parties of a payment, a compensation or a hand-over swapped
across its marker ("顾客需要按发票价格赔给本店" against "由本店按发票价格赔偿给顾客"; "鱼塘按每斤15元付给钓友"
against "由钓友按每斤15元向鱼塘付费"). The marker is 给 or 向 (placed before or after the verb: "付给乙方",
"向乙方支付"), so a statement and its evidence may each word the hand-over in its own way; 向 before a verb of
taking ("向顾客收取") names the giver instead. traded_sides.py reads one preposition before one verb only.
``contradiction`` reads a swap as swapped roles."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragpipe.core.evidence.agreement import words
from ragpipe.core.text import is_chinese

_CLAUSE = re.compile(r"[，。；：！？,;:!?\s]")
_HAN = re.compile(r"[\u4e00-\u9fff]+")
# 给 and 向 in words that name no party: "供给", "自给", "给力"; "方向", "面向", "一向", "倾向", "向上"...
_NOT_MARKER = re.compile(r"[供自]给|给力|[方面一志倾动导去走转趋意风]向|向[来上下前后外内导往日]")
# 向 marks whom a hand-over goes to before a verb of giving ("向鱼塘付费", "向甲方支付"), and whom it comes from before
# a verb of taking ("向顾客收取", "向家长索要", "向本馆申请"); before any other verb it names whom one speaks to.
_GIVING = re.compile(r"(?:支付|付|缴|交|赔|退|返|转|汇|补|送|发放|提供|出具)")
_TAKING = re.compile(r"(?:收|索|要|讨|借|领|拿|获|征|申请|购|买|租)")
_PARTY = range(2, 5)  # a party after the marker: two to four characters
# A quantifier before the marked party leaves it the same party ("由裁判给各队队员记分", "向每位学员收取").
_QUANTIFIER = "(?:各队|各位|各个|每位|每个|每名|所有|全体|各|每)"


@dataclass(frozen=True)
class _Transfer:
    before: str      # the clause before the marker: the other party is named there ("由本店按…赔偿")
    after: str       # the clause after the marker, which opens with the marked party
    marker: str


def _transfers(clause: str) -> list[_Transfer]:
    return [_Transfer(clause[:k], clause[k + 1:], ch) for k, ch in enumerate(clause)
            if ch in "给向" and not _NOT_MARKER.search(clause[max(k - 1, 0):k + 2])]


def _marked(transfer: _Transfer, party: str) -> bool:
    """The party stands right after the marker, or after a quantifier there."""
    return re.match(f"{_QUANTIFIER}?{re.escape(party)}", transfer.after) is not None


def _receives(transfer: _Transfer, party: str) -> bool | None:
    """Whether the party the marker names receives: after 给 it does; after 向, before a verb of giving it does and
    before a verb of taking it gives; None where 向 stands before another verb."""
    if transfer.marker == "给":
        return True
    rest = re.sub(f"^{_QUANTIFIER}?{re.escape(party)}", "", transfer.after)
    return True if _GIVING.match(rest) else False if _TAKING.match(rest) else None


def _parties(transfer: _Transfer) -> list[str]:
    head = _HAN.match(transfer.after)
    run = head.group() if head else ""
    run = re.sub(f"^{_QUANTIFIER}", "", run)
    return [run[:n] for n in _PARTY if len(run) >= n]


def _flow(transfer: _Transfer, marked: str, other: str) -> tuple[str, str] | None:
    """(giver, receiver) of the transfer between the marked party and the other, named before the marker."""
    receives = _receives(transfer, marked)
    if receives is None or not _marked(transfer, marked) or other not in transfer.before:
        return None
    return (other, marked) if receives else (marked, other)


def _shared_wording(a: str, b: str, parties: tuple[str, str]) -> bool:
    """The two clauses speak of one hand-over: they share two characters running beyond the parties' names
    ("按发票价格", "按每斤15元", "赔偿")."""
    strip = lambda text: re.sub("|".join(map(re.escape, parties)), "|", text)  # noqa: E731
    bigrams = lambda text: {text[i:i + 2] for i in range(len(text) - 1) if _HAN.fullmatch(text[i:i + 2])}  # noqa: E731
    return bool(bigrams(strip(a)) & bigrams(strip(b)))


def _common_words(a: str, b: str) -> set[str]:
    """The Chinese words of two characters or more both texts hold: the party that neither clause marks ("钓友按每斤
    15元向鱼塘收费" / "由钓友按每斤15元付给鱼塘": 钓友)."""
    return {w for w in words(a) if len(w) >= 2 and _HAN.fullmatch(w) and w in b}


def _flows(transfer: _Transfer, names: set[str]) -> set[tuple[str, str]]:
    """Every (giver, receiver) the transfer reads between a party it marks and one of the names before it."""
    flows = set()
    for marked in _parties(transfer):
        for other in names:
            flow = None if marked in other or other in marked else _flow(transfer, marked, other)
            if flow:
                flows.add(flow)
    return flows


def swapped_transfer(statement: str, sentences: list[str]) -> tuple[str, str, str] | None:
    """The statement's giver and receiver, traded in an evidence sentence and kept in none: what the statement
    says, what the sentence says ("giver → receiver"), and the sentence; None otherwise."""
    if not is_chinese(statement):
        return None
    evidence = [(c, s) for s in sentences for c in _CLAUSE.split(s) if c]
    for clause in filter(None, _CLAUSE.split(statement)):
        for mine in _transfers(clause):
            for theirs_clause, sentence in evidence:
                for theirs in _transfers(theirs_clause):
                    names = set(_parties(mine)) | set(_parties(theirs)) | _common_words(mine.before, theirs.before)
                    held = _flows(theirs, names)
                    marked = set(_parties(mine)) | set(_parties(theirs))
                    # The parties a clause marks first: a common word before both markers may be no party ("每斤").
                    for said in sorted(_flows(mine, names), key=lambda flow: (len(set(flow) - marked), sum(map(clause.find, flow)))):
                        if (said[::-1] in held and _shared_wording(clause, theirs_clause, said)
                                and not _kept(said, evidence)):
                            return f"{said[0]} → {said[1]}", f"{said[1]} → {said[0]}", sentence
    return None


def _kept(flow: tuple[str, str], evidence: list[tuple[str, str]]) -> bool:
    """Some evidence clause has the statement's giver give to its receiver: the sentence that trades them speaks of
    another hand-over too ("顾客付给本店押金，本店退给顾客余款")."""
    return any(flow in _flows(transfer, set(flow)) for clause, _ in evidence for transfer in _transfers(clause))
