"""Relations read with a direction whatever their sides are: "The charity borrowed money from the
hospital" says "The hospital lent money to the charity" (the converse verb, the sides swapped), and
the opposite of "The charity lent money to the hospital"; "Smith was succeeded as chair by Jones"
says "Jones replaced Smith as chair"; "市医院向慈善会借了一笔钱" says "慈善会借给市医院一笔钱".
Each clause is read as (relation, agent, patient); ``reversed_relation`` finds an evidence clause
with the same relation whose agent is the statement's patient and whose patient its agent. The
names rules of roles.py need names on both sides; this reader needs none."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.text import is_chinese

# English: (verb, relation, the preposition before the other side, converse). Without a preposition
# the other side is what follows the verb ("Maria taught her nephew painting"); with one, the side
# after it ("lent money to the city"), which a converse verb makes the agent ("borrowed … from").
_EN = [(re.compile(rf"\b(?:{verb})\b", re.I), relation, prep, converse) for verb, relation, prep, converse in (
    (r"lent|loaned|lends|lend", "lend", "to", False),
    (r"borrowed|borrows|borrow", "lend", "from", True),
    (r"sold|sells|sell", "sell", "to", False),
    (r"bought|buys|purchased|acquired", "sell", "from", True),
    (r"gave|gives|donated|handed", "give", "to", False),
    (r"received|receives|accepted|inherited", "give", "from", True),
    (r"taught|teaches|trained|tutored|mentored", "teach", "", False),
    (r"learned|learnt|learns|studied", "teach", "from|under|with", True),
    (r"defeated|beat|beats|overcame|won\s+against|won\s+over|lost\s+out\s+to", "defeat", "", False),
    (r"lost|loses|fell", "defeat", "to", True),
    (r"preceded|precedes|came\s+before", "precede", "", False),
    (r"followed|follows|came\s+after", "precede", "", True),
    (r"replaced|replaces|succeeded|succeeds|took\s+over\s+from", "replace", "", False),
)]
# The passive of those verbs ("was succeeded as chair by Jones", words between the verb and "by"):
# the side after "by" acts on the subject.
# Not "sold", "lent", "given": their passive's subject is the thing ("Tickets are sold to patrons by staff").
_EN_PASSIVE = re.compile(r"\b(?:is|are|was|were|been|be)\s+(?:\w+ly\s+)?(?P<verb>taught|trained|"
                         r"mentored|defeated|beaten|overcome|preceded|followed|replaced|succeeded)\b"
                         r"(?P<mid>(?:\s+(?!by\b)[\w'-]+){0,6}?)\s+by\b", re.I)
_EN_PARTICIPLE = {"beaten": "beat", "overcome": "overcame"}
_BE = re.compile(r"\b(?:is|are|was|were|been|be|being)\s+(?:\w+ly\s+)?$", re.I)  # a passive read as no active
# Chinese: (pattern, relation, converse). The agent (A) and the patient (P) are groups; a converse
# wording puts the patient first ("乙向甲借": 甲 lends).
_ZH_SIDE = r"[^，。；,;！？!?、]{1,16}?"
_ZH = [(re.compile(p.replace("S", _ZH_SIDE)), relation) for p, relation in (
    (r"^(?P<a>S)(?:把S)?借给了?(?P<p>S)$", "lend"),
    (r"^(?P<p>S)(?:向|从|跟)(?P<a>S)(?:那里|处)?借(?!给|鉴|助|口)", "lend"),
    (r"^(?P<a>S)(?:把S)?(?:卖给|出售给|转让给|转卖给)了?(?P<p>S)$", "sell"),
    (r"^(?P<p>S)(?:从|向)(?P<a>S)(?:手中|手里|那里|处)?(?:买下|买入|购买|购得|收购|买)", "sell"),
    (r"^(?P<a>S)(?:把S)?(?:送给|赠给|赠送给|捐给|交给)了?(?P<p>S)$", "give"),
    (r"^(?P<p>S)(?:从|收到)(?P<a>S)(?:那里|处|手中)?(?:获得|得到|收到|接受)", "give"),
    # 教 as a verb, not of a word (教授, 教育, 宗教, 请教).
    (r"^(?P<a>S)(?<![宗请领指助任])教(?![授育学练师室材程堂会训])(?:过|了)?(?P<p>S)$", "teach"),
    (r"^(?P<p>S)(?:师从|师承)(?P<a>S)$", "teach"),
    (r"^(?P<p>S)(?:拜(?P<a>S)为师|跟(?:着|随)?(?P<a2>S)学)", "teach"),
)]


@dataclass(frozen=True)
class _Relation:
    relation: str
    agent: str
    patient: str
    clause: str


def _en_relations(clause: str) -> list[_Relation]:
    found = []
    passive = _EN_PASSIVE.search(clause)
    if passive:
        verb = _EN_PARTICIPLE.get(passive["verb"].lower(), passive["verb"])
        for pattern, relation, _, converse in _EN:
            if pattern.fullmatch(verb) and not converse:
                found.append(_Relation(relation, clause[passive.end():], clause[:passive.start()], clause))
        return found
    for pattern, relation, prep, converse in _EN:
        m = pattern.search(clause)
        if not m or _BE.search(clause[:m.start()]):
            continue
        left, right = clause[:m.start()], clause[m.end():]
        if prep:  # the side after the preposition, a few words on ("lent the city money" has none)
            after = re.search(rf"^(?:\s+[\w'-]+){{0,5}}?\s+(?:{prep})\b", right, re.I)
            if after is None:
                if converse:
                    continue
            else:
                right = right[after.end():]
        agent, patient = (right, left) if converse else (left, right)
        found.append(_Relation(relation, agent, patient, clause))
    return found


def _zh_relations(clause: str) -> list[_Relation]:
    found = []
    for pattern, relation in _ZH:
        m = pattern.search(clause.strip())
        if m:
            found.append(_Relation(relation, m["a"] or m.groupdict().get("a2") or "", m["p"], clause))
    return found


def relations(clause: str) -> list[_Relation]:
    """The directed relations of the lexicons a clause states, not those it negates."""
    if negated(clause):
        return []
    return _zh_relations(clause) if is_chinese(clause) else _en_relations(clause)


def _clauses(text: str) -> list[str]:
    return [c for c in re.split(r"[，,；;：:。.!?！？]|\b(?:and|but|while|whereas)\b|而", text) if c.strip()]


def _placed_otherwise(own_agent: set[str], own_patient: set[str], theirs: _Relation) -> bool:
    """Each side's own words that the evidence's sides hold at all stand on the other side only
    ("chair" of "Jones as chair" may stand outside both: "was succeeded as chair by Jones")."""
    agent, patient = set(words(theirs.agent)), set(words(theirs.patient))
    def only_in(own: set[str], side: set[str], other: set[str]) -> bool:
        held = [t for t in own if found_in(t, side | other)]
        return bool(held) and all(found_in(t, side) and not found_in(t, other) for t in held)
    return only_in(own_agent, patient, agent) and only_in(own_patient, agent, patient)


def reversed_relation(statement: str, sentences: list[str]) -> tuple[str, str, str] | None:
    """An evidence clause that states the statement's relation with its sides the other way round:
    what the statement says, what the evidence says, and the sentence; None where none does."""
    for clause in _clauses(statement):
        for ours in relations(clause):
            agent, patient = set(words(ours.agent)), set(words(ours.patient))
            own_agent, own_patient = agent - patient, patient - agent
            if not own_agent or not own_patient:
                continue
            for sentence in sentences:
                for theirs in (r for c in _clauses(sentence) for r in relations(c)):
                    if theirs.relation == ours.relation and _placed_otherwise(own_agent, own_patient, theirs):
                        return clause.strip(), theirs.clause.strip(), sentence
    return None
