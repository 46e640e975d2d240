import re

import numpy as np

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.event_dates import event_dates, event_kind, event_topic
from ragpipe.core.evidence.polarity import overlap
from ragpipe.core.evidence.features import MAX_EMBED_CHARS, shortlist
from ragpipe.core.evidence.sentences import evidence_sentences
from ragpipe.core.evidence.weekdays import speaks_of_opening_days
from ragpipe.core.judged.prompts import CONTEXT_RELEVANCE
from ragpipe.core.metrics.time_values import CLOCK_TIME
from ragpipe.core.metrics.asked_kinds import HISTORY, asked_item, asked_value, attribute_missing, is_open
from ragpipe.core.metrics.base import JudgeUse, Metric, MetricResult, Toolkit
from ragpipe.core.metrics.other_subject import speaks_of_other
from ragpipe.core.metrics.permitted_acts import names_permitted_act
from ragpipe.core.metrics.priced_thing import (asks_price, gives_another_fee, gives_money, names_priced_thing,
                                               prices_another_thing)
from ragpipe.core.schemas import EvalCase
from ragpipe.core.text import content_tokens, is_chinese

# A context is embedded whole up to this many characters (the gist of a chunk): embedding
# is nearly all the offline cost, and one 2,000-character context took as long as all of
# an answer's statements. Held out, 800 against 2,000 changed no set's AUROC by over 0.001.
MAX_CONTEXT_CHARS = 800
# Of a context's sentences only those sharing most of the question's words are embedded:
# the best-matching one is nearly always among them (held out, 5 or 8 against all changed
# no set's AUROC by over 0.001), and a long context has 30-50.
SENTENCE_SHORTLIST = 8
# Logistic model over (best-sentence cosine, whole-context cosine, each minus the best of
# the case's contexts, question in Chinese), the question embedded as an e5 query and the
# contexts as passages. Fitted by scripts/fit_context_relevance.py on the two sample
# datasets (ground-truth chunks against the other retrieved chunks) and three benchmark
# files (a question's own context against other questions'), each set weighing the same.
WEIGHTS = np.array([2.811, 13.092, 14.044, 23.128, -1.331])
INTERCEPT = -12.845
# The probability from which a context counts as relevant: the one maximising the mean F1
# over the five sets (see the script for the held-out figures).
RELEVANCE_THRESHOLD = 0.56
# The lower cut: a context holding the kind of answer asked (a value of the kind a value question asks, an item
# of the kind an open question lists: a requirement, a cause, a symptom; see decide) counts from this probability,
# and so do a Chinese open question's further contexts once one of them reaches RELEVANCE_THRESHOLD (not one
# dated to a year that gives no item of the list's kind: "布洛芬于1969年上市" is no side effect). A chunk
# giving one more item of a list (还需提供…, "Renters need a letter…") or an answer in other words ("On the
# night of 9 November 1989…") rarely names the question's thing, and scored alone lies at 0.42-0.55. An untyped
# chunk needs that first context in Chinese (without it a shop's parking, for 怎么退货, would pass) and gets no
# lower cut in English: there off-topic how-to passages lie in the same band (RAGTruth's held-out decision F1
# falls from 0.887 to 0.847 at 0.40), and for that reason an instruction is a typed item in Chinese only. Set
# from the behaviour suite's items (the dev sets hold almost no such lists); the script prints what it costs.
LOWER_THRESHOLD = 0.40
# Once one context gives an item of the kind an open question lists, a further context giving another item of that kind
# counts from this probability: the second and third step, cause or paper ("不要涂牙膏", "家庭人均收入须低于规定标准")
# name the question's thing less than the first and scored alone lie at 0.33-0.40. Set from the behaviour suite's lists.
FURTHER_ITEM_THRESHOLD = 0.33
# Or from this share of the question's content words (whole words, not character pairs) in the context.
QUESTION_WORDS_NAMED = 0.6

_LINK = re.compile(r"\s*https?://\S+\s*")  # a context that is only a link has no words to hold a value
# A chunk that opens with a bare pronoun ("It can store…", "它还可以…") goes on from the chunk before: it names its
# thing no more than a pronoun does, and alone its cosine lies under the lower cut.
_GOES_ON = re.compile(r"^\s*(?:it|they)\b|^\s*(?:它|其)", re.I)


def relevance_features(case: EvalCase, kit: Toolkit) -> np.ndarray:
    """One row per retrieved context: the model's features (see WEIGHTS)."""
    question = {*content_tokens(case.question)}
    per_context = []
    for context in case.retrieved_contexts:
        sentences = evidence_sentences(context) or [context]
        kept = shortlist([question], [{*content_tokens(s)} for s in sentences], SENTENCE_SHORTLIST)
        per_context.append([sentences[j][:MAX_EMBED_CHARS] for j in kept])
    wholes = [c[:MAX_CONTEXT_CHARS] for c in case.retrieved_contexts]
    texts = [s for sentences in per_context for s in sentences] + wholes
    cosines = kit.embedder.similarity([case.question], texts, query=True)[0]
    bounds = np.cumsum([0] + [len(s) for s in per_context])
    best_sentence = np.array([cosines[a:b].max() for a, b in zip(bounds, bounds[1:])])
    whole = cosines[bounds[-1]:]
    return np.column_stack([best_sentence, whole, best_sentence - best_sentence.max(), whole - whole.max(),
                            np.full(len(whole), float(is_chinese(case.question)))])


def as_read(case: EvalCase, features: np.ndarray) -> np.ndarray:
    """The features the model reads: an open question's contexts each as if retrieved alone."""
    if not is_open(case.question):
        return features
    alone = features.copy()
    alone[:, 2:4] = 0
    return alone


def gives_day_asked(question: str, context: str) -> bool:
    """The context gives the kind of day the question asks (a start, a last day) to what it asks of, if it names it."""
    kind, topic = event_kind(question), event_topic(question)
    return bool(kind) and any(k == kind for k, _, _ in event_dates(context)) and (not topic or overlap(topic, words(context)) > 0)


# A question that asks when a place is open, with no day of its own ("When is the shop open?", "图书馆什么时候开放？").
_WHEN_OPEN = re.compile(r"\bwhen (?:is|are|does|do)\b.*\bopen\b|\bopening (?:hours|times|days)\b|什么时候(?:开门|营业|开放)|"
                        r"(?:营业|开放)时间", re.I)


def asks_when_open(question: str) -> bool:
    return bool(_WHEN_OPEN.search(question)) and not speaks_of_opening_days(question)


def names_the_place(question: str, context: str) -> bool:
    """The context names the place the question asks of by its head word ("the shop" for "the watch repair shop")."""
    place = [t for t in words(question) if t not in _SCHEDULE_WORDS]
    return bool(place) and found_in(place[-1], words(context))


_SCHEDULE_WORDS = {"open", "close", "hour", "time", "day", "week", "开门", "营业", "开放", "时间", "时候"}


def decide(case: EvalCase, probability: np.ndarray, threshold: float = RELEVANCE_THRESHOLD,
           open_threshold: float = LOWER_THRESHOLD) -> list[tuple[bool, str]]:
    """Per context: relevant or not, and why."""
    full = threshold
    if is_open(case.question) and is_chinese(case.question) and (probability >= threshold).any():
        threshold = min(threshold, open_threshold)
    # A context that names most of what the question asks about is about it, however its
    # cosine compares with a closer context's.
    asked = set(words(case.question))
    value, item = asked_value(case.question), asked_item(case.question)
    lower = min(threshold, open_threshold)
    # An English step counts only as a further item, once a step reached the full threshold (see the lexicon).
    english_step = item and item[0] == "an action" and not is_chinese(case.question)
    first = full if english_step else lower
    listed = item and any(p >= first and item[1](c) for p, c in zip(probability, case.retrieved_contexts))
    lower = min(lower, FURTHER_ITEM_THRESHOLD) if listed else first
    out = []
    for p, context in zip(probability, case.retrieved_contexts):
        named = len(asked & set(words(context))) / len(asked) if asked else 0.0
        why = f"relevance {p:.2f}; {named:.0%} of the question's words"
        if speaks_of_other(case.question, context):
            # A sibling of the thing asked about ("the Silver plan" for the Gold plan, 科技馆 for 水族馆), never the
            # thing: its value is another thing's, however close its cosine.
            out.append((False, f"{why}; it speaks of another thing than the one asked about"))
        elif value and not value[1](context) and not _LINK.fullmatch(context):
            out.append((False, f"{why}; the question asks {value[0]}, the context holds none"))
        elif value and attribute_missing(case.question, context, value[0]):
            out.append((False, f"{why}; it holds {value[0]} but not of the attribute asked"))
        elif asks_price(case.question, value) and gives_money(context) and names_priced_thing(case.question, context):
            # A price of the thing asked, or a part of it ("Each additional mover adds $45 per hour to the local
            # rate." for what a local move costs), however far its cosine lies below the chunk worded as asked.
            out.append((True, f"{why}; it gives a price of the thing asked, or a part of it"))
        elif value and value[0] == "an amount of money" and gives_another_fee(case.question, context):
            out.append((False, f"{why}; its amount is another fee's (it names the fee, not the thing asked)"))
        elif asks_price(case.question, value) and prices_another_thing(case.question, context):
            # Another thing of the same shop or place, priced ("a buttonhole costs $18" for a bridal bouquet): the
            # shop's name brings its cosine close, but the amount is not the one asked.
            out.append((False, f"{why}; its amount is another thing's price (it names that thing, not the one asked)"))
        elif value and value[0] == "a time" and gives_day_asked(case.question, context):
            # The start or the last day asked, in other words ("the application deadline" / "Applications must be
            # submitted by 2025-03-15"): the answer itself, however low its cosine beside a chunk that words it as asked.
            out.append((True, f"{why}; it gives the day asked"))
        elif asks_when_open(case.question) and speaks_of_opening_days(context) and names_the_place(case.question, context):
            # "When is the watch repair shop open?" - "The shop is closed on Sundays, Mondays and public holidays.": the
            # days the place asked about closes are the answer itself, however low its cosine beside its opening hours.
            out.append((True, f"{why}; it gives the days the place asked about opens or closes"))
        elif speaks_of_opening_days(case.question) and speaks_of_opening_days(context):
            # "陶艺馆周一营业吗？" - "本馆每周一闭馆，…": the days it opens or closes answer whether it opens on one.
            out.append((p >= lower, f"{why}; it gives the days it opens or closes"))
        elif item and item[0] == "a rule" and item[1](context) and names_permitted_act(case.question, context):
            # "戏服可以续租吗？" - "续租请在租期结束前一天到店或打电话办理。": a rule or a way of doing the act asked leave for
            # answers whether one may, however low its cosine beside the chunk worded as asked (permitted_acts.py).
            out.append((True, f"{why}; it gives a rule or a way of the act the question asks leave for"))
        elif (typed := value or item) and typed[1](context) and typed[0] not in ("a person", "a place"):
            # The context holds the kind of answer asked: on the question's topic (the lower cut) it answers it.
            # An item of the list after a relevant chunk, opening with a pronoun, is that chunk's thing's next item.
            goes_on = typed is item and bool(out) and out[-1][0] and bool(_GOES_ON.match(context))
            out.append((p >= (lower if typed is item else min(threshold, open_threshold)) or named >= QUESTION_WORDS_NAMED
                        or goes_on, f"{why}; it holds {typed[0]}, the kind asked"
                        + ("; it goes on from the relevant chunk before it" if goes_on else "")))
        else:
            # A context that gives no item of a typed list and tells the thing's history or origin is not one more
            # item ("布洛芬于1969年在英国首次上市" for 布洛芬有哪些副作用, "made in Shenzhen" for its features), however
            # many of the question's words it names. A cause may be an event.
            history = item and item[0] != "a cause" and HISTORY.search(context)
            # Nor is a context that gives no item of the list but the hours of its thing ("市中心餐车的营业时间为上午十点到
            # 晚上九点" for 需要什么证件): another attribute of it, a time of day, where a list of papers or features is asked.
            hours = item and item[0] in _LISTS_WITHOUT_HOURS and CLOCK_TIME.search(context)
            # Nor is one that gives its price ("这款空气净化器在京东售价1999元" for 有哪些功能): what it costs is no
            # feature, symptom or benefit of it (a fee may be a requirement, and a thing given free is a benefit).
            priced = item and item[0] in _LISTS_WITHOUT_PRICES and gives_money(_FREE.sub(" ", context))
            out.append(((p >= (full if history else threshold) or named >= QUESTION_WORDS_NAMED)
                        and not history and not hours and not priced,
                        why + ("; it gives hours, not an item of the kind asked" if hours else "")
                        + ("; it gives a price, not an item of the kind asked" if priced else "")))
    return out


# The lists no time of day is an item of (a rule may be one: "Stallholders must set up before 9 a.m.").
_LISTS_WITHOUT_HOURS = ("a requirement", "a feature", "a symptom", "a benefit")
_LISTS_WITHOUT_PRICES = ("a feature", "a symptom", "a benefit")
_FREE = re.compile(r"免费|\bfree\b", re.I)


def _offline(case: EvalCase, kit: Toolkit) -> list[tuple[bool, str, float]]:
    features = relevance_features(case, kit)
    probability = 1 / (1 + np.exp(-(as_read(case, features) @ WEIGHTS + INTERCEPT)))
    return [(ok, f"{why}; cosine to the question {w:.3f} (whole), {s:.3f} (best sentence)", float(p))
            for (ok, why), p, (s, w) in zip(decide(case, probability), probability, features[:, :2])]


def compute(case: EvalCase, kit: Toolkit) -> MetricResult:
    if kit.llm is not None:
        judged = [(ok, why, None) for ok, why in kit.llm.context_relevance(case.question, case.retrieved_contexts)]
    else:
        judged = _offline(case, kit)
    contexts = [{"rank": i + 1, "relevant": bool(ok), "reason": why, **({} if p is None else {"score": round(p, 4)})}
                for i, (ok, why, p) in enumerate(judged)]
    return MetricResult(sum(c["relevant"] for c in contexts) / len(contexts), {"contexts": contexts})


METRIC = Metric(
    name="context_relevance",
    definition=("Share of the retrieved contexts that are relevant to the question. Offline, each context "
                "gets a relevance probability (details: score) from its e5 cosine to the question, as a "
                f"query against passages, for the whole context (its first {MAX_CONTEXT_CHARS} characters) and "
                f"its best sentence (of the {SENTENCE_SHORTLIST} sharing most of the question's words), also "
                f"relative to the best retrieved context; relevant from {RELEVANCE_THRESHOLD}, or when the context "
                f"holds at least {QUESTION_WORDS_NAMED:.0%} of the question's content words; not relevant when the "
                "question asks one value (an amount of money, also asked by the sum's kind: 押金是多少, \"the late fine\"; a share, an age, a length, a capacity, a weight, a duration, a "
                "time, a count, a language, a person, a place) and the context holds none of that kind (a duration may be "
                "in words: \"two and a half hours\", \"within a week\", \"half a day\"; a time of day, asked by "
                "\"What time…?\" or 几点, is held by a clock time, a part of the day, opening round the clock or a closed day, "
                "not by a period or a date; a price per period, \"$150 an hour\", 一天300元, holds no duration or time), or holds one but neither "
                "the words of the attribute asked nor a word naming the kind (a shipping time for a return window); "
                "relevant when a time question asks a start or a last day and the context gives that kind of day to "
                "what it asks of, however worded (\"the application deadline\" / \"Applications must be submitted by "
                "2025-03-15\"); relevant when a price question's context gives an amount of money and names the head of the "
                "thing priced (\"Each additional mover adds $45 per hour to the local rate.\" for \"How much does a local move "
                "cost?\"; a Chinese sum asked by its kind is the thing: 定金 of 翠湖山庄的定金是多少？, \"需先交定金2万元\"): its price or a part of it; not relevant when it names neither that thing nor the fee asked but a fee "
                "of its own (违约金, \"a cancellation fee\" for what moving a piano costs), or, in English, says another "
                "thing costs, rents, sells or goes for its amount (\"a buttonhole costs $18\" for a bridal bouquet's price, \"Tent "
                "pitches go for $25 a night\" for \"How much is a cabin…?\"; not a ticket, an admission or a surcharge); not relevant when it speaks of a sibling of the thing asked about and never of "
                "the thing (\"the Silver plan costs $20\" for \"How much is the Gold plan?\", 科技馆 for 水族馆: two names "
                "before the same word naming a kind of place, plan or product, two model codes or numbers after the same name (\"Ultra 5\" / \"Ultra 7\"), two "
                "Chinese names of places or bodies that end alike and share no other character, two Chinese names before the "
                "same word naming a kind of plan, ticket, class or service (白金会员 / 青铜会员, 日语班 / 韩语班); or a place of another "
                "kind, of those that stand on their own: the library for the pool, 保龄球馆 for 溜冰场). A context that gives the days "
                "something opens or closes counts from 0.40 for a question whether it opens on a day of the week or the weekend "
                "(\"本馆每周一闭馆…\" for 陶艺馆周一营业吗？); for a question when a place is open, one that names the place by its "
                "head word and gives the days it opens or closes is relevant (\"The shop is closed on Sundays…\" for \"When is the "
                "watch repair shop open?\"). "
                "The contexts of an open question (a list, causes, a way, what a package includes: 包括什么, \"What's included…\") are each scored as if retrieved alone. A "
                "context holding the kind of answer asked (a value of the asked kind; an item of the kind an open "
                "question lists: a requirement (a minimum too: \"at least\", 至少), a rule, a feature, a symptom, a benefit, a cause, in Chinese an action; a rule, for a "
                "yes-or-no question whether one may or must do something: \"Can I bring my dog…?\", 可以…吗, 适合…吗, \"Is … "
                "refundable?\", \"Do I need a ticket…?\", 需要…吗, 要不要; limits are rules too) counts from "
                f"{LOWER_THRESHOLD:.2f} (one that names the act a may-I question asks leave for and gives a rule or a way of "
                "doing it at any probability: \"续租请在租期结束前一天到店或打电话办理。\" for 戏服可以续租吗？), and so do a Chinese open question's other contexts once one reaches "
                f"{RELEVANCE_THRESHOLD} (further items of the list). Once one context gives an item of the kind listed "
                f"(in English a step of a how-to question, from {RELEVANCE_THRESHOLD}), further items count from "
                f"{FURTHER_ITEM_THRESHOLD:.2f}, and so does an item whose chunk opens with a bare pronoun (\"It can store up to "
                "8,000 books.\", 它还可以…) right after a relevant chunk: it goes on from that chunk. A context giving no item of a typed list (not causes) that tells the "
                "thing's history or origin (a year, its maker, where it is made) is not relevant, nor is one that gives only a time "
                "of day where requirements, features, symptoms or benefits are listed (营业时间为上午十点… for 需要什么证件), or "
                "a price (not a thing given free) where features, symptoms or benefits are listed (在京东售价1999元 for 有哪些功能)."),
    reads=("question", "retrieved_contexts"),
    higher_is_better=True,
    nan_when="no retrieved contexts, or the bot failed",
    compute=compute,
    judge=JudgeUse(("relevance",), (CONTEXT_RELEVANCE,)),
)
