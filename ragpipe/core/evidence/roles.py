"""Who did what to whom: an evidence sentence that swaps the two sides of a statement's
relation ("YouTube acquired Google" against "Google acquired YouTube" or "YouTube was
acquired by Google"; in Chinese also sides that are no names, "优酷土豆收购了阿里巴巴").
``contradiction`` reads it as one of its plain contradictions."""

from __future__ import annotations

import re
from types import SimpleNamespace

from ragpipe.core.evidence.agreement import words
from ragpipe.core.evidence.converses import reversed_relation
from ragpipe.core.evidence.facts import facts, fold
from ragpipe.core.evidence.polarity import pronoun
from ragpipe.core.evidence.zh_names import zh_makers, zh_person, zh_titled
from ragpipe.core.text import EN_STOPWORDS, is_chinese, pos_tags

_EN_PASSIVE = re.compile(r"\b\w+(?:ed|en|wn|ld|ght|ne|de|id)\s+by\b", re.I)  # "was acquired by", ", signed by"
# 被 in a noun says no passive: 被告 "defendant", 被保险人 "the insured".
_ZH_PASSIVE = re.compile(r"被(?!告|保险|执行|害人|申请|上诉|继承|监护|抚养|赡养|子|褥)|由|遭|受到")
# The grounds or capacity a side acts on, written between it and the verb ("乙公司以侵犯专利权为由起诉甲公司",
# "以股东名义"), say nothing of who acts on whom.
_ZH_GROUNDS = re.compile(r"以[^，。；,;]{1,15}?(?:为由|为理由|为借口|的?名义)")
# Nor does the score or the price it acts by ("蓝鹰队以3比1击败了红星队", "以30亿元收购了").
_ZH_MANNER = re.compile(r"以\s*[\d.零〇一二两三四五六七八九十百千万亿]+\s*(?:比\s*[\d零〇一二两三四五六七八九十]+|[亿万千百]?元|分|票)?")
_COPULA = re.compile(r"\b(?:is|are|was|were)\b|是")

# One wording for each relation of a small lexicon, keeping its direction: light-verb and phrasal
# forms ("filed a lawsuit against" = sued), synonyms ("beat", "won against" = defeated) and
# converses written as the passive ("lost to" = was defeated by; 输给 = 被击败; "对乙的收购" = 收购乙).
# Passives and converses first, so that the actives below do not rewrite them again.
_NAMED = r"[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*"  # a capitalised name, of one word or more
_EN_LEXICON = [(re.compile(p, re.I), r) for p, r in (
    # "A sold X to B" is "B bought X from A": the buyer first, as "bought" and "acquired" have it.
    (rf"(?-i:\b({_NAMED})\s+sold\s+(\S+(?:\s+\S+){{0,4}}?)\s+to\s+({_NAMED}))", r"\3 bought \2 from \1"),
    (r"\b(?:was|were)\s+(?:beaten|overcome|bested)\s+by\b|\b(?:lost|fell)(?:\s+[\d–-]+)?\s+to\b", "was defeated by"),
    (r"\b(?:was|were)\s+(?:taken\s+over|bought|purchased)\s+by\b|\b(?:was|were)\s+sold\s+to\b", "was acquired by"),
    # "A succeeded B" = "A replaced B" = "B was succeeded by A"; not "the plan succeeded (in)".
    (r"\b(?:succeeded|took\s+over\s+from)\b(?!\s+in\b)(?=\s+\w)", "replaced"),
    (r"\b(?:filed|brought|lodged|launched)\s+(?:a\s+)?(?:lawsuit|suit|legal\s+action|complaint)\s+against\b", "sued"),
    (r"\b(?:took|takes|take)\s+((?:\S+\s+){0,3}?\S+)\s+to\s+court\b", r"sued \1"),
    (r"\b(?:works?|worked|working)\s+for\b", "was employed by"),
    (r"\b(?:won|prevailed|triumphed)\s+(?:against|over)\b|\b(?:beat|overcame|bested)\b", "defeated"),
    (r"\b(?:took\s+over|bought|purchased|(?:completed|announced|finalized)\s+(?:its|their|the)\s+"
     r"(?:acquisition|purchase|takeover)\s+of)\b", "acquired"),
    (r"['’]s\s+(?:acquisition|purchase|takeover)\s+of\b", " acquired"))]  # "Vandelay's acquisition of Initech"
_ZH_VERBS = "击败|起诉|收购"  # the canonical verbs of _ZH_LEXICON
_ZH_LEXICON = [(re.compile(p), r) for p, r in (
    (r"(?:输给|负于|败给|败于|不敌|惜败(?:于|给))了?", "被击败"),
    (r"(?:战胜|打败|打赢|击溃|力克|险胜|大胜|完胜)", "击败"),
    (r"[将把]([^，。；,;]{1,12}?)(?:告上了?法庭|诉至法院|起诉)", r"起诉\1"),
    (r"(?:状告|控告)", "起诉"),
    (r"(?:完成了?)?对([^，。；,;]{1,12}?)的(?:收购|并购|兼并)", r"收购\1"),
    (r"(?:并购|兼并|买下)", "收购"))]
_ZH_BETWEEN = [(re.compile(p), r) for p, r in (
    # What stands between a side and its verb says when, where, how or before whom, not who:
    # "乙公司于2021年向法院起诉", "上海队在主场再次击败", "以3比1击败".
    (r"向[^，。；,;]{0,15}?(?:法院|仲裁委员会|仲裁庭)(?=起诉)", ""),
    (r"(?:再次|再度|又一次|终于|成功|已经|曾经|正式)(?=被|以|" + _ZH_VERBS + ")", ""),
    (r"(?:于|在)[^，。；,;、被由向给对以]{1,8}?(?=被|以|" + _ZH_VERBS + ")", ""),
    # and a time said relative to today, before any verb ("王经理上周解雇了刘助理", "陈记者昨天采访了孙市长").
    (r"(?:[昨今前]天|[上本]周|上星期|上个?月|[去前]年|近日|日前|[上下]午|早上|晚上)(?=[\u4e00-\u9fff])", ""))]


def relation_wording(text: str) -> str:
    """The text with the relations of the lexicons in one wording: "was taken over by" and "was bought
    by" both "was acquired by", so that a name's slot aligns across them."""
    for pattern, wording in _ZH_LEXICON if is_chinese(text) else _EN_LEXICON:
        text = pattern.sub(wording, text)
    return text


def _canonical(text: str) -> str:
    """``relation_wording``, and in Chinese the score or price a side acts by and the time, place or
    manner between a side and its verb left out, for comparing who does what to whom."""
    if not is_chinese(text):
        return relation_wording(text)
    text = relation_wording(_ZH_MANNER.sub("", text))
    for pattern, wording in _ZH_BETWEEN:
        text = pattern.sub(wording, text)
    return text


_RELATIONS = re.compile(r"\b(?:defeated|acquired|sued)\b|" + _ZH_VERBS)


def one_relation(statement: str, clause: str) -> bool:
    """Both word the same relation of the lexicons ("lost to" and "won against" are both
    "defeated"): words that oppose each other there ("lost" / "won") are its converse, and who did
    what to whom is for swapped_roles to read."""
    ours, theirs = (set(_RELATIONS.findall(_canonical(text))) for text in (statement, clause))
    return bool(ours & theirs)


def _roles(text: str, first: str, second: str) -> tuple[bool, str] | None:
    """Whether ``first`` holds the first role of the relation written between the two names
    ("A acquired B": A; "B was acquired by A", "B 被 A 收购", "B's parent is A": A), and that
    relation's words; None when the text does not name both."""
    lowered = fold(text)
    i, j = lowered.find(first), lowered.find(second)
    if i < 0 or j < 0:
        return None
    between = lowered[min(i, j) + len(first if i < j else second):max(i, j)]
    between = _ZH_MANNER.sub("", between) if is_chinese(text) else between
    if not re.sub(r"\b(?:and|or|the|a|an)\b|[和与及或的]|[\W_]", "", between):
        return None  # "A and B", "A (B)": a list or a gloss, no relation
    if _COPULA.fullmatch(between.strip()):
        # "A is B" says A and B are one: the role is the owner's, wherever it stands ("the capital of
        # Canada is Ottawa" / "Ottawa is Canada's capital"); no owner, no roles.
        owner = [bool(re.search(r"\bof\s*$", lowered[:k]) or re.match(r"['’]s\b|的", lowered[k + len(name):]))
                 for k, name in ((i, first), (j, second))]
        return (owner[0], between) if owner[0] != owner[1] else None
    flipped = bool(_ZH_PASSIVE.search(_ZH_GROUNDS.sub("", between)) if is_chinese(text) else _EN_PASSIVE.search(between)
                   or re.match(r"\s*['’]s\b", between))
    return (i < j) != flipped, between


def _same_relation(ours: str, theirs: str, sentence: str, statement: str) -> bool:
    """Two texts put the same relation between the names: one's words, less passive and
    possessive markers, hold the other's ("从" / "汽车从"), or they share a content word; a
    Chinese passive puts the verb after both names ("李四被张三起诉"), so there the sentence
    must hold the statement's relation (or, the statement's passive, the statement the sentence's)."""
    strip = lambda text: re.sub(r"['’]s\b|\bby\b|被|由|了|[\W_]+", "", text)  # noqa: E731
    # Where both are passive, what follows "by" describes the agent, not the relation: "was trained by
    # the sprinter" / "was trained by coach".
    by = [_EN_PASSIVE.search(ours), _EN_PASSIVE.search(theirs)]
    if all(by):
        ours, theirs = ours[:by[0].end()], theirs[:by[1].end()]
    a, b = strip(ours), strip(theirs)
    if not b and a:
        return a in strip(fold(sentence))
    if not a and b:
        return b in strip(fold(statement))
    passive = _EN_PASSIVE.search(ours) or _EN_PASSIVE.search(theirs)
    if not passive and (_COPULA.search(ours) or _COPULA.search(theirs)):  # "X is the capital of Y" / "the capital of Y is X"
        return a == b
    ours_terms, theirs_terms = set(words(ours)), set(words(theirs))
    if ours_terms and theirs_terms:  # the same words between, not "app by clicking on the" / "menu and then click"
        small, large = sorted((ours_terms, theirs_terms), key=len)
        # or one side's words and one more: a word on a name ("acquired the startup", "女排战胜了")
        return (len(ours_terms & theirs_terms) >= 0.6 * len(large)
                or small <= large and len(large) - len(small) == 1)
    return bool(a and b and (a in b or b in a))


# Relations whose two sides may trade places without changing the fact.
_SYMMETRIC = re.compile(r"\b(?:meet|met|marr|partner|collaborat|merg|compet|talk|negotiat|sign|border)|会见|会谈|会晤|"
                        r"合作|结婚|见面|相遇|合并|竞争|谈判|签署|接壤|相邻|和|与|及")


def _relation_word(word: str) -> bool:
    """A word that can relate two sides: a verb by jieba's dictionary (not 年 in
    "青霉素是弗莱明在1928年发现的")."""
    import jieba.posseg

    return (jieba.posseg.dt.word_tag_tab.get(word) or "").startswith("v")


def _mirrored(statement: str, sentence: str) -> tuple[str, str] | None:
    """In Chinese, the words right before a relation word of the statement stand right after it
    in the sentence, and the words right after it right before it: "优酷土豆收购了阿里巴巴" against
    "阿里巴巴收购了优酷土豆", whatever the names are. Gives the two sides as the statement has
    them. A passive on one side only, or a relation that goes both ways ("met"), is no swap."""
    sentence = _ZH_GROUNDS.sub("", sentence)  # its 由 ("为由") is no passive either
    ours, theirs = list(words(statement)), list(words(sentence))
    # Chinese only: English moves words around a preposition freely ("search for Power Options
    # in Windows 10" / "Windows 10's Power Options"), and its names rule (_roles) reads passives.
    if not is_chinese(statement) or len(set(ours)) < 3 or (bool(_ZH_PASSIVE.search(statement) or _EN_PASSIVE.search(statement))
                              != bool(_ZH_PASSIVE.search(sentence) or _EN_PASSIVE.search(sentence))):
        return None
    for i, pivot in enumerate(ours):
        if (ours.count(pivot) != 1 or theirs.count(pivot) != 1 or _SYMMETRIC.search(pivot) or facts(pivot).numbers
                or not _relation_word(pivot)):
            continue
        j = theirs.index(pivot)
        # A phrase both texts put right before the relation stays there while the sides trade
        # places around it: "蓝海软件以3亿元收购了星河科技" / "星河科技以3亿元收购了蓝海软件".
        for k in range(0, 4):  # a phrase of up to three words
            phrase = ours[i - k:i]
            if k > i or phrase != theirs[max(j - k, 0):j]:
                break
            sides = _sides_around(ours, theirs, i, j, k)
            if sides:
                return sides
    return None


def _sides_around(ours: list[str], theirs: list[str], i: int, j: int, k: int) -> tuple[str, str] | None:
    """The sides of ``_mirrored``: the words before the pivot ``ours[i]`` (and the k words of
    the phrase before it) stand right after ``theirs[j]``, and the words after it right before."""
    phrase = set(ours[i - k:i])
    for a in range(1, min(i - k, j - k + 1, 4) + 1):  # the left side: the a words before the phrase
        for b in range(1, min(len(ours) - i - 1, 4) + 1):  # the right side: the b words after the pivot
            left, right = ours[i - k - a:i - k], ours[i + 1:i + 1 + b]
            # Sides may share a head word ("乙 公司" / "甲 公司"), but each needs a word of its own.
            if (not set(left) - set(right) or not set(right) - set(left) or phrase & (set(left) | set(right))
                    or j - k < b):
                continue
            # One word the statement lacks may stand between a side and the relation in the
            # sentence: a title ("原告王某起诉被告赵某").
            end = j - k
            before = theirs[end - b:end] == right or (theirs[end - b - 1:end - 1] == right and theirs[end - 1] not in ours)
            after = theirs[j + 1:j + 1 + a] == left or (theirs[j + 2:j + 2 + a] == left and theirs[j + 1] not in ours)
            if before and after:
                return " ".join(left), " ".join(right)
    return None


# Chinese prepositions that put the other side of a relation before its verb ("乙公司向甲公司支付了…").
_TOWARD = frozenset("向给对替")


def _parties(tokens: list) -> list:
    """jieba's tokens with a party of a contract (甲方, 买方, 出租方) cut back out of 方向: "乙方向甲方支付" is
    乙 / 方向 / 甲方 to jieba, 乙方 / 向 / 甲方 to a reader."""
    out = []
    for k, token in enumerate(tokens):
        party = out and (len(out[-1].word) == 1 and out[-1].flag != "x" or out[-1].flag[:1] in ("n", "r"))
        if token.word == "方向" and party and k + 1 < len(tokens) and tokens[k + 1].flag[:1] in ("n", "r"):
            out[-1] = SimpleNamespace(word=out[-1].word + "方", flag="n")
            out.append(SimpleNamespace(word="向", flag="p"))
        else:
            out.append(token)
    return out


def _written_toward(a: str, preposition: str, b: str, sentence: str, after: str = "") -> bool:
    """The sentence says a, the preposition, b (and what follows), a modal allowed before it: "甲方应向乙方支付"."""
    return bool(re.search(rf"{re.escape(a)}[应须需要将已会可必当]{{0,2}}{preposition}{re.escape(b)}{after}", sentence))


def _toward(statement: str, sentence: str) -> tuple[str, str] | None:
    """In Chinese, the sides around 向/给/对/替 trade places before the same verb: "乙公司向甲公司支付了
    违约金" against "甲公司向乙公司支付了违约金" (words() drops the preposition, so ``_mirrored``
    cannot see it). Gives the two sides as the statement has them."""
    def side(token) -> bool:  # nouns, names, pronouns
        return token.flag[:1] in ("n", "r")

    tokens = _parties(pos_tags(statement))
    for k, token in enumerate(tokens):
        if token.word not in _TOWARD or token.flag != "p":
            continue
        i, j = k, k + 1
        while i > 0 and side(tokens[i - 1]):
            i -= 1
        while j < len(tokens) and side(tokens[j]):
            j += 1
        left, right = "".join(t.word for t in tokens[i:k]), "".join(t.word for t in tokens[k + 1:j])
        verb = tokens[j].word if j < len(tokens) and tokens[j].flag.startswith("v") else ""
        if (left and right and verb and left != right and not _written_toward(left, token.word, right, sentence)
                and _written_toward(right, token.word, left, sentence, after=re.escape(verb))):
            return left, right
    return None


_CLAUSE_BREAK = re.compile(r"[,;:，；：]")
# A passive without its agent: "the cast list has been released" / "Peacock released the cast list".
_EN_BE_DONE = re.compile(r"\b(?:is|are|was|were|be|been|being)\s+(?:not\s+)?\w+(?:ed|en|wn)\b", re.I)
# A copula that is no auxiliary: "Ottawa is Canada's capital" (not "kayaks are not rented").
_PLAIN_COPULA = re.compile(r"\b(?:is|are|was|were)\s+(?:not\s+)?(?!\w+(?:ed|en|wn)\b)|是")


# A quantifier goes with its side wherever the side stands: "each student tastes the instructor's dish" swaps "the
# instructor tastes every student's dish" ("each" is a stopword, "every" not).
_QUANTIFIERS = frozenset({"every", "each", "all"})


def _transposed(statement: str, sentence: str) -> tuple[str, str] | None:
    """The sentence holds the statement's words in the same order but for two phrases that trade places
    around the same words ("The tenant must pay the landlord" against "The landlord must pay the tenant";
    "海景酒店的救生员每年春季为蓝湾潜水中心的教练做培训" against "蓝湾潜水中心的教练每年春季为海景酒店的救生员…"),
    names or not. Where a text says "of", a phrase may turn around it: "St Mary's Hospital's ENT department"
    is "the ENT department of St Mary's Hospital". Words between the phrases are needed ("flour with sugar" / "sugar with
    flour" is a list); a relation that goes both ways, a number between, or a passive on one side only is no
    swap. Gives the two phrases as the statement has them."""
    passive = [bool(_ZH_PASSIVE.search(text) or _EN_PASSIVE.search(text) or _EN_BE_DONE.search(text))
               for text in (statement, sentence)]
    if passive[0] != passive[1]:
        return None
    # Within one clause of each: across a comma the words are another clause's ("…eight essential amino acids"
    # is not "amino acids are essential, but adults need … eight"); a clause with a copula is left out ("A is B"
    # says A and B are one, whichever stands first).
    for clause in (c for c in _CLAUSE_BREAK.split(statement) if not _PLAIN_COPULA.search(c)):
        ours = [w.rstrip("'’") for w in words(clause) if w not in _QUANTIFIERS]
        for part in (p for p in _CLAUSE_BREAK.split(sentence) if not _PLAIN_COPULA.search(p)):
            theirs = [w.rstrip("'’") for w in words(part) if w not in _QUANTIFIERS]
            turned = bool(re.search(r"\bof\b", clause + " " + part, re.I))
            for start in range(len(theirs) - len(ours) + 1) if len(ours) >= 3 else ():
                window = theirs[start:start + len(ours)]
                if sorted(window) == sorted(ours) and window != ours:
                    head = next(k for k, (a, b) in enumerate(zip(ours, window)) if a != b)
                    tail = next(k for k, (a, b) in enumerate(zip(reversed(ours), reversed(window))) if a != b)
                    if sides := _traded(ours[head:len(ours) - tail], window[head:len(ours) - tail], turned):
                        return sides
    return None


def _traded(ours: list[str], theirs: list[str], turned: bool) -> tuple[str, str] | None:
    """``ours`` is A + between + B and ``theirs`` B + between + A; ``turned``: a side may turn around a point."""
    def same(side: list[str], other: list[str]) -> bool:
        return side == other or turned and any(side == other[k:] + other[:k] for k in range(1, len(other)))

    n = len(ours)
    for a in range(1, n - 1):
        for b in range(1, n - a):
            first, between, second = ours[:a], ours[a:n - b], ours[n - b:]
            if (same(second, theirs[:b]) and same(first, theirs[n - a:])
                    and theirs[b:n - a] == between and not set(first) & set(second)
                    and not any(_SYMMETRIC.search(w) or facts(w).numbers for w in between)):
                return " ".join(first), " ".join(second)
    return None


def swapped_roles(statement: str, sentences: list[str]) -> tuple[str, str, str] | None:
    """Two names of the statement whose roles an evidence sentence swaps under the same
    relation ("A acquired B" against "B acquired A" or "A was acquired by B"), or, names or
    not, a sentence that mirrors the statement around its relation (``_mirrored``): what the
    statement says, what the sentence says, and the sentence; None when none does."""
    original, given = dict(zip((_canonical(s) for s in sentences), sentences)), statement
    statement, sentences = _canonical(statement), list(original)
    lowered = fold(statement)
    # A name the statement opens with may not read as one ("Acme sued Globex"): a name of the
    # sentences that it opens with counts too.
    named = {n for s in sentences for n in facts(s).names if re.match(rf"{re.escape(n)}(?!\w)", lowered)}
    # So does a capitalised word that is also a common word ("Smith", "Baker") opening a passive on either side:
    # "Smith was sued by Jones" against "Smith sued Jones".
    opening = re.match(r"[A-Z][a-z'’-]+(?=\s)", given)
    passive = opening and re.compile(rf"\b{opening.group(0)}\s+(?:was|were|is|are|has\s+been|had\s+been)\s+\w+\s+by\b")
    if opening and fold(opening.group(0)) not in EN_STOPWORDS and any(passive.search(t) for t in [statement, *sentences]):
        named.add(fold(opening.group(0)))
    said = sorted({n for n in named.union(facts(statement).names, _zh_sides(statement), zh_titled(statement)) if lowered.find(n) >= 0},
                  key=lambda n: (lowered.find(n), -len(n), n))[:5]
    for k, first in enumerate(said):
        for second in said[k + 1:]:
            # A passive whose agent is a third side relates the first to it, not to the second: "Leeds
            # was defeated by Norwich on Saturday" says nothing of who acts on Saturday.
            third = lambda between: any(  # noqa: E731
                n in between[by.end():] for by in (_ZH_PASSIVE if is_chinese(statement) else _EN_PASSIVE).finditer(between)
                for n in said if n not in first and n not in second)
            ours = _roles(statement, first, second)
            for sentence in sentences if ours is not None and not third(ours[1]) else []:
                theirs = _roles(sentence, first, second)
                if (theirs is not None and not third(theirs[1]) and theirs[0] != ours[0] and not _SYMMETRIC.search(ours[1])
                        and _same_relation(ours[1], theirs[1], sentence, statement)):
                    return f"{first} → {second}", f"{second} → {first}", original[sentence]
    for sentence in sentences:
        if sides := (_mirrored(statement, sentence) or _transposed(statement, sentence)
                     or (is_chinese(statement) and _toward(statement, sentence))):
            return f"{sides[0]} → {sides[1]}", f"{sides[1]} → {sides[0]}", original[sentence]
    # Sides of any words around a converse verb ("borrowed from" / "lent to", "向…借" / "借给").
    return reversed_relation(given, list(original.values()))


def _zh_sides(statement: str) -> tuple[str, ...]:
    """In Chinese, the two sides of a verb of _ZH_LEXICON, names or not ("甲队", "远航物流"): the
    words next to it up to a preposition, particle, locative or punctuation, at most three."""
    if not is_chinese(statement):
        return ()
    tokens = pos_tags(statement)
    part = lambda t: t.flag[:1] not in ("x", "p", "f", "u", "d", "c", "m", "y") and t.word not in "被了的"  # noqa: E731
    def before(stop: int) -> tuple[int, str]:  # the side that ends at ``stop``, and where it starts
        i = stop
        while i > 0 and stop - i < 3 and part(tokens[i - 1]):
            i -= 1
        return i, fold("".join(t.word for t in tokens[i:stop]))

    sides = []
    for k, token in enumerate(tokens):
        if re.fullmatch(_ZH_VERBS, token.word):
            # The passive's 被 stands between its side and the verb ("蓝队被击败红队", of "蓝队输给了红队"),
            # or between the two sides before it ("甲公司被乙公司收购").
            i, side = before(k - (k > 0 and tokens[k - 1].word == "被"))
            j = k + 1 + (k + 1 < len(tokens) and tokens[k + 1].word == "了")
            end = j
            while end < len(tokens) and end - j < 3 and part(tokens[end]):
                end += 1
            sides += [side, fold("".join(t.word for t in tokens[j:end]))]
            if i > 0 and tokens[i - 1].word == "被":
                sides.append(before(i - 1)[1])
    return tuple(side for side in sides if len(side) >= 2)


def names_role(question: str, frame: list[str], sentence: str) -> bool:
    """The Chinese question asks who, and the sentence names a person and has, in a word other than
    the question's, a character of one of the question's words ("执导" for "导演"): it says who holds the
    role. Asked for the author (作者), a sentence naming who wrote the work says it whatever its verb
    ("由朱自清写于1925年")."""
    said = [w for w in words(sentence) if w not in frame and not zh_person(w)]
    return "谁" in question and (bool("作者" in question and zh_makers(sentence, authors=True)) or (
        any(zh_person(n) for n in facts(sentence).names)
        and any(ch in w for t in frame if len(t) >= 2 and not pronoun(t) for ch in t for w in said)))
