"""The answer-correctness model's feature row: how an answer agrees with a reference answer
(ragpipe.core.evidence.agreement), read as numbers for the model that answer_correctness ships
(correctness.json, trained by scripts/train_correctness.py)."""

from __future__ import annotations

import math
import re

from ragpipe.core.evidence.agreement import (PARENTHESIS, POSTMODIFIER, Agreement, _given, _joined, elliptical, fact_terms,
                                             found_in, name_in, terms, worded)
from ragpipe.core.evidence.facts import BOUND_BEFORE, common_word, facts, negated
from ragpipe.core.evidence.zh_names import zh_dotted
from ragpipe.core.text import EN_STOPWORDS, is_chinese, jieba_ready

# "No. 1" and "No 3" are numbers, not negations.
_NUMBER_SIGN = re.compile(r"\bno\.?\s*(?=\d)", re.I)

# What the answer-correctness model reads (answer_correctness.py, scripts/train_correctness.py).
CORRECTNESS_FEATURES = (
    "recall",            # share of the reference's key terms the answer states
    "first_key",         # the reference's first key term is stated
    "head",              # the head of the reference's phrase is stated ("bottle" of "bottle of poison", "cannon")
    "log_key",           # log(1 + key terms)
    "key_given",         # the question already holds every term of the reference, so recall says little
    "rare_stated",       # share of the reference's rare words (not in a dictionary in lower case; zh: its names) stated
    "precision",         # share of the answer's new terms (not the question's) the reference has
    "log_new",           # log(1 + the answer's new terms)
    "log_extra",         # log(1 + the answer's new terms the reference lacks)
    "question_coverage", # share of the question's terms the answer restates
    "conflict",          # a typed conflict: another number, date or name in the reference's place
    "negation",          # one of answer and reference negates, the other does not
    "extra_names",       # log(1 + names the answer adds that neither question nor reference has)
    "cosine",            # embedding cosine of answer and reference, read against its language's floor
    "zh",                # Chinese
)


def correctness_row(found: Agreement, answer: str, reference: str, question: str, cosine: float) -> list[float]:
    """The CORRECTNESS_FEATURES row of one answer."""
    question_terms = set(terms(question))
    given = _given(question)
    restated = sum(found_in(t, terms(answer)) for t in question_terms) / len(question_terms) if question_terms else 0.0
    return [found.recall, float(bool(found.key_terms) and found.key_terms[0] in found.matched),
            float(head_stated(answer, reference, question)),
            math.log1p(len(found.key_terms)), float(bool(found.key_terms) and all(found_in(t, given) for t in found.key_terms)),
            rare_stated(answer, reference, question), found.precision, math.log1p(len(found.answer_new)),
            math.log1p(len(found.answer_extra)), restated, float(bool(found.conflicts)),
            float(negates(answer) != negates(reference)),
            math.log1p(sum(not name_in(n, facts(question).names + facts(reference).names) for n in facts(answer).names)),
            cosine, float(is_chinese(answer + reference))]


def negates(text: str) -> bool:
    """The text negates; "No. 3" and "No 1" are numbers, and "不超过5克" or "no more than 5 g"
    a bound, not negations."""
    return negated(BOUND_BEFORE.sub(" ", _NUMBER_SIGN.sub(" ", text)))


def head_stated(answer: str, reference: str, question: str) -> bool:
    """The answer states the head of the reference's phrase, the word the rest qualifies: the
    last before an English postmodifier ("bottle" of "bottle of poison", "cannon" of "small
    cannon"), the last in Chinese ("小型大炮"). A near miss shares the qualifiers, not the head
    ("poison pen", "small curved lever"). True when the reference has no such word beyond the question's."""
    core = PARENTHESIS.sub(" ", reference).strip() or reference
    if not is_chinese(core):
        core = POSTMODIFIER.sub("", core)
    heads = [t for t in worded(core) if not found_in(t, _given(question))]
    return not heads or found_in(heads[-1], _joined(worded(answer)))


def rare_stated(answer: str, reference: str, question: str) -> float:
    """The share of the reference's rare words, the ones that name it, the answer states: words a
    dictionary lists only capitalised or not at all (in Chinese, its proper names). A title
    like "Etymology of Poland" is named by "Poland"; "Menlo Park" by "Menlo". 1 when it has none."""
    core = PARENTHESIS.sub(" ", reference).strip() or reference
    if is_chinese(core):
        rare = [t for name in facts(core).names for t in (worded(name) or [name])]
    else:
        rare = [t for w in re.findall(r"[A-Za-z][A-Za-z'’-]+", core) if not common_word(w) for t in worded(w)]
    rare = [t for t in dict.fromkeys(rare) if not found_in(t, _given(question))]
    stated = _joined(worded(answer))
    return sum(found_in(t, stated) for t in rare) / len(rare) if rare else 1.0


# Where a negation's reach ends: a clause, or a contrast ("not in Paris but in Rome", "不是巴黎而是罗马").
CLAUSE_END = re.compile(r"[,，;；:：。!！?？]|(?<!\d)\.(?!\d)|\b(?:but|whereas|instead|rather)\b|而是|但是|但|却", re.I)
# Negators that deny nothing here: emphasis ("not only", "none other than", 无疑, 不得不 "must"), a partial
# quantifier ("not all"), a manner ("survived without a parachute", 不小心 "by accident").
_NO_DENIAL = re.compile(r"\bnot (?:only|just|merely|all|every)\b|\bno doubt\b|\b(?:none|nothing|nobody|no one) (?:other than|but|else)\b"
                        r"|\bwithout\b|\bno (?:longer|sooner)\b|不只|不光|无疑|毫无疑问|莫过于|无非|不外乎"
                        r"|不得不|不小心|不禁|不由得|不免|不料", re.I)


# A reference that is one English name of a few words ("Alexander Graham Bell", "Miguel de Cervantes").
_NAME = re.compile(r"^\W*[A-Z][\w'’.-]*(?:\s+(?:(?:of|de|da|van|von|the|and|la|le|du|del)\s+)*[A-Z][\w'’.-]*){0,5}\W*$")


def _denies(clause: str) -> bool:
    """The clause negates; in Chinese by a negator word of its own (不, 不是, 没有, 并非), not by one
    inside another word (不小心 "by accident", 非常 "very")."""
    rest = _NO_DENIAL.sub(" ", clause)
    if is_chinese(rest):
        return any(len(w) <= 2 and negates(w) or w in ("并没有", "并不是") for w in jieba_ready().lcut(rest))
    return negates(rest)


def denied(answer: str, reference: str, question: str, found) -> str | None:
    """The answer names the reference's key terms only in clauses that deny them ("The Colosseum is not
    in Rome." for "Rome", "长城不在中国。" for "中国", "并非曹雪芹" for "曹雪芹"): stating the reference's
    words is no credit when the answer says they are not the answer. Only a bare reference (a value, a
    name of a few words) is read so: a sentence's negation is compared clause to clause (contradiction.py).
    A reference or question that negates itself is left to the other rules ("Which planet has no rings?")."""
    if not found.matched or not (elliptical(reference) or _NAME.match(reference)) or negates(reference) \
            or negates(question or ""):
        return None
    stating = []
    for clause in CLAUSE_END.split(_NUMBER_SIGN.sub(" ", answer)):  # "No. 1" is no sentence end
        said = [*worded(clause), *fact_terms(facts(clause))]
        here = [t for t in found.matched if found_in(t, said)]
        if here:  # its negation, less the key terms' own characters (非洲, 无锡 are no negations)
            for t in here:
                clause = clause.replace(t, " ") if is_chinese(t) else clause
            stating.append(_denies(clause))
    return f"denies {', '.join(found.matched[:3])}" if stating and all(stating) else None


def opens_with(answer: str, key_terms: list[str]) -> bool:
    """The answer's first clause states every key term: it replies with the reference and what
    follows adds to it ("Neil Armstrong, during the Apollo 11 mission in 1969.")."""
    first = CLAUSE_END.split(answer.strip(), maxsplit=1)[0]
    said = _joined([*worded(first), *fact_terms(facts(first))])
    return bool(key_terms) and all(found_in(t, said) for t in key_terms)


# A hedge ("maybe", "I'm not sure", "either … or", "one of the two", 可能, 要么…要么, 记不清, 应该…吧), and what parts
# candidates in one ("A or B", "A或者B", "可能是A，也可能是B"; 或许, 或多或少 are no "or", 或称 and 或者说 gloss one name).
_HEDGE = re.compile(r"\b(?:maybe|perhaps|possibly|probably|might|may be|could be|not sure|unsure|i think|i believe|either"
                    r"|(?:can't|cannot|don't) (?:remember|recall)|one of (?:the|those|these) (?:two|three)|one or the other)\b"
                    r"|可能|也许|或许|大概|应该|不确定|记不清|要么|两者之一|其中之一|吧\W*$", re.I)
_OR = re.compile(r"\bor\b|或者(?!说)|或是|还是|也可能|要么|(?<!或)或(?![许多称者])", re.I)
# In Chinese "A或B" offers two candidates by itself (a second name of one thing is written 又称, 即, （…）);
# in English "A or B" as often glosses one name ("The Potteries or Stoke-on-Trent"), so a hedge must say so.
_LETTER = re.compile(r"(?<![\w.])[A-Z](?![\w.])")
_ZH_OR = re.compile(r"或者(?!说)|或是|要么|(?<!或)或(?![许多称者])")


def bare_pair(answer: str) -> bool:
    """The whole reply is two short candidates joined by "or" ("Sydney or Canberra.", "Carbon dioxide or
    oxygen."): it offers both. A gloss is set off by a comma ("New Zealand, or Aotearoa") or framed
    ("Eosophobia: Dawn or daylight.", 'means "Stop" or "Pause"')."""
    parts = re.split(r"\s+or\s+", answer.strip(" .!?\n"), flags=re.I)
    return len(parts) == 2 and all(p and not re.search(r"[,;:\"“”]", p) and elliptical(p) for p in parts)


def hedged(answer: str, reference: str, found) -> list[str]:
    """The answer hedges between a bare reference (a value, a name) and another candidate ("It was either
    Argentina or Germany." for "Germany", "10 or 11" for "11", "火星或金星" for "火星"): naming a set that
    holds the answer is not giving it. The candidates are the words either side of the "or" within their
    clauses ("either natural or man-made, … is still life" offers no alternative to "still life"). A
    reference that itself offers alternatives, or is a sentence, is left to the other rules."""
    if _OR.search(reference) or not (elliptical(reference) or _NAME.match(reference)):
        return []
    for sentence in re.split(r"(?<=[.!?。！？])\s*", answer):  # the hedge and its candidates in one sentence
        if not (_HEDGE.search(sentence) or is_chinese(sentence) and _ZH_OR.search(sentence) or bare_pair(answer)):
            continue
        parts = _OR.split(sentence)
        if len(parts) < 2:
            continue
        said, letters = [], []
        for i, part in enumerate(parts):
            part = part.strip(" ,，、")
            part = CLAUSE_END.split(part, maxsplit=1)[0] if i > 0 else part
            part = CLAUSE_END.split(part)[-1] if i < len(parts) - 1 else part
            part = _HEDGE.sub(" ", part)  # "either", 可能: no candidate's words
            said.append({*worded(part), *fact_terms(facts(part))})
            # a letter that names a kind ("vitamin A" against "Vitamin D") is a candidate word too
            letters.append({c.lower() for c in _LETTER.findall(part)} - {c.lower() for c in _LETTER.findall(reference)})
        names_it = [any(found_in(t, part) for t in found.matched) for part in said]
        other = [(letters[i] or any(found_in(t, part) for t in found.answer_extra)) and not names_it[i]
                 for i, part in enumerate(said)]
        if any(names_it) and any(other):
            return [f"hedges between {', '.join(found.matched[:2])} and {', '.join(found.answer_extra[:2])}"]
    return []


_OF = re.compile(r"\s+of\s+", re.I)
# The small words a noun phrase holds ("a bottle of the poison"); any other makes the reference a sentence.
_PHRASE_WORDS = {"a", "an", "the", "of", "in", "for", "from", "on", "at", "with", "by"}
# What follows a noun phrase's head other than "of" ("Hollywood Park in L.A."): no qualifier of it.
_OTHER_POSTMODIFIER = re.compile(r"\s+(?:in|for|from|on|at|with|by)\s.*$", re.I | re.S)


def head_replaced(answer: str, reference: str, question: str) -> str | None:
    """The answer keeps a qualifier of a reference that is a short phrase of common words and, wherever
    it writes it, puts another word right after it where the head belongs ("a poison pen" for "Bottle
    of poison", "a small curved lever" for "Small cannon", "a stone tower" for "A stone bridge"): another
    thing of the same sort; in Chinese, a word that keeps the reference head's first characters and ends in
    another (石塔 for 石桥, its head 桥 nowhere). Names ("Harry Connick Jnr"), listings and sentences are left
    to the other rules."""
    core = PARENTHESIS.sub(" ", reference).strip()
    if is_chinese(core):
        said = [w for w in jieba_ready().lcut(core) if re.search(r"\w", w)]
        head = said[-1] if said and elliptical(core) else ""
        if len(head) < 2 or head[-1] in answer or head in (question or ""):
            return None
        other = [w for w in jieba_ready().lcut(answer) if len(w) == len(head) and w[:-1] == head[:-1] and w not in (question or "")]
        return f"{other[0]} for {head}" if other else None
    words = re.findall(r"[^\W\d_]+", core)
    content = [w for w in words if w.lower() not in EN_STOPWORDS]
    if is_chinese(core) or not 2 <= len(content) <= 4 or any(w.lower() not in _PHRASE_WORDS for w in words if w not in content) \
            or not all(w.islower() or common_word(w) for w in content):
        return None
    given = _given(question)
    before, *after = _OF.split(_OTHER_POSTMODIFIER.sub("", core), maxsplit=1)
    heads = [t for t in worded(before) if not found_in(t, given)]
    qualifiers = [t for t in heads[:-1] + worded(" ".join(after)) if not found_in(t, given)]
    if not heads or not qualifiers or found_in(heads[-1], worded(answer)):
        return None
    replaced = []
    for clause in CLAUSE_END.split(answer):
        said = re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", clause)
        for word, following in zip(said, [*said[1:], ""]):
            put = worded(following)
            if worded(word) and found_in(worded(word)[0], qualifiers) and not (put and found_in(put[0], qualifiers)):
                replaced.append(f"{word} {following}" if put and following.lower() not in EN_STOPWORDS
                                and not found_in(put[0], given) and not found_in(put[0], worded(core)) else None)
    return f"{replaced[0]} for {heads[-1]}" if replaced and all(replaced) else None


# A question that asks for a person ("Who wrote …?", "In 1905, who …", 谁, 哪位); not a relative "who" ("the
# athlete who was …"). ("Which physicist …" is left out: it moved a HaluEval answer wrong in its detail to 0.99.)
_WHO = re.compile(r"^\W*(?:[^,?]*,\s*)?who(?:m|se|'s)?\b|谁|哪一?位", re.I)
# The small words a surname may open with ("van Gogh", "da Vinci"; "Gogh", "Beethoven" alone name them too).
_PARTICLE = r"(?:van|von|de|da|di|del|der|du|la|le)\s+"
# Titles and sentence openers before a surname, which name no other person ("Sir Newton", "The Newton laws").
_TITLES = {"sir", "lord", "lady", "dame", "dr", "mr", "mrs", "ms", "miss", "saint", "st", "king", "queen", "president",
           "general", "captain", "professor", "prof", "pope", "emperor", "prince", "princess",
           "the", "a", "an", "and", "but", "so", "then", "only", "by", "yes", "no", "it", "this", "that"}


def _surname_said(answer: str, core: str, question: str):
    """Where an English answer says the surname of the person a reference to a who-question names (one the
    question does not name), and whose name the capitalised words before it give: (match, "") for none,
    "his" for a given name or initial of the reference's ("Ludwig Beethoven", "J G Ballard"), "other" else."""
    person = re.fullmatch(rf"[A-Z][\w'’.-]*(?:\s+(?:{_PARTICLE})*[A-Z][\w'’.-]*){{1,3}}", core)  # not "Napoleon I of the French"
    last = core.split()[-1] if person else ""
    if not re.fullmatch(r"[^\W\d_]{2,}", last) or not _WHO.search(question or "") or found_in(last.lower(), worded(question)) \
            or core.lower() in answer.lower():
        return None
    said = re.search(rf"((?:[A-Z][\w'’.-]*\s+)*)(?<![\w'’-])(?i:(?:{_PARTICLE})*{re.escape(last)})(?![\w'’-])", answer)
    # the capitalised words before it, less titles, openers and a surname's particles ("Sir", "The", "Van")
    given = [w for w in said.group(1).split() if w.lower() not in _TITLES and not re.fullmatch(_PARTICLE, w + " ", re.I)] \
        if said else []
    if not said or not given:
        return (said, "") if said else None
    initials = {w[0].lower() for w in core.split()[:-1]}
    his = any(found_in(t, worded(core)) for w in given for t in worded(w)) or any(len(w.strip(".")) == 1
                                                                                   and w[0].lower() in initials for w in given)
    return said, "his" if his else "other"  # "Gerald Rudolph Ford", "J G Ballard"; "Theodore Roosevelt"


def full_name(answer: str, reference: str, question: str) -> str:
    """The answer with the surname of the person the reference names written as the whole name, as people
    name a person by the surname alone: "Einstein developed it." for "Albert Einstein" reads "Albert
    Einstein developed it.", 爱因斯坦 for 阿尔伯特·爱因斯坦 likewise. Not where a given name of its own
    comes before it ("Theodore Roosevelt", 赫尔曼·爱因斯坦: another person), and only where the question asks who."""
    core = reference.strip(" .。")
    if is_chinese(core) and _WHO.search(question or "") and zh_dotted(core) == (core,) and core not in answer:
        last = core.split("·")[-1]
        return answer if re.search(rf"[·•・]\s*{last}", answer) else re.sub(rf"(?<![·•・\s]){re.escape(last)}", core, answer, count=1)
    found = _surname_said(answer, core, question)
    if not found or found[1]:  # another person's name, or his own given name written: nothing to rewrite
        return answer
    said = found[0]  # "Sir Newton", "The Newton laws": the words before it kept, a particle not ("Van Gogh")
    return answer[:said.start()] + re.sub(rf"(?:{_PARTICLE})+$", "", said.group(1), flags=re.I) + core + answer[said.end():]


def other_person(answer: str, reference: str, question: str) -> str | None:
    """The answer names another person with the reference's surname ("Theodore Roosevelt" for "Franklin D.
    Roosevelt" to "Who launched the New Deal?", 路易斯·阿姆斯特朗 for 尼尔·阿姆斯特朗): another given name is another person."""
    core = reference.strip(" .。")
    if is_chinese(core):  # 路易斯·阿姆斯特朗 for 尼尔·阿姆斯特朗 (达·芬奇 is part of 列奥纳多·达·芬奇)
        parts = core.split("·")
        other = [n for n in zh_dotted(answer) if zh_dotted(core) == (core,) and _WHO.search(question or "")
                 and n.split("·")[-1] == parts[-1] and not n.split("·")[0].endswith(tuple(parts[:-1]))]
        return f"{other[0]} for {core}" if other else None
    found = _surname_said(answer, core, question)
    return f"{found[0].group(0)} for {core}" if found and found[1] == "other" else None


# Everyday nouns that name one kind of thing ("skin condition" for "skin disease", "baby stroller" for "baby
# buggy", "a small vessel" for "a small boat", 医师 for 医生): the same word, written another way.
_SAME_KIND = [group.split() for group in (
    "boat vessel craft", "ship vessel", "house home dwelling residence", "disease condition disorder illness ailment sickness",
    "stroller buggy pushchair pram perambulator", "car automobile motorcar", "doctor physician", "film movie",
    "aircraft aeroplane airplane plane", "shop store", "prison jail gaol", "cemetery graveyard", "lawyer attorney",
    "sofa couch settee", "trousers pants", "lorry truck", "flat apartment", "rubbish garbage trash", "tap faucet",
    "toilet lavatory restroom", "pharmacy chemist drugstore", "医生 医师 大夫", "房子 房屋 住宅", "汽车 轿车", "电影 影片")]


def same_kind(answer: str, reference: str) -> str:
    """The answer with each noun of a _SAME_KIND set that the reference writes as another of the set written
    as the reference writes it: one thing, one word, for the key terms and the head rules to compare."""
    for group in _SAME_KIND:
        ours = [w for w in group if _word(w).search(reference)]
        if len(ours) == 1:
            for w in group:
                if w != ours[0] and not _word(ours[0]).search(answer):
                    answer = _word(w).sub(ours[0], answer)
    return answer


def _word(word: str) -> re.Pattern:
    """A word as written, in any case and with a plural ending (Chinese: anywhere)."""
    return re.compile(re.escape(word) if is_chinese(word) else rf"\b{re.escape(word)}(?:s|es)?\b", re.I)
