"""Who does an act to a thing: the statement names one doer, the evidence another for the same act on the same
thing. "The retainer is adjusted by the patient" against "Retainers are adjusted only by the orthodontist"; "The
apprentice checks the work" against "…is checked by master watchmaker Tom Hartley"; 婚纱由新娘自行清洗 against
婚纱归还后由店里统一干洗; 证书由故宫博物院出具 against 证书由南京博物院出具.

The doer is read from the clause's structure, not from names: in English the side after a participle's "by", the
words before an active verb that opens the clause, or, where both clauses are active ("the library pays for the
repair" / "the borrower pays for the repair"), the subject its present-tense verb agrees with; in Chinese the side
after 由 or 被, up to the verb. roles.py reads swaps between two named sides of one relation; here the statement's
doer need not appear in the evidence at all, and the thing acted on (the retainer, the dress) is what ties the two
clauses. contradiction.py reads it as swapped roles."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import negated
from ragpipe.core.text import is_chinese, pos_tags, stem

_EN_CLAUSES = re.compile(r"[;.!?]\s*|,\s+(?=(?:and|but|while|whereas|not)\b)")
_ZH_CLAUSES = re.compile(r"[，。；;！？!?、：:,]")
# "adjusted only by the orthodontist": a participle, an adverb that limits it, "by" and the doer.
_EN_PASSIVE = re.compile(r"\b(?P<verb>[a-z]+(?:ed|en|wn|ne|ld|ght|id))\s+(?:(?:only|always|solely|exclusively|usually|"
                         r"personally|directly|then|also)\s+)?by\s+(?=(?P<doer>[^,;.!?]+))", re.I)
# The doer ends where a time, place, purpose or another clause begins.
_EN_DOER_END = re.compile(r"\s+(?:at|in|on|during|before|after|when|for|with|from|to|and|or|who|which|that|if|once|"
                          r"every|each|within|as|until|so|because|unless|while|under|is|are|was|were|has|have|will|"
                          r"must|can)\b", re.I)
_EN_LEAD = re.compile(r"^(?:(?:only|the|our|a|an|your|their|its|his|her|this|that|these|those|each|every|all|any|"
                      r"one\s+of\s+the)\s+)+", re.I)
# A side of "by" that is a manner, a means or a time, not a doer: "by calling", "by Friday", "by 5 p.m.", "by card".
_EN_NOT_DOER = re.compile(r"\d|\w+ing\b|^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|"
                          r"march|april|june|july|august|september|october|november|december|noon|midnight|tomorrow|"
                          r"then|now|default|hand|mail|post|email|e-mail|phone|telephone|card|cash|cheque|check|"
                          r"appointment|car|bus|train|air|sea|road|rail|courier|itself|themselves|far|law)\b", re.I)
# A cause or an influence is one of several, not the one doer of an act: "caused by a reduction in cartilage" and
# "caused by normal wear and tear" are both said of osteoarthritis.
_EN_CAUSE = re.compile(r"^(?:caus|influenc|affect|trigger|driv|inspir|fuel|motivat|explain|accompani|follow|preced)")
# Words between an active doer and its verb: a modal or an adverb ("The orthodontist will only adjust …").
_EN_BETWEEN = re.compile(r"^(?:will|must|should|can|may|shall|would|could|always|only|also|usually|then|personally)$",
                         re.I)
_EN_MODALS = {"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"}

# 由 and 被 that open a doer; not 由于, 理由, 自由, 缘由, 由此, 被告, 被子 (roles.py keeps the nouns of 被).
_ZH_BY = re.compile(r"(?<![理自缘来经])由(?![于此衷来])|被(?!告|保险|执行|害人|申请|上诉|继承|监护|抚养|赡养|子|褥)")
# Words between a Chinese doer and its verb: how, whether and when the doer acts ("由店里统一干洗", "由学员自己检查").
_ZH_MANNER = re.compile(r"^(?:自行|自己|亲自|统一|负责|逐件|逐一|专门|集中|直接|全程|独自|单独|免费|先|再|会|将|需|须|"
                        r"应|应当|必须|可以|可|来|去|进行|都|均|也|另行|定期|每天|每周|每月|当场|现场|上门)$")
# A quantifier before a Chinese doer leaves it the same doer ("由各队队员", "由每位老师").
_ZH_QUANTIFIER = re.compile(r"^(?:各队|各位|各个|每位|每个|每名|所有|全体|全部|各|每|该|本|我们的?|我们)")


def _en_verb(word: str) -> str:
    """A verb's stem for matching a participle with a present form: "serviced" / "services", "checked" / "checks"."""
    return stem(word.lower()).rstrip("e")


def _en_readings(clause: str) -> list[tuple[str, str, str]]:
    """(verb stem, doer, the thing acted on) of an English clause: the doer after a participle's "by", the thing
    before the participle."""
    found = []
    for match in _EN_PASSIVE.finditer(clause):
        doer = _EN_LEAD.sub("", _EN_DOER_END.split(match["doer"], 1)[0].strip())
        verb = _en_verb(match["verb"])
        if doer and len(doer.split()) <= 4 and not _EN_NOT_DOER.search(doer) and not _EN_CAUSE.match(verb):
            found.append((verb, doer.lower(), clause[:match.start()]))
    return found


def _en_active(clause: str, verb: str) -> tuple[str, str] | None:
    """The doer of ``verb`` in an English clause that opens with it ("The apprentice checks the work …"), with the
    thing acted on (the object, up to five words before a comma), or None. A participle after a comma or before
    "by" is no active verb ("Hawkeye, played by Jeremy Renner")."""
    tokens = clause.split()
    for k, token in enumerate(tokens):
        if not k or _en_verb(re.sub(r"\W", "", token)) != verb or tokens[k - 1].lower() in _EN_MODALS:
            continue
        if tokens[k - 1].endswith(",") or tokens[k + 1:k + 2] == ["by"]:
            return None
        before = [t for t in tokens[:k] if not _EN_BETWEEN.match(t)]
        doer = _EN_LEAD.sub("", " ".join(before)).strip()
        if doer and len(doer.split()) <= 3 and not re.search(r"\d|[,(]", doer) and doer.lower() != "it":
            return doer.lower(), " ".join(clause.split(",")[0].split()[k + 1:k + 6])
    return None


# An English subject opens a clause or follows its lead clause ("If …, the library pays"), mostly after a determiner.
_EN_SUBJECT = re.compile(r"(?:^\W*|,\s+)(?P<det>(?:the|our|your|their|each|every|a|an)\s+)?(?=[a-z])", re.I)
_EN_AUXILIARY = re.compile(r"^(?:will|must|should|always|usually|then|also|only)$", re.I)
# A describing word before a noun is no doer ("the main differences", "the latest offensive"); "has" and function
# words are no act.
_EN_NOT_NOUN = re.compile(r"^(?:main|major|key|most|least|latest|recent|first|last|next|other|same|new|old|best|worst|"
                          r"only|primary|whole|entire|\w+(?:est|ous|ful|ive|al|ic|able|ible))$")
_EN_NOT_ACT = {"has", "have", "had", "does", "do", "did", "the", "and", "for", "with", "from", "into", "onto", "than", "then",
               "when", "where", "about", "also", "this", "that", "these", "those", "there", "their", "its", "his", "her"}
_EN_RELATIVE = {"who", "which", "that", "whose", "whom"}


def _en_subjects(clause: str) -> list[tuple[str, str, str]]:
    """(verb stem, doer, what follows the verb) of each subject and present-tense verb of an English clause that agree
    in number: one or two nouns after a determiner, then a singular doer's verb in -s or a plural doer's bare verb
    ("the library pays", "borrowers pay", "our technicians will treat"). An imperative, "to set the …" or "type of
    work" has no doer."""
    found = []
    for match in _EN_SUBJECT.finditer(clause):
        tokens = re.findall(r"[A-Za-z'-]+|[^\sA-Za-z'-]+", clause[match.end():])
        tokens[:1] = [w.lower() for w in tokens[:1]]  # "Borrowers pay …"
        for size in (1, 2) if match["det"] else (1,):  # without a determiner, one plural noun: "Borrowers pay …"
            if len(tokens) <= size + 1 or not all(re.fullmatch(r"[a-z]+", w) and w not in _EN_MODALS | _EN_RELATIVE | _EN_NOT_ACT
                                                   for w in tokens[:size]) or _EN_NOT_NOUN.match(tokens[size - 1]):
                break
            doer, k = " ".join(tokens[:size]), size
            auxiliary = _EN_AUXILIARY.match(tokens[k]) is not None  # "the guide will collect": any verb form agrees
            k += auxiliary
            verb = tokens[k].lower() if k < len(tokens) else ""
            plural = doer.endswith("s") and not doer.endswith("ss")
            if not match["det"] and (not plural or match.start() or not clause.lstrip()[:1].isupper()):
                break  # "offers outdoor seating" (a fragment) is no doer and act
            if re.fullmatch(r"[a-z]{3,}", verb) and verb not in _EN_MODALS | _EN_NOT_ACT \
                    and (auxiliary or verb.endswith("s") != plural) and tokens[k + 1:]:
                found.append((_en_verb(verb), doer, " ".join(tokens[k + 1:])))
                break
    return found


def _zh_readings(clause: str) -> list[tuple[str, str, str]]:
    """(verb, doer, the clause's text before the doer) of a Chinese clause: the doer after 由 or 被, one to three
    words up to its verb (the first verb after them, manner words skipped)."""
    found = []
    for match in _ZH_BY.finditer(clause):
        doer: list[str] = []
        for token, flag in pos_tags(clause[match.end():]):
            if _ZH_MANNER.match(token):
                continue
            if doer and flag.startswith("v") and len(token) >= 2:
                side = _ZH_QUANTIFIER.sub("", "".join(doer))
                if side:
                    found.append((token, side, clause[:match.start()]))
                break
            if len(doer) == 3 or not re.fullmatch(r"[\u4e00-\u9fff]+", token):
                break
            doer.append(token)
    return found


def _zh_other_doer(stated: str, said: str) -> bool:
    """Two Chinese doers that are not one: no character shared, or the same head under another modifier
    (故宫博物院 / 南京博物院); one inside the other is the same doer named shorter (店里 / 本店 share 店 and are kept)."""
    if stated in said or said in stated:
        return False
    if not set(stated) & set(said):
        return True
    return len(stated) >= 4 and len(said) >= 4 and stated[-2:] == said[-2:]


def _en_other_doer(stated: str, said: str) -> bool:
    """Two English doers that share no word, stems and near spellings compared ("organizations" / "organisations")."""
    return not any(found_in(term, words(said)) for term in words(stated))


def _same_thing(one: str, other: str, doers: tuple[str, str], verb: str) -> bool:
    """The two clauses speak of one thing: a word of the statement's clause besides its doer and its verb is in the
    evidence clause (in Chinese, inside one of its words: 证书 in 鉴定证书)."""
    if is_chinese(one):
        return any(len(t) >= 2 and t not in doers and t in other for t in words(one))
    left_out = set(words(" ".join(doers))) | {verb}
    held = [t for t in words(other) if t not in left_out]
    return any(t not in left_out and not t.startswith(verb[:4]) and found_in(t, held) for t in words(one))


# A question names no doer ("Who directed the film: Ang Lee", 由谁出具), nor does a clause that asks one.
_ASKED = re.compile(r"\b(?:who|whom|whose|which|what)\b|[?？]|谁|哪|什么", re.I)


def other_doer(statement: str, sentences: list[str]) -> tuple[str, str, str] | None:
    """The statement's doer of an act, the evidence's other doer of the same act on the same thing, and the evidence
    sentence; or None. Negated clauses are left out: "is not checked by the apprentice" names no doer."""
    chinese = is_chinese(statement)
    for clause in (_ZH_CLAUSES if chinese else _EN_CLAUSES).split(statement):
        if not clause.strip() or negated(clause) or _ASKED.search(clause):
            continue
        for sentence in sentences:
            if is_chinese(sentence) != chinese:
                continue
            for part in (_ZH_CLAUSES if chinese else _EN_CLAUSES).split(sentence):
                if not part.strip() or negated(part) or _ASKED.search(part):
                    continue
                found = _zh_doers(clause, part) if chinese else _en_doers(clause, part)
                if found and not _named_also(*found, part) and not _named_also(found[1], found[0], clause):
                    return (*found, sentence)
        if not chinese:
            found = _en_active_doers(clause, [s for s in sentences if not is_chinese(s)])
            if found:
                return found
    return None


def _en_active_doers(clause: str, sentences: list[str]) -> tuple[str, str, str] | None:
    """Both in the active voice: one act on one thing, two doers ("If a tool is damaged, the library pays for the
    repair" / "…, the borrower pays for the repair"), where no evidence clause gives the act to the statement's doer."""
    readings = [(reading, s) for s in sentences for part in _EN_CLAUSES.split(s) if not negated(part)
                for reading in _en_subjects(part)]
    for verb, stated, thing in _en_subjects(clause):
        done = [(said, sentence) for (other_verb, said, other_thing), sentence in readings
                if other_verb == verb and words(said) and _same_thing(thing, other_thing, (stated, said), verb)]
        if words(stated) and done and all(_en_other_doer(stated, said) for said, _ in done) \
                and not any(_does(stated, verb, sentence) for sentence in sentences):
            return stated, done[0][0], done[0][1]
    return None


def _does(doer: str, verb: str, sentence: str) -> bool:
    """The sentence has the doer before the verb, a few words apart, however it is built ("…, tendons connect
    muscle to bone"): it gives the act to the statement's doer too."""
    tokens = [_en_verb(t) for t in re.findall(r"[a-z]+", sentence.lower())]
    heads = {_en_verb(w) for w in doer.split()}
    return any(t in heads and verb in tokens[k + 1:k + 4] for k, t in enumerate(tokens))


# What follows a name to give another name of the same one: "Mark Twain, the pen name of Samuel Clemens".
_ALSO_NAMED = re.compile(r"^\s*(?:[,，(（]|also known as\b|aka\b|or\b)", re.I)


def _named_also(stated: str, said: str, part: str) -> bool:
    """``part`` gives its doer ``said`` the other doer as another name, right after it (an apposition or a bracket):
    "written by Mark Twain, the pen name of Samuel Clemens" bears out "written by Samuel Clemens"."""
    at = part.lower().find(said)
    after = part[at + len(said):] if at >= 0 else ""
    return bool(_ALSO_NAMED.match(after)) and stated in after.lower()


def _zh_doers(clause: str, part: str) -> tuple[str, str] | None:
    for verb, stated, rest in _zh_readings(clause):
        for other_verb, said, other_rest in _zh_readings(part):
            if (verb == other_verb or len(verb) == len(other_verb) == 2 and verb[-1] == other_verb[-1]) and \
                    _zh_other_doer(stated, said) and _same_thing(rest, other_rest, (stated, said), verb):
                return stated, said
    return None


def _en_doers(clause: str, part: str) -> tuple[str, str] | None:
    evidence_readings = _en_readings(part)
    # A statement in the active voice against the evidence's passive: the verb of the passive found in the statement.
    for verb, said, thing in evidence_readings:
        active = _en_active(clause, verb)
        if active and _en_other_doer(active[0], said) and (
                _same_thing(active[1], thing, (active[0], said), verb) or _crossed(active, (said, thing))):
            return active[0], said
    for verb, stated, thing in _en_readings(clause):
        for other_verb, said, other_thing in evidence_readings:
            if verb == other_verb and _en_other_doer(stated, said) and _same_thing(thing, other_thing, (stated, said), verb):
                return stated, said
        active = _en_active(part, verb)
        if active and _en_other_doer(stated, active[0]) and _same_thing(thing, active[1], (stated, active[0]), verb):
            return stated, active[0]
    return None


def _crossed(one: tuple[str, str], other: tuple[str, str]) -> bool:
    """Each side's doer is in the other side's thing: "The apprentice checks Tom Hartley's work" against "Every watch
    serviced by our apprentice is checked by … Tom Hartley" trades the two people, whatever the thing is called."""
    return all(any(found_in(t, words(thing)) for t in words(doer)) for doer, thing in ((one[0], other[1]),
                                                                                      (other[0], one[1])))
