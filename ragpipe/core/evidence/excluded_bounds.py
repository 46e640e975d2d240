"""A ceiling on those a rule turns away is a floor on those it lets in: "未满18岁的人不能跳伞" says what "跳伞者须年满18周岁"
says, "Nobody younger than 18 can skydive" what "Skydivers must be 18 or older" says. Read word for word, the statement
sets a ceiling where the evidence sets a floor (limits.bound_conflict) and denies where the evidence affirms. The
verifier reads such a statement as the evidence writes its floor, the denial turned to a permission
(``as_evidence_floor``): "年满18岁的人才能跳伞", "Anyone 18 or older can skydive". Only where the evidence sets a floor on
the same value: a ceiling on another value ("未满16岁…" / "须年满18周岁"), or one that is not denied ("Children under 12
can ride free"), stays as written, for the contradiction readers.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.facts import bound_spans

# A denial in the clause after the ceiling: "…的人不能跳伞", "…的游客谢绝入内", "…should not use".
_ZH_DENIED = re.compile(r"不能|不可以|不可|不得|不允许|不准|不让|不宜|禁止|谢绝")
_EN_DENIED = re.compile(r"\b(?:cannot|can['’]t|can not|may not|must not|mustn['’]t|should not|shouldn['’]t"
                        r"|(?:is|are)(?: not|n['’]t) (?:allowed|permitted) to)\b", re.I)
_EN_PERMITTED = {"cannot": "can", "can't": "can", "can’t": "can", "can not": "can", "may not": "may", "must not": "may",
                 "mustn't": "may", "mustn’t": "may", "should not": "can", "shouldn't": "can", "shouldn’t": "can"}
# Nobody below the value may: "Nobody younger than 18 can skydive", "No one under 14 may ride", "No children under 3 …".
_EN_NOBODY = re.compile(r"\b(?:nobody|no[ -]one|no (?=(?:children|kids|guests|visitors|people|persons|riders|players|one)\b))\s*",
                        re.I)
_CLAUSE_END = re.compile(r"[，。；！？,;.!?]")
# The statement's unit after its value, where the evidence's floor already ends with its own ("18周岁以上", "18 or older").
_UNIT = re.compile(r"\s*(?:周岁|岁|米|厘米|公斤|千克|years?(?: old| of age)?\b)", re.I)


def as_evidence_floor(statement: str, evidence: str) -> str:
    """The statement with a denied ceiling ("未满18岁的人不能", "Nobody younger than 18 can") written as the floor the
    evidence sets on the same value, the denial turned to a permission; else the statement as it is."""
    floors = {value: evidence[start:end].strip() for value, kind, start, end in bound_spans(evidence) if kind == "floor"}
    for value, kind, start, end in bound_spans(statement):
        floor = floors.get(value)
        if kind != "ceiling" or not floor:
            continue
        if not floor[-1:].isdigit() and (unit := _UNIT.match(statement, end)):
            end = unit.end()
        rest = statement[end:]
        rest = rest[:m.start()] if (m := _CLAUSE_END.search(rest)) else rest
        head = statement[:start]
        if not re.search(r"[\u4e00-\u9fff]", statement):
            floor = floor + " "
            end += len(statement[end:]) - len(statement[end:].lstrip())
        if re.search(r"[\u4e00-\u9fff]", statement):
            denied = _ZH_DENIED.search(rest)
            if denied and not _ZH_DENIED.search(rest, denied.end()):
                rest_at = end + denied.start()
                return statement[:start] + floor + statement[end:rest_at] + "才能" + statement[rest_at + len(denied.group(0)):]
            continue
        nobody = _EN_NOBODY.search(head)
        denied = _EN_DENIED.search(rest)
        # "Only" says what the denial did of the rest, as 才能 does: "Only those 18 or older can skydive".
        if nobody and not denied:
            who = "those " if re.match(r"no[ -]one|nobody", nobody.group(0), re.I) else ""
            return _only(statement[:nobody.start()], who + statement[nobody.end():start] + floor + statement[end:])
        if denied and not nobody:
            rest_at = end + denied.start()
            permitted = _EN_PERMITTED.get(denied.group(0).lower(), re.sub(r"\s*n(?:o|['’])t\b", "", denied.group(0)))
            claim = statement[:start] + floor + statement[end:rest_at] + permitted + statement[rest_at + len(denied.group(0)):]
            return claim if re.search(r"[,;:]", head) else _only("", claim)  # its subject opens the statement
    return statement


def _only(before: str, claim: str) -> str:
    """The claim after "Only", where it opens the statement; else as it is."""
    if before.strip():
        return before + claim
    return "Only " + claim[:1].lower() + claim[1:]
