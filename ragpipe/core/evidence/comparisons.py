"""Comparisons: a relation with a direction. "The Nile is longer than the Amazon" says what "The
Amazon is shorter than the Nile" says (the converse: the antonym with the sides swapped), and the
opposite of "The Nile is shorter than the Amazon" or "The Amazon is longer than the Nile"; in
Chinese the same of "长江比黄河长" / "黄河比长江短" / "黄河短于长江". ``contradiction`` reads a
comparison the evidence states the other way round as one of its plain contradictions, and one it
states the same way, in either wording, as no antonym and no swap of roles."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import facts, negated
from ragpipe.core.evidence.quantities import quantities
from ragpipe.core.evidence.polarity import clauses_of
from ragpipe.core.text import is_chinese

# Comparative words and the scales they measure on, with the direction of each: "shorter" is the
# converse of "longer" and of "taller". A word that measures on two scales compares with either.
EN_COMPARATIVES = {
    "longer": {"length": 1}, "shorter": {"length": -1, "height": -1}, "taller": {"height": 1},
    "higher": {"height": 1}, "lower": {"height": -1}, "larger": {"size": 1}, "bigger": {"size": 1},
    "greater": {"size": 1}, "smaller": {"size": -1}, "older": {"age": 1}, "elder": {"age": 1},
    "younger": {"age": -1}, "newer": {"age": -1}, "earlier": {"time": -1}, "sooner": {"time": -1},
    "later": {"time": 1}, "cheaper": {"cost": -1}, "pricier": {"cost": 1}, "costlier": {"cost": 1},
    "faster": {"speed": 1}, "quicker": {"speed": 1}, "slower": {"speed": -1}, "heavier": {"weight": 1},
    "lighter": {"weight": -1}, "wider": {"width": 1}, "broader": {"width": 1}, "narrower": {"width": -1},
    "deeper": {"depth": 1}, "shallower": {"depth": -1}, "hotter": {"heat": 1}, "warmer": {"heat": 1},
    "colder": {"heat": -1}, "cooler": {"heat": -1}, "stronger": {"strength": 1}, "weaker": {"strength": -1},
    "better": {"quality": 1}, "worse": {"quality": -1}, "richer": {"wealth": 1}, "poorer": {"wealth": -1},
    "farther": {"distance": 1}, "further": {"distance": 1}, "closer": {"distance": -1}, "nearer": {"distance": -1},
    "thicker": {"thickness": 1}, "thinner": {"thickness": -1},
}
# The adjectives of the comparatives ("long" of "longer", "big" of "bigger", "early" of "earlier", "large"), for
# "as … as": the stem, with -e and with -y (a candidate that is no word matches nothing).
_EN_BASES = {base: d for w, d in EN_COMPARATIVES.items() if w.endswith("er")
             for stem in (re.sub(r"(?<=([bdgnt]))\1$", "", w[:-2]),) for base in (stem, stem + "e", re.sub(r"i$", "y", stem))}
_EN_BASES |= {"good": {"quality": 1}, "bad": {"quality": -1}, "far": {"distance": 1}, "expensive": {"cost": 1}, "costly": {"cost": 1}}
# "more/less X than": the scale of X ("more expensive" = "pricier"), or X itself ("more employees",
# "fewer employees", "less popular").
EN_MORE_OF = {"expensive": {"cost": 1}, "costly": {"cost": 1}}
# And verbs that compare by "more/less than": "costs less than" = "is cheaper than".
_EN_VERBS = {"cost": "cost", "costs": "cost", "weigh": "weight", "weighs": "weight", "weighed": "weight"}
# "larger than", "a larger population than", "more employees than", "costs less than", "costs $40 more than".
_EN_COMPARISON = re.compile(rf"\b(?:(?P<verb>{'|'.join(_EN_VERBS)})\s+(?:(?P<amount>[$€£¥]?\d[\d,.]*(?:\s*[a-z%]+)?)\s+)?(?P<by>more|less)|(?P<more>more|less|fewer)\s+(?P<of>[a-z]+)"
                            rf"|(?P<word>{'|'.join(EN_COMPARATIVES)})(?:\s+[a-z]+)?)\s+than\b", re.I)
ZH_COMPARATIVES = {
    "长": {"length": 1}, "短": {"length": -1}, "高": {"height": 1}, "低": {"height": -1}, "矮": {"height": -1},
    "大": {"size": 1}, "小": {"size": -1}, "多": {"amount": 1}, "少": {"amount": -1}, "早": {"time": -1},
    "晚": {"time": 1}, "迟": {"time": 1}, "贵": {"cost": 1}, "便宜": {"cost": -1}, "快": {"speed": 1},
    "慢": {"speed": -1}, "重": {"weight": 1}, "轻": {"weight": -1}, "宽": {"width": 1}, "窄": {"width": -1},
    "深": {"depth": 1}, "浅": {"depth": -1}, "热": {"heat": 1}, "冷": {"heat": -1}, "强": {"strength": 1},
    "弱": {"strength": -1}, "好": {"quality": 1}, "差": {"quality": -1}, "优": {"quality": 1}, "劣": {"quality": -1},
    "远": {"distance": 1}, "近": {"distance": -1}, "老": {"age": 1}, "年长": {"age": 1}, "年轻": {"age": -1},
    "厚": {"thickness": 1}, "薄": {"thickness": -1}, "先": {"time": -1}, "后": {"time": 1},
}
ZH_WORD = "|".join(sorted(ZH_COMPARATIVES, key=len, reverse=True))
# What may follow a Chinese comparative: the clause's end, a degree ("得多", "一些", "二十元", "三岁",
# "出"), 的 of a relative clause; not the rest of a word ("比大多数人高": 多 of 大多数 is none).
_ZH_AFTER = r"(?=$|[\W_]|[得了些点出的倍]|[\d零〇一二两三四五六七八九十百千万几]|(?<=[先后早晚])[\u4e00-\u9fff])"
_ZH_NUM = r"[\d零〇一二两三四五六七八九十]"
# "A比B(更)长" and "一号线比二号线长", not 比 of a word (比赛, 对比, 相比, 比例, 比如, 比尔), of a score ("以3比1", a numeral naming no thing) nor "不比" (not
# more than); nor the adjective of a verb ("比上年增长10%": 增长 grows, it compares no lengths).
_ZH_BI = re.compile(rf"(?<![对相无类好评占正反排日可不\d零〇一二两三四五六七八九十])比"
                    rf"(?![赛例较如分重率方喻值拟特利亚基尔萨邻武肩拼对照起]|{_ZH_NUM}+(?!{_ZH_NUM}|[号班期线型楼层栋区座组级届代车]))"
                    rf"(?P<right>[^，。；,;！？!?]+?)(?:更加|还要|更|还|要|稍微|稍|略)?(?<![增减成延生拉加缩提降扩变放])(?P<word>{ZH_WORD}){_ZH_AFTER}")
# "A高于B"; "不低于" bounds a value (limits.py), it compares nothing.
_ZH_YU = re.compile(r"(?<!不)(?P<word>[长短高低矮大小多少早晚迟先贵快慢重轻宽窄深浅强弱优劣])于(?!等于)")
# "A不如B高": A is lower than B; "A在B之前": A is earlier than B.
_ZH_BURU = re.compile(rf"不如(?P<right>[^，。；,;！？!?]+?)(?:那么|这么|那样|这样)?(?P<word>{ZH_WORD}){_ZH_AFTER}")
_ZH_BEFORE = re.compile(r"在(?P<right>[^，。；,;！？!?在]+?)之(?P<word>前|后)(?![来面天年])")
# "A is as long as B" (0: the same), "twice as long as" (more), "half as long as" (less); "A和B一样长".
_EN_AS = re.compile(r"\b(?:(?P<times>twice|three\s+times|four\s+times|\d+(?:\.\d+)?\s+times|half)\s+)?as\s+(?P<word>[a-z]+)\s+as\b", re.I)
_ZH_SAME = re.compile(rf"(?:和|跟|与|同)(?P<right>[^，。；,;！？!?]+?)(?:一样|同样|相同地?)(?P<word>{ZH_WORD}){_ZH_AFTER}")
# "A was built before B", "A came after B": an order in time.
# "before" and "after" mostly join a step or a clause ("before entering sleep mode", "after a video went viral"):
# an order of two things only before a short noun phrase ("before the bridge", "after Armstrong").
_EN_THING = re.compile(r"\s*(?!\w+ing\b|(?:which|that|who|it|he|she|they|we|you|i|a\s+few|several|many)\b)[\w'-]+(?:\s+[\w'-]+){0,3}[.!?]?\s*$", re.I)
_EN_ORDER = re.compile(r"\b(?P<word>before|after|prior\s+to|ahead\s+of)\b", re.I)
# Single capitals and numbers name sides that words() drops: "Branch A", "A区", "Line 2".
# A capital with digits is a code ("K21次", "Model T8"); the digits of a decimal ("2.1 kg") name nothing.
LABEL = re.compile(r"(?<![A-Za-z0-9])(?<!\d\.)(?:[A-Z]\d*|\d+)(?![A-Za-z0-9]|\.\d)")
# A side that opens with a number is a value: "longer than 5 hours" bounds it (limits.py).
_VALUE = re.compile(r"\W*(?:about|around|almost|nearly|over|under|roughly|约|大约)?\s*(?:\d|(?:one|two|three|four|five|six|seven|"
                    r"eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred)\b)", re.I)


@dataclass(frozen=True)
class _Comparison:
    left: str
    right: str
    scales: dict[str, int]
    clause: str
    kind: str = ""       # "order": an English order word ("before"), read against stated values only
    attribute: str = ""  # what "more/less X than" counts ("collagen"): a value clause must name it
    degree: str = ""     # the difference stated: "0.3 kg" of "0.3 kg heavier than", "7人" of "比五班多7人"


def _comparisons(clause: str) -> list[_Comparison]:
    """The comparisons a clause states, each with its two sides as written around the comparative."""
    found = []
    if is_chinese(clause):
        for m in _ZH_BI.finditer(clause):
            degree = clause[m.end():].lstrip("了得出")
            found.append(_Comparison(clause[:m.start()], m.group("right"), ZH_COMPARATIVES[m.group("word")], clause, degree=degree))
        for m in _ZH_YU.finditer(clause):
            found.append(_Comparison(clause[:m.start()], clause[m.end():], ZH_COMPARATIVES[m.group("word")], clause))
        for m in _ZH_BURU.finditer(clause):
            scales = {s: -d for s, d in ZH_COMPARATIVES[m.group("word")].items()}
            found.append(_Comparison(clause[:m.start()], m.group("right"), scales, clause))
        for m in _ZH_SAME.finditer(clause):
            found.append(_Comparison(clause[:m.start()], m.group("right"), dict.fromkeys(ZH_COMPARATIVES[m.group("word")], 0), clause))
        for m in _ZH_BEFORE.finditer(clause):
            found.append(_Comparison(clause[:m.start()], m.group("right"), {"time": -1 if m.group("word") == "前" else 1}, clause))
        return found
    for m in _EN_AS.finditer(clause):
        times, scales = (m.group("times") or "").lower(), _EN_BASES.get(m.group("word").lower())
        sign = 0 if not times else -1 if times == "half" else 1
        if scales:
            found.append(_Comparison(clause[:m.start()], clause[m.end():], {s: d * sign for s, d in scales.items()}, clause))
    for m in _EN_ORDER.finditer(clause):
        sign = 1 if m.group("word").lower() == "after" else -1
        if _EN_THING.match(clause[m.end():]):
            found.append(_Comparison(clause[:m.start()], clause[m.end():], {"time": sign}, clause, "order"))
    for m in _EN_COMPARISON.finditer(clause):
        verb, by, more, of, word = (g and g.lower() for g in m.group("verb", "by", "more", "of", "word"))
        attribute = ""
        if verb:
            scales = {_EN_VERBS[verb]: 1 if by == "more" else -1}
        elif more:
            sign = 1 if more == "more" else -1
            scales = {s: sign * d for s, d in EN_MORE_OF.get(of, {of: 1}).items()}
            attribute = "" if of in EN_MORE_OF else of
        else:
            scales = EN_COMPARATIVES[word]
        left, right = clause[:m.start()], clause[m.end():]
        before, after = _EN_DEGREE.search(left), re.search(r"\s+by\s+(?=\S*\d)", right)
        amount = before.group(1) if before else ""
        before = before if amount and (amount[0] in "$€£¥" or "%" in amount or quantities(amount) or more and _NUMBER.fullmatch(amount)) else None
        degree = m.group("amount") or (before.group(1) if before else right[after.end():] if after else "")
        left, right = left[:before.start()] if before else left, right[:after.start()] if after else right
        found.append(_Comparison(left, right, scales, clause, attribute=attribute, degree=degree))
    return found


# A difference written before an English comparative, an amount with its unit: "0.3 kg heavier", "$150 cheaper"
# or a count before "more X" ("7 more students than"); not the label of "Class 3 has more students than".
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_EN_DEGREE = re.compile(r"\s((?:[$€£¥]\s?)?\d[\d,]*(?:\.\d+)?(?:\s*[a-z%]+)?)\s*$", re.I)


# Words that stand for the other side's noun: "the new model" / "the old one", "that of Osaka".
_PROFORMS = frozenset({"one", "ones", "that", "those"})


def _side_words(text: str) -> set[str]:
    return (set(words(text)) - _PROFORMS) | {f"#{c}" for c in LABEL.findall(text)}


def _placed(own: set[str], left: set[str], right: set[str]) -> str | None:
    """Which side of the evidence's comparison holds a side's own words: "left", "right", or None where
    both or neither do (a shared attribute: "上海的常住人口比北京多", the right side leaves it out)."""
    held = lambda side: any(found_in(t, side) for t in own)  # noqa: E731
    return "left" if held(left) and not held(right) else "right" if held(right) and not held(left) else None


def _order(ours: _Comparison, theirs: _Comparison) -> bool | None:
    """True where the evidence's comparison states ours (in either wording), False where it states the
    opposite, None where it compares other things or on another scale."""
    scale = next((s for s in ours.scales if s in theirs.scales), None)
    if scale is None or "order" in (ours.kind, theirs.kind):
        return None
    left, right = _side_words(ours.left), _side_words(ours.right)
    if 0 in (ours.scales[scale], theirs.scales[scale]):  # "as long as": the same, whichever side comes first
        own = (left - right, right - left)
        held = all(own) and all(any(found_in(t, _side_words(theirs.left) | _side_words(theirs.right)) for t in o) for o in own)
        return ours.scales[scale] == theirs.scales[scale] if held else None
    if ours.scales[scale] != theirs.scales[scale]:  # the converse: "A shorter than B" is "B longer than A"
        left, right = right, left
    own_left, own_right = left - right, right - left
    e_left, e_right = _side_words(theirs.left), _side_words(theirs.right)
    if not own_left or not own_right or any(_VALUE.match(side) for side in (ours.right, theirs.right)):
        return None  # no two sides told apart, or a bound on a value ("longer than 5 hours")
    if not all(any(found_in(t, e_left | e_right) for t in own) for own in (own_left, own_right)):
        return None  # the evidence compares something else
    votes = {_placed(own_left, e_left, e_right), {"left": "right", "right": "left"}.get(_placed(own_right, e_left, e_right))}
    votes.discard(None)
    return votes == {"left"} if len(votes) == 1 else None


def _denies(clause: str) -> bool:
    return negated(_ZH_BURU.sub("", clause))  # "不如" compares, it denies nothing


# Without dates or times, an order in time told by the evidence's sequence words: "Armstrong stepped out first, and
# Aldrin followed", "王部长先发言，李部长随后发言".
_FIRST = re.compile(r"\b(?:first|initially)\b|首先|最先|率先|先", re.I)
_THEN = re.compile(r"\b(?:followed|then|later|afterwards|next)\b|随后|然后|之后|接着|后来|其后", re.I)


def _measured(c: str) -> set[tuple[str, float]]:  # amounts with their units, in one base unit: "2.1 kg" / "1,800 g"
    return {(q.dimension, q.amount) for q in quantities(c) if q.dimension != "clock"}


def _plain(c: str) -> set[tuple[str, float]]:
    """Numbers without a unit ("$499", "45人"), not years, nor the numbers of an amount with its unit: "$9" of "a day
    pass costs $9" is the price beside the day that names the pass."""
    if facts(c).years:
        return set()
    for q in sorted((q for q in quantities(c) if q.dimension != "clock"), key=lambda q: -q.start):
        c = c[:q.start] + " " + c[q.end:]
    return {("", n) for n in facts(c).numbers}


# What a clause's values are read as, in turn, each with its dimension (two values compare only in one): an order
# in time by its years, by its times of day ("下午三点"), by its sequence words; speed by durations, the longer
# the slower ("responds in 300 ms"), else as any other scale: by amounts with units, then by plain numbers.
READINGS = {
    "time": (lambda c: {("year", y) for y in facts(c).years},
             lambda c: {("clock", q.amount) for q in quantities(c) if q.dimension == "clock"},
             lambda c: {("step", 0.0)} if _FIRST.search(c) else {("step", 1.0)} if _THEN.search(c) else set()),
    "speed": (lambda c: {("pace", -a) for d, a in _measured(c) if d == "time"},
              lambda c: {v for v in _measured(c) if v[0] != "time"}, _plain),
    "other": (_measured, _plain),
}


def value_clauses(text: str) -> list[str]:
    return [c for c in re.split(r"[，；;。！？!?]|,(?!\d{3}\b)|\.(?!\d)|\b(?:and|while|whereas|but)\b|而", text) if c.strip()]


def _valued(ours: _Comparison, sentences: list[str]) -> tuple[bool, str, str, str] | None:
    """A comparison read from the two values the evidence states, one for each side: "The tunnel was built
    before the bridge" against "The bridge was completed in 1932, and the tunnel followed in 1950" (years
    for an order in time, other numbers for the rest). Whether they bear it out, the statement's clause,
    the evidence's clauses and the first sentence; None where a side has no one value."""
    scale = "time" if "time" in ours.scales else next(iter(ours.scales))
    if ours.scales[scale] == 0:  # "as long as" may join two clauses ("as long as you pay"): no values read
        return None
    left, right = words(ours.left), words(ours.right)
    own = {"left": [t for t in left if t not in right], "right": [t for t in right if t not in left]}
    # A label names its side first ("Model A", "Route 9", "K21次"): it is the head the value clauses are found by.
    labels = {"left": LABEL.findall(ours.left), "right": LABEL.findall(ours.right)}
    for side, other in (("left", "right"), ("right", "left")):
        own[side] = [f"#{c}" for c in labels[side] if c not in labels[other]] + own[side]
    if not all(own.values()) or _VALUE.match(ours.right):
        return None
    named = facts(ours.left).numbers | facts(ours.right).numbers  # "Route 9", "三班": a number naming a side
    for reading in READINGS.get(scale, READINGS["other"]):
        values, said = _side_values(own, sentences, lambda c: {v for v in reading(c) if v[0] or v[1] not in named}, ours.attribute)
        (left_dim, left_value), (right_dim, right_value) = [next(iter(v), ("", 0)) for v in values.values()]
        if all(len(v) == 1 for v in values.values()) and left_dim == right_dim and left_value != right_value:
            break
    else:
        return None
    larger = left_value > right_value
    agrees = larger == (ours.scales[scale] > 0) and _difference_of(ours.degree, abs(left_value - right_value), left_dim)
    return agrees, ours.clause.strip(), "; ".join(c for c, _ in said), said[0][1]


def _difference_of(degree: str, difference: float, dimension: str) -> bool:
    """Whether a stated difference is the one between the two values ("0.3公斤" for 2.1 and 1.8 kg), read in the
    values' unit; a share or a ratio ("30% cheaper", "两倍") is not read, and no difference stated is none to check."""
    if not degree.strip() or re.search(r"[%％倍]|percent|times|twice", degree, re.I):
        return True
    if dimension not in ("", "year"):  # an amount with its unit: compared in the base unit
        stated = {q.amount for q in quantities(degree) if q.dimension == dimension}
    else:
        stated = set(facts(degree).numbers)
    return not stated or any(math.isclose(abs(v), difference, rel_tol=1e-6, abs_tol=1e-9) for v in stated)


def borne_differences(statement: str, sentences: list[str]) -> set[float]:
    """The numbers a statement writes as a difference that the evidence's two values bear out: "A型比B型重0.3公斤"
    against "A型重2.1公斤，B型重1.8公斤" says 0.3 where the evidence says none; it is no number invented."""
    found: set[float] = set()
    for clause in clauses_of(statement):
        for ours in _comparisons(clause)[:1]:
            valued = ours.degree and not _denies(clause) and _valued(ours, sentences)
            found |= set(facts(ours.degree).numbers) if valued and valued[0] else set()
    return found


def _side_values(own: dict[str, list[str]], sentences: list[str], reading, attribute: str = ""):
    """The values the evidence's clauses state of each side: a clause holding the side's first own word (its
    head: "tunnel" of "The tunnel was built") and not the other side's, and the attribute counted if any (not
    "one tendon" for "more collagen"), read by ``reading``."""
    values: dict[str, set[float]] = {"left": set(), "right": set()}
    said = []
    for sentence in sentences:
        for clause in value_clauses(sentence):
            found = reading(clause)
            clause_words = _side_words(clause)
            if len(found) != 1 or attribute and not any(found_in(t, clause_words) for t in words(attribute)):
                continue
            for side, other in (("left", "right"), ("right", "left")):
                if found_in(own[side][0], clause_words) and not found_in(own[other][0], clause_words):
                    values[side] |= set(found)
                    said.append((clause.strip(), sentence))
    return values, said


def compared(statement: str, sentences: list[str]) -> tuple[bool, str, str, str] | None:
    """The first comparison of the statement that an evidence clause states too: whether it states it the
    same way (True) or the other way round (False), the statement's clause, the evidence's clause and its
    sentence. A sentence stating it the same way wins over one stating it otherwise; where none compares the
    two sides, the values the evidence states for each (``_valued``). None where none compares the same two
    sides on the same scale, or the statement negates its comparison."""
    for clause in clauses_of(statement):
        ours = _comparisons(clause)
        if not ours or _denies(clause):
            continue
        conflict = None
        for sentence in sentences:
            for evidence in clauses_of(sentence):
                if _denies(evidence):
                    continue
                for theirs in _comparisons(evidence):
                    order = _order(ours[0], theirs)
                    if order:
                        return True, clause.strip(), evidence.strip(), sentence
                    if order is False and conflict is None:
                        conflict = (False, clause.strip(), evidence.strip(), sentence)
        conflict = conflict or _valued(ours[0], sentences)
        if conflict:
            return conflict
    return None


def bears_out(statement: str, sentences: list[str]) -> bool:
    """A statement of one clause whose comparison (a comparative, not an order word: "before" also joins steps)
    the evidence states in either wording or bears out with its values."""
    clauses = clauses_of(statement)
    ours = _comparisons(clauses[0]) if len(clauses) == 1 else []
    order = ours and ours[0].kind != "order" and compared(statement, sentences)
    return bool(order and order[0])
