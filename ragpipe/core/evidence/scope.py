"""Claims wider than their evidence: a statement that says all, every, always ("All employees receive a bonus",
"所有员工都有年终奖") where the evidence sentence that speaks of the same thing limits it to a part ("Only full-time
employees…", "只有全职员工…", "most", "on weekdays", "部分") or names exceptions ("except…", "除…外")."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import SPELLED_NUMBERS, found_in, words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.evidence.polarity import DUTY, aligned_with, clauses_of, pronoun
from ragpipe.core.text import is_chinese

# A universal claim: "all", "every", "always", "所有", "每个员工都". "Not all", "at all", "after all" are none, nor a
# share per head ("each resident can bring two guests", "每个子女每月1000元"). "Any" is mostly no claim of all
# ("you need not report any of it", "没有任何").
_UNIVERSAL = re.compile(r"(?<!not )\b(?:all|every|everyone|everybody|always)\b(?! in all)(?<!at all)(?<!after all)"
                        r"|^\s*(?:anyone|anybody)\b(?= (?:can|may|is|are|will|gets?)\b)"
                        # "Any adult (who knows the child) can…": "any" opening the subject of a modal claims all
                        r"|^\s*any\s+[a-z-]+\b(?=(?:\s+who\b[^,;.]*?)?\s+(?:can|may|is|are|will|gets?)\b)"
                        r"|\bat all times\b|\bwithout exception\b"
                        r"|(?<![不并]是)(?<!并非)(?:所有|全部|全体|一律|总是|一直|每天|每日|天天|无一例外)"
                        r"|(?:每(?:个|位|名|一)|任何)[^，。,；;]{0,8}?[都均]", re.I)
# A part named by its size or how often: "most students", "部分岗位", "usually". Limits whatever it stands before.
_PART = re.compile(r"\b(?:some|(?<!at )most|many|several|certain|few|usually|often|sometimes|typically|generally|mostly"
                   r"|occasionally)\b"
                   r"|部分|大多数|大部分|多数|某些|一些|少数|通常|一般|有时|经常", re.I)
# A part named by what sets it apart: "only full-time employees", "仅金卡会员"; or by its days, which are themselves
# the words that set it apart ("on weekdays", "工作日"). A plain "if" is left out: evidence hedges with it loosely.
_ONLY = re.compile(r"(?<!not )\b(?:only|solely|exclusively|unless)\b|\bweekdays?\b|\bweekends?\b"
                   r"|(?<!不)只(?:有|能|在|对|限|向|供|为|给)|(?<!不)仅|限于|工作日|周末", re.I)
_DAYS = re.compile(r"weekdays?|weekends?|工作日|周末", re.I)
# Exceptions: "except underwear", "other than…", "除定制商品外", "除了…" (not the 除 of 扣除, 删除).
_EXCEPT = re.compile(r"\b(?:except(?: for)?|excluding|other than|apart from|with the exception of)\b"
                     r"|(?<![扣删免剔切开拆清])除(?:了|(?=[^，。,；;]{1,20}?[以之]?外))", re.I)

# A condition that sets the part apart: "…if their income is below $40,000", "员工如果入职满一年，…". Stock hedges
# ("if any", "if needed", "even if", "as if") set nothing apart; 若干 is "several".
_IF = re.compile(r"(?<!even )(?<!as )\b(?:if|provided that|providing that|as long as|so long as|on condition that)\b"
                 r"(?! (?:any|needed|necessary|applicable|possible|required|so)\b)|如果|假如|若(?!干)|只要|凡是", re.I)
# A count of the whole: "three of the city's bus lines", "其中两家分店".
_COUNT = re.compile(rf"\b(?:\d+|{SPELLED_NUMBERS}|a few|a handful|half)\s+of\b"
                    r"|其中[^，。,；;]{0,3}?(?:\d+|[一二两三四五六七八九十几]+)\s*[个家条名位所台辆种项座间只门]", re.I)
# Evidence that exempts a part from what the statement says of all: "without a visa", "exempt from the fee", "need
# not", "免签", "免票", "无需". The exempted thing is the statement's (its word, or in Chinese its character).
_EXEMPT = re.compile(r"\bwithout (?:an? |the |any )?(?P<en>\w+)|\bexempt(?:ed)? from (?:the |any )?(?P<en2>\w+)"
                     r"|\b(?:need not|no need|not required|do(?:es)? not (?:need|have to))\b"
                     r"|免(?P<zh>[\u4e00-\u9fff])|无需|无须|不需要?|不必|不用", re.I)
# A part set apart by what follows or precedes its noun: "Pets under 6 kg", "New members who sign up before June",
# "6公斤以下的宠物", "年满65周岁的老人", "18岁以下学生". Chinese: a bound or a threshold before the noun (and its 的).
_MODIFIER = re.compile(r"\s+(?:under|over|above|below|aged|weighing|older than|younger than|who|whose)\b", re.I)
_ZH_MODIFIER = re.compile(r"(?:[\d一二两三四五六七八九十百千万]+\s*[^\s，。,；;的]{0,4}?(?:以下|以上|以内|之内)"
                          r"|(?:年满|未满|不满|满|超过)\s*[\d一二两三四五六七八九十百千万]+[^\s，。,；;的]{0,3})的?$")
# Always or never, against evidence that says when it holds and what happens otherwise: "no monthly fee if you deposit
# at least $500; otherwise the fee is $5", "满6次免年费，否则收取年费100元", "free on the first Sunday; on other days…".
# Also a whole of any size, amount or kind, with the words that name it: "of any size", "regardless of the balance",
# "无论订单金额多少", "不限重量" (its dimension is what the evidence's limit names in other words: "under 10 kg").
_ANY = re.compile(r"\bof any \w+|\bregardless of (?:the |their |its |your )?\w+|\bno matter (?:how|what|which|when)(?: \w+)?"
                  r"|(?:无论|不论|不管)[^，。,；;都也均]{0,10}|不限[^，。,；;]{0,6}", re.I)
_ALWAYS = re.compile(rf"{_ANY.pattern}|\b(?:never|always|at all times)\b|从不|从来不|从未|总是|始终|永远", re.I)
_OTHERWISE = re.compile(r"\b(?:otherwise|or else|on other days|at other times)\b|否则|不然|其余时间|其他时间", re.I)
_THIS = re.compile(r"[这那该此本][个张家种款位条件项台辆所次门只]")  # "这张信用卡" points at "本卡"; jieba tags few as pronouns
# "Any" after a preposition claims all of a kind ("free at any ATM", "valid on any route"), unless denied; "any of",
# "any time"/"any longer" are none.
_ANY_ONE = re.compile(r"\b(?:at|in|on|from|for|to|with|by) any(?= (?!of\b|time\b|more\b|longer\b|way\b)[a-z])", re.I)
# The rest of a whole the evidence sets apart: "non-residents pay $35", "other ATMs charge $2.50", "非本市居民…",
# "其他银行…". Where the evidence names a rest, its other clause speaks of a part.
_REST = re.compile(r"\bnon-?[a-z]+|\b(?:all |any )?other [a-z]+|\bthe rest\b|\beveryone else\b"
                   r"|非[\u4e00-\u9fff]{1,4}|其[他它余][\u4e00-\u9fff]{0,3}", re.I)
# "No one", "nobody", "none of", "没有人": a universal that denies; evidence that names some who do answers it.
_NO_ONE = re.compile(r"\b(?:no one|no-one|nobody|none of (?:the|them|us|its|their))\b|没有人|没人|无人", re.I)
_SOME = re.compile(rf"\d|\b(?:{SPELLED_NUMBERS}|several|some|many|a few|someone|somebody)\b|有人"
                   r"|[一二两三四五六七八九十几数多]+\s*[位名个人]", re.I)


def scope_conflict(statement: str, question: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A universal statement against the evidence clause that speaks of it and limits it: ("scope", the universal
    word, the limit, the sentence). A limit the statement or its question carries ("Do full-time employees get…?"
    "Yes, all full-time employees do.") is none: the words that set the part apart must be new to both."""
    given = words(statement) + words(question)
    if _NO_ONE.search(statement):
        return _someone_does(statement, sentences)
    always = _ALWAYS.search(statement)
    held = always and not _IF.search(statement) and _always_against(statement, question, sentences, given)
    if held:
        return "scope", always.group(0), *held
    universal = _UNIVERSAL.search(statement) or (None if negated(statement) else _ANY_ONE.search(statement))
    if not universal:
        return None if negated(statement) else _only_other(statement, sentences)
    # The word after "all" is the whole the evidence may name a part of in its own words ("customer" / "Premium
    # members"): the clause that speaks of the statement holds its words, or its words but that one.
    head = words(statement[universal.end():])[:1]
    frame = [t for t in dict.fromkeys(words(_UNIVERSAL.sub(" ", statement))) if not _UNIVERSAL.fullmatch(t)]
    of = [(c, s) for s in sentences for c in clauses_of(s)]
    terms = [words(c) for c, _ in of]
    clauses = [c for c, _ in of]
    for i in aligned_with(frame, clauses, terms) or aligned_with([t for t in frame if t not in head], clauses, terms):
        clause, sentence = of[i]
        limit = _part_of(clause, head) or _new_words(_ONLY, clause, given)
        limit = limit or next((_EXCEPT.search(c) for c in clauses_of(sentence) if _new_words(_EXCEPT, c, given)), None)
        # A condition or a count on the evidence's own "all" ("If you choose to pray, end all your prayers", "All five
        # of them were…") says when all hold, not which of them.
        if not _UNIVERSAL.search(sentence):
            # "All five patients" names a counted set, which the evidence's modifier describes ("patients who…").
            counted = re.match(rf"\s*(?:\d|{SPELLED_NUMBERS}\b)", statement[universal.end():], re.I)
            limit = limit or _counted(clause, frame)
            limit = limit or (None if counted else _modified(clause, words(statement[universal.end():])[:2], given, statement))
            limit = limit or _conditioned_subject(clause, frame, given) or _qualified_head(clause, head, frame, given)
            limit = limit or next((_IF.search(c) for c in clauses_of(sentence)
                                  if _new_words(_IF, c, given, said=f"{statement} {question}")), None)
            limit = limit or _rest(clause, sentence, sentences, given) or _other_whole(clause, sentence, head, given)
        # A statement that names a part itself ("All students usually…", "only on weekdays", "if…") is not universal.
        own = _PART.search(statement) or _IF.search(statement) or _COUNT.search(statement)
        if limit and not (own or (_ONLY.search(statement) and limit.re is not _EXCEPT)):
            return "scope", universal.group(0), limit.group(0), sentence
    return _exempted(statement, head, sentences) if head and not (_IF.search(statement) or negated(statement)) else None


def _rest(clause: str, sentence: str, sentences: list[str], given: tuple[str, ...]) -> re.Match | None:
    """The rest of the whole in another clause of the sentence (or the next, where the splitter cut at ";"), where the
    clause that speaks of the statement names its part in words new to the statement and question: "free for
    residents; non-residents pay $35" against "free for everyone", "本市居民可免费…，非本市居民每年需缴纳100元" against
    "所有人都可以免费…" (not "free for children; other visitors pay $5" against "free for all children")."""
    if not any(not found_in(t, given) for t in words(clause)):
        return None
    at = sentences.index(sentence)
    cut = sentence.rstrip().endswith((";", "；")) and at + 1 < len(sentences)
    others = [c for c in clauses_of(sentence) if c != clause] + (clauses_of(sentences[at + 1]) if cut else [])
    return next((m for c in others for m in _REST.finditer(c)), None)


def _other_whole(clause: str, sentence: str, head: tuple[str, ...], given: tuple[str, ...]) -> re.Match | None:
    """The clause says it of another whole, which opens it in words new to the statement and question, and the
    sentence never names the statement's: "Cars must be booked 24 hours in advance" against "All passengers must
    book 24 hours in advance", "车辆须…提前24小时预订" against "所有乘客都必须…"."""
    if not head or found_in(head[0], words(sentence)):
        return None
    opening = words(clause)[:1]
    if not opening or found_in(opening[0], given):
        return None
    return re.search(re.escape(opening[0]), clause, re.I) or re.search(r"\w+", clause)


def _only_other(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """What the evidence grants one part only, said of another part the evidence names elsewhere: "标准会员也能下载"
    against "仅高级会员支持下载" beside "标准会员每月25元". The statement says the rest of the clause, lacks the part the
    "only" sets apart, and in its place holds a word of the evidence that the clause lacks."""
    said = words(statement)
    elsewhere = {t for s in sentences for t in words(s)}
    for sentence in sentences:
        for clause in clauses_of(sentence):
            only = _ONLY.search(clause)
            if not only or _DAYS.fullmatch(only.group(0)):
                continue
            held = words(clause)
            part = [t for t in words(clause[only.end():])[:2] if t not in said] or [t for t in words(clause[:only.start()])[-2:] if t not in said]
            other = [t for t in said if not found_in(t, held) and t in elsewhere]
            rest = [t for t in said if t not in other]
            if part and len(other) == 1 and len(rest) >= 2 and all(found_in(t, held) for t in rest):
                return "scope", other[0], only.group(0), sentence
    return None


def _counted(clause: str, frame: list[str]) -> re.Match | None:
    """A count before the statement's words: "Three of the city's twelve bus lines" against "All of the city's bus
    lines"."""
    return next((m for m in _COUNT.finditer(clause) if any(found_in(t, frame) for t in words(clause[m.end():])[:4])), None)


def _exempted(statement: str, head: tuple[str, ...], sentences: list[str]) -> tuple[str, str, str, str] | None:
    """A clause of the statement's whole that exempts it (a part of it, or all) from what the statement says it
    needs or has: "A visa is required for all visitors." / "Visitors from most countries can enter without a visa",
    "所有乘客都需要购票" / "儿童乘客可免票乘车". A clause that denies it as a whole ("No visitor may enter without a
    visa") exempts nothing."""
    said = words(statement)
    for sentence in sentences:
        for clause in clauses_of(sentence):
            found = _EXEMPT.search(clause)
            if not found or not found_in(head[0], words(clause)) or found.group(0) in statement:
                continue
            thing = found.group("en") or found.group("en2")
            if thing:
                ours = found_in(words(thing)[0], said) if words(thing) else False
            else:
                ours = found.group("zh") in statement if found.group("zh") else bool(DUTY.search(statement))
            if ours and not negated(clause.replace(found.group(0), " ")):
                return "scope", head[0], found.group(0), sentence
    return None


def _someone_does(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """"No one has won it twice" / "没有人获得过两次该奖项" against the clause that speaks of it, says it plainly and names
    some who do ("迄今已有两位科学家两次获得该奖项")."""
    denial = _NO_ONE.search(statement)
    frame = list(dict.fromkeys(words(_NO_ONE.sub(" ", statement))))
    of = [(c, s) for s in sentences for c in clauses_of(s)]
    for i in aligned_with(frame, [c for c, _ in of], [words(c) for c, _ in of]):
        clause, sentence = of[i]
        some = next((m for m in _SOME.finditer(clause) if m.group(0) not in statement), None)
        if some and not negated(clause):
            return "scope", denial.group(0), some.group(0), sentence
    return None


def _new_words(marker: re.Pattern, clause: str, given: tuple[str, ...], said: str | None = None) -> re.Match | None:
    """The marker found in the clause, where the words it sets apart (the few after it, or before it where it ends the
    clause: "on weekdays only") hold one the statement and question do not: "only permanent staff", not "provided
    only to full-time employees" asked of full-time employees."""
    found = marker.search(clause)
    if not found:
        return None
    days = words(found.group(0)) if _DAYS.fullmatch(found.group(0)) else ()
    near = [*days, *words(clause[found.end():])[:3]]
    near = near or list(words(clause[:found.start()])[-3:])
    # A condition's number sets a part apart though words() keeps none: "as long as they are over 18".
    figure = said is not None and any(n not in said for n in re.findall(r"\d+", clause[found.end():])[:1])
    return found if figure or any(not found_in(t, given) for t in near) else None


def _part_of(clause: str, head: tuple[str, ...]) -> re.Match | None:
    """A "most", "部分", "usually" that stands before the statement's whole: "Most first-year students" against "All
    first-year students", not "Several systems work together" against "… nervous systems all work together"."""
    return next((m for m in _PART.finditer(clause) if head and head[0] in words(clause[m.end():])[:3]), None)


def _modified(clause: str, head: tuple[str, ...], given: tuple[str, ...], said: str) -> re.Match | None:
    """A limit on the statement's whole by the words beside its noun, new to the statement and question: "Pets under 6
    kg travel free" against "All pets travel free", "6公斤以下的宠物…" against "所有宠物…" (not "Pets under 6 kg…"
    against "All pets under 6 kg…")."""
    for noun in head:
        if is_chinese(clause):
            # The noun where a bound stands before it, not inside another word ("学生证的18岁以下学生").
            found = next(filter(None, (_ZH_MODIFIER.search(clause[:m.start()]) for m in re.finditer(re.escape(noun), clause))), None)
            near = words(found.group(0)) if found else ()
        else:
            at = next((m.end() for m in re.finditer(r"[A-Za-z]+", clause) if words(m.group(0))[:1] == (noun,)), None)
            found = _MODIFIER.match(clause, at) if at is not None else None
            near = words(clause[found.end():])[:3] if found else ()
        # The bound's figure as written: words() keeps no bare number ("patients over 65").
        figure = found and any(n not in said for n in re.findall(r"\d+", found.group(0) + " " + clause[found.end():][:16])[:1])
        if found and (figure or any(not found_in(t, given) for t in near)):
            return found
    return None


# A subject the evidence sets apart by what it holds or has done ("Members who have completed an orientation…",
# "Students with a valid ID…", "持有预约码的游客…", "住店客人凭房卡…"), where the statement says it of anyone or all.
_EN_CONDITIONED = re.compile(r"^\s*(?:the\s+|our\s+)?[A-Za-z-]+(?:\s+[A-Za-z-]+){0,2}\s+(?:who|whose|with|holding|that have"
                             r"|(?:aged\s+)?(?:over|under)\s+\d+|aged\s+\d+|named|listed|registered)\b", re.I)
_ZH_CONDITIONED = re.compile(r"(?:持有|持|凭|完成|购买|预约|预订|注册|办理|参加|通过|出示|携带|报名)[^，。,；;的]{1,10}"
                             r"(?:的[\u4e00-\u9fff]{0,4}|(?=[可能须需]))")


def _conditioned_subject(clause: str, frame: list[str], given: tuple[str, ...]) -> re.Match | None:
    """The clause's subject, before the first of the statement's words, set apart by a condition whose words are new
    to the statement and question: "Members who have completed an orientation can borrow the telescopes" against
    "Anyone can borrow the telescopes", "住店客人凭房卡可免费使用洗衣机" against "任何人都可以免费使用洗衣机"."""
    lowered = clause.lower()
    shared = [lowered.find(t) for t in frame if t in lowered]
    subject = clause[:min(shared)] if shared else ""
    found = (_ZH_CONDITIONED if is_chinese(clause) else _EN_CONDITIONED).search(subject)
    return found if found and any(not found_in(t, given) for t in words(subject[found.start():])) else None


def _qualified_head(clause: str, head: tuple[str, ...], frame: list[str], given: tuple[str, ...]) -> re.Match | None:
    """The statement's whole as the clause's subject, with a word right before its noun new to the statement and
    question, which names a kind of it: "Gold members get free range balls" against "Every member gets free range
    balls", "年卡会员每月可免费带一位朋友入场" against "所有会员都可以免费带朋友入场" (also a 的-phrase:
    "入职满一年的正式员工"). The subject ends where the clause holds the first other word of the statement."""
    if not head:
        return None
    lowered = clause.lower()
    shared = [lowered.find(t) for t in frame if t != head[0] and t in lowered]
    subject = clause[:min(shared)] if shared else ""
    if is_chinese(clause):
        at = subject.find(head[0])
        before = subject[:at].rstrip("的") if at > 0 else ""
        kind = words(before)[-1:]
        if not kind or not before.endswith(kind[0]):
            return None  # the word before the noun is a function word: "我们的会员"
    else:
        tokens = [(m, words(m.group(0))) for m in re.finditer(r"[A-Za-z][\w'-]*", subject)]
        at = next((i for i, (_, w) in enumerate(tokens) if i and w[:1] == head), 0)
        kind = tokens[at - 1][1] if at else ()
    return re.search(re.escape(kind[0]), clause, re.I) if kind and not found_in(kind[0], given) else None


def _otherwise(frame: list[str], sentences: list[str]) -> tuple[str, str] | None:
    """The evidence sentence that speaks of the statement's always / never and names what happens otherwise, where it
    does not say always / never itself: (the "otherwise", the sentence). The branch may open the next sentence (the
    evidence splitter cuts at ";")."""
    # A Chinese word is held as written, whichever way jieba cut the sentence ("元免运费": 元免 / 运费), or by its first
    # two characters where it is longer ("停车场" / "免费停车").
    held = [words(s) + tuple(t for t in frame if is_chinese(s) and (t in s or len(t) > 2 and t[:2] in s)) for s in sentences]
    for i in aligned_with(frame, sentences, held):
        after = sentences[i + 1] if i + 1 < len(sentences) else ""
        found = _OTHERWISE.search(sentences[i]) or _OTHERWISE.match(after.strip())
        if found and not _ALWAYS.search(sentences[i]) and not _UNIVERSAL.search(sentences[i]):
            return found.group(0), sentences[i]
    return None


def _always_against(statement: str, question: str, sentences: list[str], given: tuple[str, ...]) -> tuple[str, str] | None:
    """Always / never against an "otherwise" (_otherwise), or a whole of any size against the clause that names a part of
    it beside its noun ("Dogs of any size…" / "Dogs under 10 kg…"): (the limit, the sentence)."""
    # What it says always holds: its words but those and a pronoun ("这张信用卡" points at "本卡").
    frame = [t for t in dict.fromkeys(words(_ALWAYS.sub(" ", statement))) if not (pronoun(t) or _THIS.fullmatch(t))]
    # A qualifier the splitter cut from its claim ("宠物可以免费乘车，不限重量") speaks of what the question asks.
    if len(frame) < 2 and _ANY.fullmatch(statement.strip(" 。.，,")):
        frame = [t for t in dict.fromkeys(words(_ALWAYS.sub(" ", question))) if not pronoun(t)]
    # The evidence may leave the subject to another sentence ("There is no monthly fee if…; otherwise…" against "The
    # savings account never charges a monthly fee"): what follows the always / never word is the frame then.
    after = [t for t in dict.fromkeys(words(statement[_ALWAYS.search(statement).end():])) if not pronoun(t)]
    branch = _otherwise(frame, sentences) or (_otherwise(after, sentences) if len(after) > 1 else None)
    if branch or not _ANY.search(statement):
        return branch
    of = [(c, s) for s in sentences for c in clauses_of(s)]
    for i in aligned_with(frame, [c for c, _ in of], [words(c) for c, _ in of]):
        limit = _modified(of[i][0], tuple(frame[:2]), given, statement)
        if limit:
            return limit.group(0), of[i][1]
    return None
