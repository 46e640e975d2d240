"""Generated perturbations of faithful answers (CheckList's perturbation tests, Ribeiro et al., 2020).

From one faithful sample (question, answer, contexts) ``perturb`` makes typed edits of the answer:

- meaning-changing edits, each applied only where the edited slot is grounded in the contexts, so that
  the edited answer is sure to contradict them: another number, price or percentage (same unit, a value
  the contexts do not hold), another clock time, weekday or month, an inserted negation, another name
  the contexts give another sentence (role swap), another group word the contexts name in another
  sentence (students / seniors; 学生 / 老人);
- meaning-keeping controls: 1,000 / 1000, half-width / full-width digits, a lead-in ("According to the
  documents, …" / 根据资料，…).

Deterministic: the first slot of each type, the first replacement that the contexts do not hold.
``ragpipe bench perturb`` (ragpipe.bench.perturb_run) scores them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragpipe.core.evidence.facts import bounds, fold, names, negated
from ragpipe.core.evidence.quantities import quantities
from ragpipe.core.evidence.weekdays import named_days
from ragpipe.core.evidence.zh_names import zh_titled
from ragpipe.core.text import EN_STOPWORDS, is_chinese, numbers, pos_tags, split_sentences

CHANGING = ("number", "price", "percentage", "clock time", "weekday", "month", "negation", "role swap", "group swap")
CONTROLS = ("number format", "full-width", "lead-in")


@dataclass(frozen=True)
class Edit:
    kind: str      # one of CHANGING or CONTROLS
    answer: str    # the edited answer
    slot: str      # what was edited, as written ("$25", "Saturdays", "可以")
    to: str        # what it became

    @property
    def control(self) -> bool:
        return self.kind in CONTROLS


def perturb(answer: str, contexts: list[str]) -> list[Edit]:
    """Every edit type that applies to ``answer`` (at most one of each), in the order of CHANGING, CONTROLS."""
    evidence = "\n".join(contexts)
    zh = is_chinese(answer)
    found = [*_numbers(answer, evidence), _clock(answer, evidence), _weekday(answer, evidence, zh),
             _month(answer, evidence, zh), _negation(answer, zh), _role_swap(answer, contexts, zh),
             _group_swap(answer, contexts, zh), _number_format(answer), _full_width(answer), _lead_in(answer, zh)]
    found = [e for e in found if e is not None and e.answer != answer]
    order = CHANGING + CONTROLS
    return sorted({e.kind: e for e in reversed(found)}.values(), key=lambda e: order.index(e.kind))


def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


# ---------------------------------------------------------------- numbers, prices, percentages, clock times

_NUMBER = re.compile(r"(?<![\d.,:])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|(?<![\d.,:])\d+(?:\.\d+)?(?![\d:])")
_PRICE_BEFORE = re.compile(r"[$€£¥]\s*$")
_PRICE_AFTER = re.compile(r"\s*(?:元|美元|块|欧元|英镑|dollars?\b|euros?\b)")
_PERCENT_AFTER = re.compile(r"\s*(?:%|％|percent\b|per cent\b)")
_RANGE_NEAR = re.compile(r"^\s*(?:-|–|~|～|to|至|到)\s*\d|\d\s*(?:-|–|~|～|to|至|到)\s*$")
_HEDGE = re.compile(r"(?:about|around|roughly|approximately|nearly|almost|some|约为?|大约|大概|将近|接近)\s*[$€£¥]?\s*$", re.I)
_DATE_AFTER = re.compile(r"\s*(?:月|日|号|年|st\b|nd\b|rd\b|th\b)")


def _number_kind(answer: str, start: int, end: int) -> str | None:
    before, after = answer[:start], answer[end:]
    if _PERCENT_AFTER.match(after):
        return "percentage"
    if _PRICE_BEFORE.search(before) or _PRICE_AFTER.match(after):
        return "price"
    if (_DATE_AFTER.match(after) or re.search(r"[A-Za-z]\s*$", before) and not before.endswith(" ")
            or _EN_MONTH.search(before[-12:]) or _EN_MONTH.match(after.strip()) or re.search(r"[A-Z]\w*\s$", before)
            or re.fullmatch(r"1\d{3}|20\d{2}", answer[start:end])):
        return None  # a date, a year, a model or a code ("3月", "April 15", "2012", "Windows 7"): no quantity
    return "number"


def _other_value(value: float, held: set[float], down: bool = False, hedged: bool = False) -> float | None:
    """The first of value ± 1, ± 2, … (± 10 … for larger values) that the contexts do not hold; down for a floor,
    whose lower value is the contradiction ("65岁以上免费": 64岁以上; 66岁以上 would still hold); ten times the
    step for a hedged value ("roughly 61 cm" is still "about 60 cm")."""
    step = 10 ** max(0, len(str(int(value))) - 2) * (-1 if down else 1) * (10 if hedged else 1)
    return next((v for v in (value + k * step for k in range(1, 50)) if v not in held and v > 0), None)


def _written(value: float, like: str) -> str:
    text = f"{value:.{len(like.split('.')[1])}f}" if "." in like else str(int(value))
    return f"{int(value):,}" if "," in like and "." not in like else text


def _numbers(answer: str, evidence: str) -> list[Edit]:
    held, clocks, edits, bounded = numbers(evidence), _clock_spans(answer), {}, bounds(answer)
    for match in _NUMBER.finditer(answer):
        if any(a <= match.start() < b for a, b in clocks) or _RANGE_NEAR.search(
                answer[max(0, match.start() - 4):match.start()]) or _RANGE_NEAR.match(answer[match.end():]):
            continue  # clock times have their own edit; one end of a range is no claim of its own
        kind = _number_kind(answer, match.start(), match.end())
        value = float(match.group(0).replace(",", ""))
        if kind is None or kind in edits or value not in held:
            continue  # only a value the contexts state: the edited one is then sure to differ
        hedged = bool(_HEDGE.search(answer[max(0, match.start() - 14):match.start()]))
        other = _other_value(value, held, down="floor" in bounded.get(value, ()), hedged=hedged)
        if other is None:
            continue
        new = _written(other, match.group(0))
        edits[kind] = Edit(kind, _replace(answer, match.start(), match.end(), new), match.group(0), new)
    return list(edits.values())


def _clock_spans(text: str) -> list[tuple[int, int]]:
    return [(q.start, q.end) for q in quantities(text) if q.dimension == "clock"]


def _clock(answer: str, evidence: str) -> Edit | None:
    held = {q.amount for q in quantities(evidence) if q.dimension == "clock"}
    for q in quantities(answer):
        if q.dimension != "clock" or q.amount not in held:
            continue
        written = answer[q.start:q.end]
        hour = re.search(r"\d{1,2}", written)
        if hour is None:
            continue  # 早上八点: an hour in words
        for shift in (1, 2, 3):
            h = int(hour.group(0))
            new_hour = (h + shift) % 24 if h > 12 else (h + shift - 1) % 12 + 1  # "22:40" is a 24-hour clock
            new = _replace(written, hour.start(), hour.end(), str(new_hour))
            moved = [q2.amount for q2 in quantities(new) if q2.dimension == "clock"]
            if moved and moved[0] not in held:
                return Edit("clock time", _replace(answer, q.start, q.end, new), written, new)
    return None


# ---------------------------------------------------------------- weekdays and months

_EN_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ZH_DAYS = "一二三四五六日"
_EN_DAY = re.compile(r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)(s?)\b")
_ZH_DAY = re.compile(r"(周|星期|礼拜)([一二三四五六日天])")
_EN_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                   "november", "december")
_EN_MONTH = re.compile(rf"\b({'|'.join(m.capitalize() for m in _EN_MONTH_NAMES)})\b")
_ZH_MONTH = re.compile(r"(?<!\d)(\d{1,2})月(?!份?\d)")


def _in_range(text: str, start: int, end: int) -> bool:
    """One end of "Monday to Friday", "周一至周五", "3月至5月": the range, not the day, is the claim."""
    return bool(re.search(r"(?:-|–|~|～|to|through|until|till|至|到|and|和|、|,|，)\s*$", text[max(0, start - 9):start])
                or re.match(r"\s*(?:-|–|~|～|to|through|until|till|至|到|and|和|、|,|，)", text[end:]))


def _weekday(answer: str, evidence: str, zh: bool) -> Edit | None:
    """A day the evidence names (one by one, or inside a range) for one it leaves out: "周日" inside "周一至周日" or a
    day of "open every day" has no other day to become."""
    held = named_days(evidence)
    for match in (_ZH_DAY if zh else _EN_DAY).finditer(answer):
        day = _ZH_DAYS.index(match.group(2).replace("天", "日")) if zh else _EN_DAYS.index(match.group(1))
        if _in_range(answer, match.start(), match.end()) or day not in held:
            continue
        others = [d for d in range(7) if d not in held]
        if others:
            new = match.group(1) + _ZH_DAYS[others[0]] if zh else _EN_DAYS[others[0]] + match.group(2)
            return Edit("weekday", _replace(answer, match.start(), match.end(), new), match.group(0), new)
    return None


def _month(answer: str, evidence: str, zh: bool) -> Edit | None:
    for match in (_ZH_MONTH if zh else _EN_MONTH).finditer(answer):
        if _in_range(answer, match.start(), match.end()):
            continue
        if zh:
            month = int(match.group(1))
            held = {int(m) for m in _ZH_MONTH.findall(evidence)}
            if month in held and 1 <= month <= 12:
                new = f"{next(m for m in [*range(month + 1, 13), *range(1, month)] if m not in held)}月"
                return Edit("month", _replace(answer, match.start(), match.end(), new), match.group(0), new)
        elif match.group(1) in evidence:
            others = [m.capitalize() for m in _EN_MONTH_NAMES if m.capitalize() not in evidence]
            start = _EN_MONTH_NAMES.index(match.group(1).lower())
            others = sorted(others, key=lambda m: (_EN_MONTH_NAMES.index(m.lower()) - start) % 12)
            if others:
                return Edit("month", _replace(answer, match.start(), match.end(), others[0]), match.group(0), others[0])
    return None


# ---------------------------------------------------------------- an inserted negation

_EN_VERB = re.compile(r"\b(is|are|was|were|can|will|must|should)\b(?!\s+not\b)")
_ZH_NEGATED = {"可以": "不可以", "是": "不是", "有": "没有", "能": "不能", "需要": "不需要", "会": "不会"}


def _negation(answer: str, zh: bool) -> Edit | None:
    if negated(answer) or re.search(r"\bnon-", answer):
        return None  # one negation is read; a second would make a double negative
    if not zh:
        match = _EN_VERB.search(answer)
        if not match or re.match(r"\s*[,，]", answer[match.end():]):
            return None  # "Yes, it is.": the reply's verb, not a claim's
        new = "cannot" if match.group(1) == "can" else match.group(1) + " not"
        return Edit("negation", _replace(answer, match.start(), match.end(), new), match.group(0), new)
    at = 0
    for word, _flag in pos_tags(answer):
        if word in _ZH_NEGATED and not re.match(r"的?[，,]", answer[at + len(word):]):  # not the reply of 可以，… / 是的，…  # a word of its own (jieba), not the 是 of 但是 or the 有 of 所有
            new = _ZH_NEGATED[word]
            return Edit("negation", _replace(answer, at, at + len(word), new), word, new)
        at += len(word)
    return None


# ---------------------------------------------------------------- role and group swaps

_EN_NAME = re.compile(r"\b(?:(?:Dr|Mr|Mrs|Ms|Prof)\.\s+)?[A-Z][\w'’-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w'’-]*)*")


_ZH_KINDS = {"nr": "person", "nrfg": "person", "nrt": "person", "ns": "place", "nt": "organisation"}


def _surfaces(text: str, zh: bool) -> dict[str, str]:
    """Each name of ``text`` as written → its kind: zh by jieba's tag (and zh_titled), so that a person is
    swapped for a person; en by facts.names, whose kind it does not tell."""
    if zh:
        found = {w: _ZH_KINDS[flag] for w, flag in pos_tags(text) if flag in _ZH_KINDS and len(w) >= 2}
        return {**found, **{n: "person" for n in zh_titled(text)}}
    read, out = set(names(text)), {}
    for match in _EN_NAME.finditer(text):
        written = re.sub(r"^(?:The|A|An)\s+", "", match.group(0))
        if ((fold(re.sub(r"[.'’]", "", written)) in read or fold(written) in read)
                and not _EN_DAY.fullmatch(written) and not _EN_MONTH.fullmatch(written)):
            out[written] = "name"
    return out


def _alone(a: str, b: str, contexts: list[str]) -> bool:
    """``a`` and ``b`` both stated, never in one sentence: the contexts give them different roles."""
    sentences = [s.casefold() for c in contexts for s in split_sentences(c)]
    a, b = a.casefold(), b.casefold()
    return (any(a in s for s in sentences) and any(b in s for s in sentences)
            and not any(a in s and b in s for s in sentences))


def _swap(kind: str, answer: str, contexts: list[str], mine: list[str], theirs: list[str]) -> Edit | None:
    for a in mine:
        for b in theirs:
            if b != a and b not in answer and a not in b and b not in a and _alone(a, b, contexts):
                return Edit(kind, answer.replace(a, b), a, b)
    return None


def _role_swap(answer: str, contexts: list[str], zh: bool) -> Edit | None:
    theirs = {n: kind for c in contexts for n, kind in _surfaces(c, zh).items()}
    for name, kind in _surfaces(answer, zh).items():
        same_kind = [n for n, k in theirs.items() if k == kind]
        if any(name in c for c in contexts) and (edit := _swap("role swap", answer, contexts, [name], same_kind)):
            return edit
    return None


# Words for groups of people that prices, rules and offers name; a swap is to one the contexts name elsewhere.
_EN_GROUPS = ("students", "seniors", "children", "adults", "residents", "visitors", "employees", "teachers",
              "patients", "veterans", "infants", "teenagers", "guests", "passengers", "customers", "retirees", "families")
_ZH_GROUPS = ("学生", "老年人", "老人", "儿童", "成人", "居民", "游客", "员工", "教师", "患者", "新用户", "老用户",
              "乘客", "孕妇", "军人", "残疾人", "婴儿", "家长")


def _group_words(text: str, zh: bool) -> list[str]:
    if zh:
        return [g for g in _ZH_GROUPS if re.search(rf"{g}(?![证卡])" if g == "学生" else g, text)]
    return [m.group(0) for m in re.finditer(rf"(?<![-\w])(?:{'|'.join(_EN_GROUPS)})\b", text, re.I)]


def _group_swap(answer: str, contexts: list[str], zh: bool) -> Edit | None:
    evidence = "\n".join(contexts)
    mine = [g for g in _group_words(answer, zh) if g.casefold() in evidence.casefold()]
    theirs = _group_words(evidence, zh)
    if not zh:  # keep the answer's capitalisation
        theirs = [t.lower() for t in theirs]
        mine_edits = [_swap("group swap", answer, contexts, [g], [t.capitalize() if g[0].isupper() else t for t in theirs])
                      for g in mine]
        return next((e for e in mine_edits if e), None)
    return _swap("group swap", answer, contexts, mine, theirs)


# ---------------------------------------------------------------- controls (the meaning is kept)

_THOUSANDS = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d{4,})(?![\d,])")


def _number_format(answer: str) -> Edit | None:
    for match in _THOUSANDS.finditer(answer):
        written = match.group(0)
        if "," not in written and re.fullmatch(r"1\d{3}|20\d{2}", written):
            continue  # a year keeps its form
        new = written.replace(",", "") if "," in written else f"{int(written):,}"
        return Edit("number format", _replace(answer, match.start(), match.end(), new), written, new)
    return None


_FULL_WIDTH = str.maketrans({c: chr(ord(c) + 0xFEE0) for c in "0123456789%"})


def _full_width(answer: str) -> Edit | None:
    new = answer.translate(_FULL_WIDTH)
    return Edit("full-width", new, "0-9%", "０-９％") if new != answer else None


def _lead_in(answer: str, zh: bool) -> Edit | None:
    if zh:
        return Edit("lead-in", "根据资料，" + answer, "", "根据资料，")
    first = answer.split(" ", 1)[0]
    lowered = answer[0].lower() + answer[1:] if first.lower() in EN_STOPWORDS and first != "I" else answer
    return Edit("lead-in", "According to the documents, " + lowered, "", "According to the documents, ")
