"""Extras, found by rule: a statement that says a thing is included ("门票包含语音导览", "Breakfast is included")
where the evidence says that thing is paid for apart ("语音导览需另外租用，每台5元", "内饰清洁需另外付费",
"Breakfast is charged separately"); and the other way round, a statement that charges apart for a thing the evidence
includes ("Wetsuits cost £2 extra" / "Wetsuits and boards are included…; lockers cost £2 extra").

polarity.py aligns a statement with the evidence clause that holds most of its words, and the two sides word an
extra differently: the statement names what includes the thing (门票, "the room rate"), the evidence only the
thing and its charge. The thing ties them instead: provisions.offered_thing names it, and the evidence clause
that charges for it apart must hold its head word.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.evidence.polarity import clauses_of
from ragpipe.core.evidence.provisions import offered_thing
from ragpipe.core.text import is_chinese

# Paid for apart: "需另外付费", "另行收费", "另收20元", "须另购", "额外收费", "单独收费", "自费"; "costs extra", "is charged
# separately", "at an extra cost", "for an additional fee", "sold separately", "rented separately" (the 另外租用 of English).
_ZH_APART = re.compile(r"另(?:外|行)?(?:付费|收费|收取|计费|购买|购票|租用|支付|缴费|付|收|购|租)|额外(?:收费|付费|收取|支付|计费)"
                       r"|单独(?:收费|付费|计费|购买)|自费")
_EN_APART = re.compile(r"\b(?:costs?|charged|billed|paid|priced|sold|available|rented|hired|bought|purchased)\s+(?:\w+\s+)?(?:extra|separately)\b"
                       r"|\b(?:at|for)\s+an?\s+(?:extra|additional|separate)\s+(?:cost|charge|fee)\b|\bextra\s+charge\b", re.I)
# A claim of inclusion ("is included", "includes", 包含, 含); "not included" opposes it already where clauses align.
# A fee that covers a thing includes it ("The course fee covers ink"; not the noun of "leather covers").
_INCLUDED = re.compile(r"\bincluded\b|\bincludes?\b|\bcomes? with\b|\b(?:fees?|prices?|rates?|tickets?)\s+(?:also\s+)?covers?\b"
                       r"|包含|包括|含有|(?<![不未])含|配有|附带|附赠", re.I)
# What an English statement says is included, its article "the" too ("The ticket includes the audio guide"), where
# provisions.offered_thing takes only "a" or "free" things.
_EN_INCLUDES = re.compile(r"\b(?:includes?|comes? with)\s+(?:the\s+|a\s+|an\s+|free\s+)?(?P<thing>[\w'-]+(?:\s+(?!(?:with|of|on|in|at|"
                          r"for|to|from|and|or|by|if|when|per|every|each)\b)[\w'-]+){0,2})", re.I)
# Free of charge: a "no" that denies the charge, not the inclusion ("includes paper at no additional cost").
_EN_NO_CHARGE = re.compile(r"\b(?:at|for)\s+no\s+(?:extra\s+|additional\s+|added\s+)?(?:cost|charge|fee)\b|\bfree\s+of\s+charge\b"
                           r"|\bwithout\s+(?:any\s+)?(?:extra\s+|additional\s+)?(?:cost|charge|fee)\b", re.I)


def charged_apart(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """The evidence clause that charges apart for the thing the statement says is included or free: ("negation", the
    statement, the clause, the clause), or None."""
    zh = is_chinese(statement)
    subject = None if zh or negated(statement) else _EN_FREE_SUBJECT.search(_EN_REPLY.sub("", statement))
    if not _INCLUDED.search(statement) and not subject:
        return None
    included = None if zh or negated(statement) else _EN_INCLUDES.search(statement)
    inside = _ZH_INCLUDED_IN.search(statement) if zh else None  # "编程费已包含在15元里": the thing stands before
    thing = tuple(w for w in words(statement[:inside.start()]) if len(w) > 1 and w not in _ZH_FEE_WORDS) if inside else offered_thing(statement) or (
        words(included.group("thing")) if included else ()) or (words(_EN_SUBJECT_END.split(subject.group("thing"))[0]) if subject else ())
    if not thing:
        return None
    # An act named by its object ("log removal", "bag storage") is charged for by that object ("Taking the logs away").
    heads = {thing[-1], thing[-2]} if len(thing) > 1 and _ACT_NOUN.search(thing[-1]) else {thing[-1]}
    apart = _ZH_APART if zh else _EN_APART
    for sentence in sentences:
        charges = [*apart.finditer(sentence), *(_ZH_BOOKED_APART.finditer(sentence) if zh and _ZH_CHARGE.search(sentence) else ()),
                   *(() if zh else _EN_PRICED.finditer(sentence))]
        for m in charges:
            # The thing charged for is named before the charge in its clause, which may go on past "and" ("Contents
            # insurance is compulsory and is charged separately"); a Chinese charge may name it after ("需另外收取30元
            # 编程费"). A charge denied right before it is none: "at no extra charge", "不另外收费", "无需另外付费".
            before = _CHARGE_CLAUSE.split(sentence[:m.start()])[-1]
            after = _CHARGE_CLAUSE.split(sentence[m.end():])[0] if zh else ""
            # In English the thing is the clause's subject, not its verb ("Helmets can be hired for £1.50" charges for
            # helmets, not for "skate hire").
            subject = before if zh else _EN_PREDICATE.split(before, maxsplit=1)[0]
            held = any(h in before or h in after for h in heads) if zh else any(found_in(h, words(subject)) for h in heads)
            if held and not negated(sentence[max(0, m.start() - 8):m.start()]):
                return "negation", statement.strip(), sentence.strip(), sentence
    return None


# What an English statement says is included or free, as its subject: "Replacing a broken string is included in the
# fee", "Dry bags come free with every rental", "Log removal is free (of charge)".
_EN_REPLY = re.compile(r"^\s*(?:yes|yeah|sure|of course)\b[,.!]?\s*", re.I)
_EN_FREE_SUBJECT = re.compile(r"^\s*(?:the\s+|a\s+|an\s+)?(?P<thing>[\w'-]+(?:\s+[\w'-]+){0,3}?)\s+(?:is|are|comes?)\s+(?:also\s+)?"
                              r"(?:included\b|free\b)", re.I)
_ZH_INCLUDED_IN = re.compile(r"(?:已|都|也|均|全部|已经)*(?:包含|包括|含)在")
_ZH_FEE_WORDS = frozenset({"费用", "价格", "价钱", "收费"})  # what the thing costs, not the thing
# The subject's noun ends where what follows it begins: "a fringe trim between cuts", "one guest a month".
_EN_SUBJECT_END = re.compile(r"\s+(?:between|with|for|per|in|on|at|from|to|by|of|after|before|during|a|an|the|each|every)\b.*",
                             re.I)
_EN_PREDICATE = re.compile(r"\b(?:is|are|was|were|be|can|could|may|must|will|costs?)\b", re.I)
_ACT_NOUN = re.compile(r"(?:al|ion|ment|ing|age)$")
# A price charged for a thing: "can be rented for $5", "costs £2 each".
_EN_PRICED = re.compile(r"\b(?:for|costs?|at)\s+(?:an?\s+|only\s+)?[$£€]\s?\d", re.I)


# Where the clause of a charge begins: a comma or a semicolon, not "and" (a second predicate of one subject).
_CHARGE_CLAUSE = re.compile(r"[;；:：，。]|\.\s+|,\s*(?!and\b)|\bbut\b|但")
# Booked apart, then charged: "搬运服务需另行预约，每车次收费300元".
_ZH_BOOKED_APART = re.compile(r"(?:另行|另外|单独)(?:预约|预订|安排|办理|申请)")
_ZH_CHARGE = re.compile(r"收费|付费|收取|\d+\s*元")


# What a statement charges apart for: the thing before "cost(s) … extra", "is charged separately", "需另付", "另收".
_EN_CHARGED = re.compile(r"\b(?:costs?|is|are|charged|billed|priced)\b[^.;,]{0,20}?\b(?:extra|separately)\b", re.I)
_ZH_BEFORE_CHARGE = re.compile(r"(?:需要|需|要|须|得|还|则|会)+$")


def _charged_thing(statement: str) -> str:
    """The head word of the thing the statement says is paid for apart ("wetsuit" of "Wetsuits cost £2 extra", 睡袋 of
    "睡袋需另付15元"), or ""."""
    zh = is_chinese(statement)
    found = (_ZH_APART if zh else _EN_CHARGED).search(statement)
    if not found or negated(statement[:found.start()][-8:]):
        return ""
    before = words(_ZH_BEFORE_CHARGE.sub("", statement[:found.start()].strip()) if zh else statement[:found.start()])
    return before[-1] if before else ""


def included_after_all(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """The evidence clause that includes the thing the statement says is paid for apart: ("negation", the statement,
    the clause, the clause), or None. A clause that also charges for it apart ("included for members; others pay
    extra") says both and is passed over."""
    head = _charged_thing(statement)
    if not head:
        return None
    zh = is_chinese(statement)
    apart = _ZH_APART if zh else _EN_APART
    for sentence in sentences:
        for clause in clauses_of(sentence):
            held = head in clause if zh else found_in(head, words(clause))
            included = _INCLUDED.search(clause) or (not zh and _EN_NO_CHARGE.search(clause))
            charged = clause if zh else _EN_NO_CHARGE.sub(" ", clause)  # "at no extra charge" charges nothing
            if held and included and not negated(charged) and not apart.search(charged):
                return "negation", statement.strip(), clause.strip(), clause
    return None
