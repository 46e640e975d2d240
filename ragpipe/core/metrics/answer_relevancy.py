import re

import numpy as np

from ragpipe.core.evidence.facts import dates_at, facts, fold
from ragpipe.core.evidence.quantities import quantities
from ragpipe.core.evidence.features import MAX_EMBED_CHARS, language_of, normalized_cosine
from ragpipe.core.evidence.refusals import says_unanswerable
from ragpipe.core.evidence.agreement import elliptical
from ragpipe.core.evidence.support import claims, context_claims, declines, without_lead_in
from ragpipe.core.evidence.weekdays import names_a_weekday
from ragpipe.core.judged.prompts import ANSWER_ANALYSIS, ANSWER_RELEVANCY
from ragpipe.core.metrics.answer_correctness import polarity
from ragpipe.core.metrics.asked_actions import names_no_way
from ragpipe.core.metrics.base import JudgeUse, Metric, MetricResult, Toolkit
from ragpipe.core.metrics.money import MONEY, MONEY_ASKED
from ragpipe.core.metrics.time_values import CLOCK_TIME, DURATION
from ragpipe.core.metrics.places_and_steps import (BESIDE_LANDMARK, LOCATIVE, a_time, bare_place, gives_route, instructs,
                                                   may_name_place, named_places, task_step)
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import content_tokens, is_chinese, jieba_ready, pos_tags

# "几" before a measure word asks how many ("几颗", "几本", "几辆"): any character but those that make
# it another word (几乎, 几何) or ask a time (几月, 几号, 几点, 几时); after 周/星期/礼拜 it asks a weekday.
_HOW_MANY = r"(?<![周期拜])几(?![乎何月号日点时])[\u4e00-\u9fff]"
_ZH_NUMERAL = "零〇一二三四五六七八九十两百千万亿半"
# What a question asks for, and whether an answer gives it: a question that asks for a
# quantity, a duration, a time, a place, a person or a yes/no is answered directly by one.
ASKS = {
    "duration": re.compile(r"多久|多长时间|几年|几个月|几天|几周|几小时|\bhow long\b", re.I),
    "quantity": re.compile(
        rf"多少|{_HOW_MANY}|多大|多高|多远|多长|百分之几|最低|最高|上限|下限|比例|金额|额度|税率|利率|费率|"
        r"\bhow (?:much|many|old|large|big|high|tall|far|often)\b|\b(?:minimum|maximum|lowest|highest|"
        r"percentage|percent|proportion|amount|number of|rate|cost|price|fee|limit)\b", re.I),
    "time": re.compile(r"什么时候|何时|哪一?年|几月|几号|几点|哪一?天|(?:周|星期|礼拜)几|日期|截止|\bwhen\b|\b(?:what|which) (?:year|date|day|time)\b|"
                       r"\bdeadline\b|"  # a schedule asked by its name ("What are the opening hours?", 营业时间是？)
                       r"\b(?:opening|business|office|visiting|trading) (?:hours|times)\b|(?:营业|开放|开门|办公)时间", re.I),
    "place": re.compile(r"哪里|哪儿|在哪|什么地方|哪个(?:国家|城市|省)|\bwhere\b", re.I),
    "person": re.compile(r"谁|哪位|\bwho(?:m|se)?\b", re.I),
    "yes/no": re.compile(r"吗\W*$|是否|能否|可否|有没有|是不是|会不会|能不能|可不可以|^\W*(?:is|are|was|were|do|does|"
                         r"did|can|could|will|would|has|have|should|may|must)\b", re.I),
    # "Which river …?", "哪支球队…？": a named thing (asked last, so "which year" stays a time).
    "name": re.compile(r"哪[一]?[条家支座所部款位]|\bwhich\s+[a-z]", re.I),
    # "How do I reset my router?", "怎么煮溏心蛋？": a way to do something, given by an instruction.
    "procedure": re.compile(r"\bhow (?:do|can|should|would|could) (?:i|you|we|one)\b|\bhow to\b|"
                            r"\b(?:best|easiest|quickest|fastest|right) way to\b|怎么(?!样|回事)|怎样(?!的)|如何", re.I),
}
_NUMBER = re.compile(r"\d|百分之|[零〇一二三四五六七八九十两百千万亿半][多余]?\s*[个位项年月日天岁次倍元成人家名周小时分钟公里米]|"
                     r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
                     r"sixty|seventy|eighty|ninety|hundred|thousand|million|billion|half|dozen)\b", re.I)
# Semantic closeness of question and answer, as a language-normalised e5 cosine: about 0 for
# unrelated texts; from this much on an answer is fully on the question's topic.
ON_TOPIC = 0.3
OFF_TOPIC = -0.05
# The kinds of one value (not a yes or no, a named thing or a way, which an answer may give in other words).
VALUE_KINDS = ("quantity", "duration", "time", "place", "person")
DOMAIN_ONLY = 0.4  # the most an answer's topic reaches from closeness alone, below on topic (0.5)
DIRECT = 0.8  # the least a statement reaches that gives the asked value about the question's topic


# "How long is the trail?" asks a length as well as a time: "About 12 miles." gives it (多长 asks a quantity).
_LENGTH_ASKED = re.compile(r"\bhow long (?:is|are|was|were)\b", re.I)


def _when_left_out(text: str) -> str:
    """The text less its dates and clock times: what is left to give a quantity ("At 6 p.m." gives none)."""
    chars = list(CLOCK_TIME.sub(lambda m: " " * len(m.group(0)), text))
    for start, end, _ in dates_at(text):
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _bare_date(text: str) -> bool:
    """Only a date or a clock time, with its preposition ("On the third of February.", "六月十二号。")."""
    rest = content_tokens(_when_left_out(text))
    return len(rest) < len(content_tokens(text)) and not rest


# A question with two asks ("Can a 15-person business apply, and how much would it get?", "Where and when…?") has
# no single kind of value: an answer may give either.
_ASKS = re.compile(r"\b(?:what|when|where|who|whom|which|how|why)\b|什么|何时|哪|谁|怎么|如何|多少|多久|多长|几", re.I)
_AND_ASK = re.compile(r"\band\s+(?:how|what|when|where|who|which|why|is|are|can|do|does)\b|"
                      r"[，,]\s*(?:how|what|when|where|who|which|why)\b", re.I)


def asks_one_thing(question: str) -> bool:
    return (len(_ASKS.findall(question)) <= 1 and len(re.findall(r"[?？]", question)) <= 1
            and not _AND_ASK.search(question))


def asked(question: str) -> str | None:
    return next((kind for kind, pattern in ASKS.items() if pattern.search(question)), None)


# An answer that only says the asked value varies or cannot be told ("Prices depend on many factors,
# so it's hard to say.", "因人而异，很难说。") evades the question without refusing it. Depending on named
# things ("Scores depend mainly on how well you know the material.", "取决于您的知识掌握程度") is an answer.
_HEDGE = re.compile(r"\b(?:hard|difficult|impossible) to (?:say|tell|know|predict)\b|\bno (?:simple|single|easy|one|"
                    r"clear|straight) answer\b|\bcase[- ]by[- ]case\b|\b(?:depends?|depending|varies|vary|varying)\b"
                    r"(?:\s+(?:on|with|by|from|according to))?\s*(?:(?:a lot of|lots of|many|several|various|a number of|"
                    r"numerous|different|a (?:few|variety of)|multiple)\b|(?:the |your )?(?:situation|circumstances|"
                    r"case|person|individual)\b|[.,;!?]|$)|因人而异|因.{1,4}而异|视(?:具体)?情况而定|(?:看|视)(?:具体|个人|实际)?情况(?!下)|不好说|"
                    r"\b(?:good|great|interesting|fair|excellent) question\b|好问题|"  # a pleasantry beside the hedge says nothing either
                    r"\b(?:many|several|a lot of|lots of|various|a number of) (?:things|factors|aspects|considerations) (?:to|you should|you need to) "
                    r"(?:consider|think about|weigh|keep in mind)\b|(?:需要|要)(?:考虑|权衡)(?:的)?(?:因素|方面)?(?:很多|许多|诸多)|"
                    r"很难说|说不准|说不好|难以(?:确定|判断|回答|一概而论)|不能一概而论|(?:取决于|受到?)(?:很多|许多|多种|诸多|各种|"
                    r"不同)因素|(?:都|各)不(?:一样|相同)", re.I)

# An opening recommendation answers a yes/no question as a yes or no does ("Better not to…", "最好不要…").
_ADVICE = re.compile(r"^\W*(?:(?:it(?:'s| is) )?(?:better|best|advisable|safer|wiser) (?:not )?to\b|(?:you )?(?:should|"
                     r"shouldn't|must not|mustn't|need not|needn't)\b)|^\W*(?:最好|建议|不建议|应该|不应该|不宜|不要|别|无需|不必|"
                     r"没必要)", re.I)


# Where a bare list's items part ("黑色、白色、天蓝色", "Water, snacks and a map").
_LIST_SEPARATOR = re.compile(r"\s*(?:[、，,;；]|\band\b|\bor\b|以及|和|及|或者?)\s*", re.I)


def _bare_list(text: str) -> bool:
    """Short items and nothing else ("黑色、白色、天蓝色。", "周六的CA1405和周日的3U8882", "Water, snacks,
    a rain jacket and a map."): like a bare value, a reply to the question itself."""
    items = [i for i in _LIST_SEPARATOR.split(re.sub(r"[。.!！]+$", "", text.strip())) if i and i.strip()]
    if len(items) < 2:
        return False
    if is_chinese(text):
        jieba_ready()
        return all(len(re.sub(r"[\W_]", "", i)) <= 12 and not _predicate(i) for i in items)
    return all(elliptical(i) for i in items)


def _predicate(item: str) -> bool:
    """A Chinese verb that ends the item or is followed by other than a noun ("成立于…", "去了…"); one
    before a noun names it ("抹/v 茶/n 布丁"; "清蒸/vn 鲈鱼")."""
    tagged = [flag for word, flag in pos_tags(item) if re.search(r"\w", word)]
    return any(flag == "v" and (i + 1 == len(tagged) or not tagged[i + 1].startswith("n"))
               for i, flag in enumerate(tagged))


def _restates(answer: str, question: str) -> bool:
    """The answer's first clause says or denies what a yes/no question asks, in its words ("周一不营业，…"
    to "这家餐厅周一营业吗？", "It is not open on Mondays." to "Is the museum open on Mondays?"): a yes or
    a no. It holds half the question's words and its last, where the asked predicate ends ("The museum
    opened in 1998." says nothing of Mondays)."""
    clause = re.split(r"[,，;；:：。.!！]", answer.strip(), maxsplit=1)[0]
    asked_terms = content_tokens(question)
    held = set(asked_terms) & set(content_tokens(clause))
    return (bool(asked_terms) and asked_terms[-1] in held and len(held) >= 0.5 * len(set(asked_terms))
            and not _HEDGE.search(clause))


# A short-form reply: "It does.", "They can't.", "There is." say yes or no to "Does …?", as "支持。" / "不提供" /
# "营业的" (the question's own predicate, maybe negated) do to "…支持…吗？".
_EN_SHORT_REPLY = re.compile(r"^\W*(?:yes|no)?\W*(?:it|they|he|she|we|you|i|this|that|these|those|there)\s+(?:is|are|was|"
                             r"were|do|does|did|can|could|will|would|has|have|had|should|may|might|must)(?:n't|\s+not)?\W*$", re.I)
_ZH_ECHO = re.compile(r"^(?:并?不|没有?|也|都|还|是)?(?P<predicate>[\u4e00-\u9fff]{1,4}?)(?:的|了|呢|啊|哦)?$")


def _first_clause(text: str) -> str:
    return re.split(r"[,，;；:：。.!！?？]", text.strip(), maxsplit=1)[0].strip()


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[。！!；;])|(?<=\.)\s", text.strip(), maxsplit=1)[0].strip()


def _short_reply(answer: str, question: str) -> bool:
    """The answer's first clause is a short-form yes or no: an English subject and auxiliary alone, or a
    word of the Chinese question alone, save a name, time or number, and a noun unless it ends the question
    ("营业。" to "周一营业吗？"; "手机。" to "这款手机支持无线充电吗？" is no reply). jieba tags a lone
    predicate unreliably ("营业" n, "经过" p), so its place in the question decides for a noun."""
    clause = _first_clause(answer)
    if _EN_SHORT_REPLY.match(clause):
        return True
    echo = _ZH_ECHO.match(clause)
    if not echo or echo["predicate"] not in question:
        return False
    flags = {flag for _, flag in pos_tags(echo["predicate"])}
    ends_question = re.search(rf"{echo['predicate']}(?:吗|么|不|没有)?\W*$", question)
    return not flags & {"nr", "ns", "nt", "nz", "r", "m", "t", "q"} and ("n" not in flags or bool(ends_question))


def gives(kind: str, answer: str, question: str = "") -> bool:
    said = facts(answer)
    # A numeral before the measure word the question counts with ("两颗" to "几颗"/"多少颗").
    measure = re.search(r"(?:几|多少)([\u4e00-\u9fff])", question)
    counted = bool(measure and re.search(rf"[\d{_ZH_NUMERAL}]\s*{measure.group(1)}", answer))
    # A name the question already holds ("Kenya's", "Kenyan" to "… Kenya?") is no name given.
    asked_names = facts(question).names
    new_names = [n for n in said.names if not any(n.removesuffix("'s").startswith(q) or q.startswith(n)
                                                  for q in asked_names)]
    places = named_places(answer)
    spots = [n for n in new_names if not a_time(n)]  # "on Saturdays" puts nothing anywhere
    amount = _when_left_out(answer)  # a date or a clock time is no amount: "At 6 p.m." to "How tall…?"
    return {"duration": lambda: bool(DURATION.search(answer)) or bool(_LENGTH_ASKED.search(question)) and any(
                q.dimension == "length" for q in quantities(answer)),
            "quantity": lambda: bool(MONEY.search(answer)) if MONEY_ASKED.search(question) else
            counted or bool(_NUMBER.search(amount) or facts(amount).numbers),
            "time": lambda: bool(said.years or said.months or DURATION.search(answer) or CLOCK_TIME.search(answer)
                                 or names_a_weekday(answer)
                                 or re.search(r"每年|每月|每周|今年|明年|\b(?:every|each)\s+(?:year|month|week)\b", answer, re.I)),
            "place": lambda: bool(spots) and bool(elliptical(answer) or LOCATIVE.search(answer)
                                                  or _takes_up(answer, question) and any(may_name_place(n, answer) for n in spots))
            or any(p not in fold(question) for p in places) or bare_place(answer)  # "在人民路", "Behind the mall."
            or bool(BESIDE_LANDMARK.search(answer)),  # "投入3号门旁的回收箱", "in the bin next to the main entrance"
            "person": lambda: any(not any(n in p for p in places) for n in new_names),
            "name": lambda: bool(new_names),
            "yes/no": lambda: (polarity(answer) is not None or bool(_ADVICE.match(answer)) or _restates(answer, question)
                               or _short_reply(answer, question)),
            "procedure": lambda: instructs(answer) or gives_route(question, answer)}[kind]()


def _asked_words(question: str) -> set[str]:
    """The question's content words besides its names: what it asks, not its topic."""
    return set(content_tokens(_without_names(question, facts(question).names)))


def _takes_up(answer: str, question: str) -> bool:
    return bool(_asked_words(question) & set(content_tokens(answer)))


def _reply(text: str, question: str = "") -> str:
    """The text less a lead-in that only points at the sources ("According to the documents, …",
    "根据资料，…"); an opening yes or no ("No, …", "可以，…", "It does, …") is the reply itself and stays. Text
    written in capitals is read in lower case: the embedding model reads "USE LS" as other words."""
    text = text.strip()
    letters = [c for c in text if c.isalpha() and c.isascii()]
    if len(letters) >= 12 and sum(c.isupper() for c in letters) >= 0.8 * len(letters):
        text = text.lower()
    return text if polarity(text) is not None or _short_reply(text, question) else without_lead_in(text)


def _without_names(text: str, names) -> str:
    """The text less the given names and the words made from them ("Kenya's", "Kenyan")."""
    for name in names:
        text = re.sub(rf"\b{re.escape(name)}\w*(?:['’]s)?" if name.isascii() else re.escape(name), " ", text, flags=re.I)
    return re.sub(r"\s+", " ", text).strip()


def _closeness(kit: Toolkit, question: str, statements: list[str], unmask: list[bool]) -> np.ndarray:
    """Each statement's e5 closeness to the question, read against unrelated texts. A name the two
    share pulls any statement about it close ("Kenya's currency…" to "Which vaccines … Kenya?"), so
    a statement that repeats one of the question's names, and not one of ``unmask``, is compared with
    the names left out of both."""
    language = language_of(question)
    # Cut as the verifier cuts them, so these are the vectors it embeds (no second pass).
    closeness = normalized_cosine(kit.embedder.backend, kit.embedder.similarity(
        [question], [s[:MAX_EMBED_CHARS] for s in statements])[0], language)
    names = facts(question).names
    masked = {i: _without_names(s, names) for i, s in enumerate(statements)
              if names and not unmask[i] and _without_names(s, names) != s}
    bare_question = _without_names(question, names)
    if masked and bare_question:
        cosines = kit.embedder.similarity([bare_question], [masked[i][:MAX_EMBED_CHARS] or "-" for i in masked])[0]
        for i, value in zip(masked, normalized_cosine(kit.embedder.backend, cosines, language)):
            closeness[i] = value
    return closeness


def _llm(case: EvalCase, kit: Toolkit) -> MetricResult:
    """RAGAS: questions the answer would answer, compared with the asked one; 0 if evasive."""
    questions, noncommittal = kit.llm.answer_questions(case.answer)
    if noncommittal:
        return MetricResult(0.0, {"noncommittal": True, "generated_questions": questions})
    related = kit.relatedness(kit.embedder.similarity([case.question], questions)[0])
    return MetricResult(float(related.mean()), {"generated_questions": questions,
                                                "relatedness": [round(float(r), 4) for r in related]})


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if kit.llm is not None:
        return _llm(case, kit)
    said = kit.statements(case.answer)
    if declines(said) or says_unanswerable(said) and not context_claims(said):
        return MetricResult(0.0, {"noncommittal": True})
    answer = _reply(case.answer, case.question)
    kind = asked(case.question)
    details = {"asks": kind, "gives_asked": None if kind is None else gives(kind, answer, case.question)}
    hedges = [_HEDGE.search(c) for c in claims(said)]
    if details["gives_asked"] is False and hedges and all(hedges):  # no claim at all ("It does.") is no hedge
        return MetricResult(0.0, {**details, "noncommittal": True, "evasive": True})
    if elliptical(answer) or _bare_list(answer) or _bare_date(answer) or kind == "place" and bare_place(answer):
        # A bare value, name or list replies to the question itself: direct when it is what was asked (a way
        # asked may be a bare phrase too: "By train.", "坐地铁。"; not one about the thing alone, "这款沙发采用头层牛皮").
        details["elliptical"] = True
        wayless = (kind == "procedure" and names_no_way(case.question, answer, [answer])
                   and _closeness(kit, case.question, [answer], [False]).max() < ON_TOPIC)
        return MetricResult(1.0 if kind in (None, "procedure") and not wayless or details["gives_asked"] else 0.2, details)
    question_terms = set(content_tokens(case.question))
    # The question's names are its topic, not what it asks: a text that shares no other word with it
    # ("Kenya's currency…" to "Which vaccines … Kenya?") takes up none of its words.
    asked_terms = _asked_words(case.question) or question_terms

    def taken_up(text: str) -> float:
        words = set(content_tokens(text))
        return len(question_terms & words) / len(question_terms) if words & asked_terms else 0.0

    coverage = taken_up(answer)
    statements = [_reply(s) for s in said] or [answer]
    share = [taken_up(s) for s in statements]
    closeness = _closeness(kit, case.question, statements, [t > 0 for t in share])
    topic = np.maximum(np.clip((closeness - OFF_TOPIC) / (ON_TOPIC - OFF_TOPIC), 0.0, 1.0), share)
    one_value = kind in VALUE_KINDS and asks_one_thing(case.question)
    # A how-to answer about the thing alone, off the question for e5, gives no way (asked_actions.py).
    wayless = kind == "procedure" and names_no_way(case.question, answer, statements) and closeness.max() < ON_TOPIC
    domain_only = wayless or details["gives_asked"] is False and (coverage < 0.5 or one_value) and kind not in ("name",
                                                                                                              "procedure")
    if domain_only:
        # Under half the question's words (its subject at most) and nothing it asks: e5 closeness then reads a
        # shared domain, not the question ("布洛芬应在饭后服用" to "药店周六几点关门？", "The store sells organic
        # produce." to "What time does the store open?"). A value asked and not given, whatever words are shared, is
        # another attribute of the same thing ("The pharmacy offers free flu shots." to "Where is the pharmacy?").
        topic = np.minimum(topic, DOMAIN_ONLY)
    # An opening yes or no ("可以，但要随身携带") or bare value ("Two: Phobos and Deimos.", "两颗，分别是…")
    # replies to the question itself, as a bare value alone does, and the statements after it are its grounds.
    opening = re.split(r"\s*[,，:：;；—]\s*", answer, maxsplit=1)[0]
    replied = (kind == "yes/no" and details["gives_asked"]
               or kind not in (None, "procedure") and opening != answer and elliptical(opening)
               and gives(kind, opening, case.question)
               or gives_route(case.question, _first_clause(answer))  # a leg of a journey: "坐地铁2号线到…"
               or kind == "procedure" and task_step(case.question, _first_sentence(answer)))  # "Press Shift, Command and 3"

    def direct(t: float, statement: str) -> bool:
        # Any instruction is near any how-to question for e5 ("Turn off the tap…" to "How do I get to the
        # airport?"): one is direct only when already on topic or acting on a thing the question names.
        if kind == "procedure":
            return ((t >= 0.5 or bool(question_terms & set(content_tokens(statement)))) and gives(kind, statement)
                    or gives_route(case.question, statement)  # a leg of a journey to "How do I get to…?"
                    or task_step(case.question, statement))  # a control or a transaction of the task asked
        return t > 0 and (replied or gives(kind, statement, case.question))

    if kind is not None:  # a statement that gives the asked value about the question's topic is direct, however few
        # of the question's words it repeats ("清晨6点在起飞场集合。" to "坐热气球几点集合？")
        topic = np.array([min(1.0, max(t + 0.5, DIRECT)) if direct(t, s) else t for t, s in zip(topic, statements)])
    on_topic = 1.0 if replied else max(min(coverage, DOMAIN_ONLY) if domain_only else coverage, float(topic.max()))
    focus = float((topic >= 0.5).mean())
    # "Which plan is cheaper?" may be answered without a proper name, "How do I apply?" without an
    # instruction ("Applications go through the portal."): a named thing or a way asked lifts a reply that
    # gives one and lowers none that does not.
    value = on_topic * (0.8 + 0.2 * focus) * (
        0.6 if wayless or details["gives_asked"] is False and kind not in ("name", "procedure") else 1.0)
    details.update(question_term_coverage=round(coverage, 4), closeness=round(float(closeness.max()), 4),
                   on_topic_statement_share=round(focus, 4))
    return MetricResult(float(value), details)


METRIC = Metric(
    name="answer_relevancy",
    definition=("How directly the answer addresses the question. Offline: how much the answer is on the "
                "question's topic (the larger of the share of the question's content words it takes up and its "
                "closest statement's e5 closeness to the question, read against the closeness of unrelated texts; the "
                "question's names are its topic, so a statement that shares no other word with it is read without "
                "them: \"Kenya's currency…\" is not on topic for \"Which vaccines … Kenya?\"; an answer that takes up under half "
                "of the question's words and gives nothing it asks reaches 0.4 at most from closeness, a shared domain: "
                "\"布洛芬应在饭后服用\" to \"药店周六几点关门？\"; so does one that gives no quantity, duration, time, place or person that a "
                "question of one ask asks, whatever words it shares: another attribute of the same thing, \"The pharmacy offers free "
                "flu shots in October.\" to \"Where is the pharmacy located?\", a month or weekday being no place; \"周几\" / \"星期几\" ask a weekday, not a count), times 0.8 + 0.2 × the share of its statements on topic, times 0.6 when the question asks for a "
                "quantity, duration, time, place, person or yes/no and the answer gives none (a name the question "
                "already holds is none given, a name in a place's slot (\"in London\", \"位于…\") gives no person, and a name in a sentence that "
                "neither takes up the question's words nor puts anything somewhere gives no place: \"Ibuprofen should be "
                "taken with food.\" to \"Where is the nearest pharmacy?\"; a thing put beside a landmark or on a floor gives one "
                "with no name: \"投入3号门旁的回收箱\", \"in the crate next to the main entrance\"; advice "
                "such as \"Better not to\" / \"最好不要\" replies to a yes/no question, and so does "
                "a first clause that says or denies its predicate in its words, \"周一不营业\", or a short-form reply, \"支持。\", "
                "\"It does.\"). An answer on topic that gives what "
                "was asked (also a named thing for \"which river\", \"哪支球队\") is direct, on topic 0.8 at least however few of the "
                "question's words it repeats (\"清晨6点在起飞场集合。\" to \"坐热气球几点集合？\"; a price asked is given by an amount "
                "of money or by being free, not by a house number, and \"which day\" asks a time, as "
                "\"the opening hours\" and 营业时间 do); so is an instruction (\"Run "
                "git checkout…\", \"点击…\") to a how-to question (\"How do I…\", \"怎么…\") when it acts on a thing the "
                "question names or is on topic already (a Chinese one may open with an adverb or a preposition's phrase, "
                "\"轻轻按住…\", \"把…恢复…\", or close with \"即可\"), or is a step of the kind of task asked whatever words it "
                "shares: a control operated for a device or software (\"Type ls -a in the terminal.\" to \"How can I see hidden "
                "files?\", \"长按背面的复位键\" to \"怎么重置路由器？\"), a transaction for a service booked, rented or applied for "
                "(\"Pick a free slot on the website and pay the deposit.\", \"在小程序里选择时间并支付定金\"), which replies as a "
                "bare value does; a leg of a journey (\"Take the Blue Line…\", \"坐地铁2号线…\", \"打车\") replies to a route question (\"How do I get to…\", \"怎么去…\") as a bare value does; a how-to answer that neither instructs nor names the action asked or a means ("
                "\"With…\", \"用…\") and is off the question for e5 speaks of the thing alone and is held as one that gives no asked "
                "value: \"The bowline has been used by sailors since the 17th century.\" to \"How do I tie a bowline knot?\". A bare value, name or list "
                "(\"20%。\", \"Canberra.\", \"黑色、白色、天蓝色。\", a date alone: \"On the third of February.\"; to \"Where…?\" a place phrase with no verb: \"At 12 Harbour Road, next to the ferry terminal.\") replies to the question itself: 1 when it is "
                "what was asked (a date or clock time is no quantity: \"At 6 p.m.\" to \"How tall…?\"; \"How long is the trail?\" takes a "
                "length, \"About 12 miles.\"), else 0.2; so "
                "does an opening yes or no (\"可以，但要随身携带。\") or value (\"Two: Phobos and Deimos.\"; \"几颗\" asks a "
                "count with any measure word, \"两颗\" gives it): fully on topic, and the statements after it on "
                "topic when they touch it. A lead-in that only points at the sources (\"According to the documents, "
                "…\") is left out, and text in capitals is read in lower case. LLM mode (RAGAS): mean relatedness of "
                "the question to questions the LLM writes for the answer. Noncommittal answers and refusals score 0, "
                "offline also an answer that gives no asked value and only says it varies or cannot be told "
                "(\"Prices depend on many factors, so it's hard to say.\", \"因人而异，很难说。\")."),
    reads=("question", "answer"),
    higher_is_better=True,
    nan_when="no answer, or the bot failed",
    compute=compute,
    judge=JudgeUse(("analysis",), (ANSWER_ANALYSIS, ANSWER_RELEVANCY)),
)
