"""Antonyms: word stems that say opposite things of the same subject ("open" / "closed", "通过" / "驳回"), and
how a negated antonym says what the word says ("does not open" is "closed", 不对外开放 is 闭馆). polarity.py
reads a clause with the antonym of a statement's word as opposing it; the verifier reads a statement whose word
the evidence says as "not" and its antonym in the evidence's words (``as_evidence_says``)."""

from __future__ import annotations

import re
from functools import lru_cache

from ragpipe.core.evidence.discounts import discount_worded
from ragpipe.core.evidence.facts import fold

# A text has a stem when one of its words starts with it (Chinese: when it contains it). Only stems of words
# that oppose one another whatever the subject: not "start" / "end" (one event starts, another ends), nor
# bare "succeeded" (a successor) / "failed"; not bare "pass" (passenger), "ban" (bank), nor a Chinese character that
# sits inside other words (输 in 运输, 开 in 开发).
ANTONYMS = [("increas", "decreas"), ("increas", "reduc"), ("rais", "lower"), ("rise", "fall"), ("rose", "fell"),
            ("higher", "lower"), ("more", "less"), ("more", "fewer"), ("above", "below"),
            ("maximum", "minimum"), ("allow", "prohibit"), ("allow", "forbid"), ("permit", "prohibit"),
            ("accept", "reject"), ("approv", "reject"), ("win", "los"), ("won", "lost"), ("open", "clos"),
            ("largest", "smallest"), ("biggest", "smallest"), ("earliest", "latest"), ("longest", "shortest"),
            ("tallest", "shortest"), ("highest", "lowest"), ("deepest", "shallowest"), ("oldest", "youngest"),
            ("fastest", "slowest"), ("heaviest", "lightest"), ("cheapest", "most expensive"), ("north", "south"),
            ("east", "west"), ("public", "private"), ("wired", "wireless"), ("有线", "无线"), ("mandatory", "optional"),
            ("required", "optional"), ("必修", "选修"), ("legal", "illegal"),
            ("提前", "推迟"), ("提前", "延后"), ("提早", "推迟"),  # a time moved earlier or later
            ("quick", "slow"), ("rapid", "slow"), ("快速", "缓慢"), ("快速", "慢慢"), ("迅速", "缓慢"),
            ("晒干", "阴干"),  # drying in the sun or in the shade
            ("warm", "cool"), ("温暖", "阴凉"), ("温暖", "凉爽"),  # where a thing is kept
            ("thinly", "thickly"), ("loosely", "tightly"), ("lightly", "heavily"), ("薄薄", "厚厚"),  # how a thing is applied or packed
            # a change said with a phrasal verb ("premiums go down" / "premiums increase"), a comparative
            ("go up", "go down"), ("goes up", "goes down"), ("went up", "went down"), ("increas", "go down"),
            ("increas", "goes down"), ("increas", "went down"), ("decreas", "go up"), ("decreas", "goes up"),
            ("decreas", "went up"), ("longer", "shorter"), ("较长", "较短"), ("更长", "更短"), ("较高", "较低"),
            ("较快", "较慢"),
            ("增加", "减少"), ("提高", "降低"), ("上调", "下调"), ("上浮", "下调"), ("上浮", "下浮"), ("上调", "下浮"),
            ("涨价", "降价"), ("提价", "降价"), ("上升", "下降"), ("增长", "下降"), ("高于", "低于"),
            ("超过", "低于"), ("超过", "少于"), ("多于", "少于"),  # a threshold crossed one way or the other
            ("之前", "之后"), ("以前", "以后"), ("收购", "出售"), ("买入", "卖出"), ("以上", "以下"), ("最高", "最低"), ("最长", "最短"), ("最快", "最慢"),
            ("最贵", "最便宜"), ("允许", "禁止"), ("可以", "不得"),
            ("批准", "拒绝"), ("必须", "无需"), ("强制", "自愿"), ("最大", "最小"), ("公立", "私立"), ("合法", "违法"),
            ("缴纳", "免征"), ("征收", "免征"), ("需要", "无需"), ("收费", "免费"), ("仅限", "不限"),
            ("still", "no longer"), ("仍", "不再"), ("开放", "关闭"), ("开放", "闭馆"), ("营业", "停业"), ("营业", "歇业"),
            ("开门", "关门"), ("free", "charg"), ("free", "non-refundable"), ("免费", "不退"), ("免费", "不予退"),
            ("free", "pay"), ("免费", "付费"),  # a fee to pay
            # a verdict, a vote, a test, a request; presence; a market, an account, a count
            ("passed", "failed"), ("passes", "fails"), ("present", "absent"),
            ("attend", "absent"), ("approv", "denied"), ("grant", "denied"), ("accept", "declin"), ("allow", "banned"),
            ("permit", "banned"), ("convicted", "acquitted"), ("guilty", "innocent"), ("upheld", "overturned"),
            ("support", "oppos"), ("increas", "declin"), ("rise", "declin"), ("rose", "declin"), ("grew", "shrank"),
            ("gain", "los"), ("profit", "loss"), ("surplus", "deficit"), ("enabl", "disabl"), ("strengthen", "weaken"),
            ("apprecia", "deprecia"), ("expand", "shrink"),
            ("通过", "驳回"), ("通过", "否决"), ("批准", "驳回"), ("支持", "驳回"), ("同意", "拒绝"), ("接受", "拒绝"),
            ("赞成", "反对"), ("出席", "缺席"), ("到场", "缺席"), ("有罪", "无罪"), ("胜诉", "败诉"), ("成功", "失败"),
            ("获胜", "落败"), ("获胜", "失利"), ("赢", "输给"), ("赢", "输掉"), ("涨", "跌"), ("上涨", "下降"), ("增长", "下滑"),
            ("上升", "下滑"), ("增加", "下降"), ("盈利", "亏损"), ("顺差", "逆差"), ("扩大", "缩小"), ("加强", "减弱"),
            ("升值", "贬值"), ("启用", "停用"), ("开启", "关闭"), ("打开", "关闭"), ("开通", "关闭"), ("开通", "停用"),
            # stock, time, place, a decision said by several words or inside a longer Chinese word (获批, 考试及格)
            ("in stock", "out of stock"), ("in stock", "sold out"), ("available", "out of stock"),
            ("available", "sold out"), ("available", "unavailable"), ("on time", "late"), ("on time", "delay"),
            ("on schedule", "late"), ("on schedule", "delay"), ("online", "offline"), ("in person", "remote"),
            ("in person", "online"), ("有货", "缺货"), ("有货", "无货"), ("有货", "售罄"), ("有货", "断货"),
            ("准时", "晚点"), ("准时", "延误"), ("准点", "晚点"), ("准点", "延误"), ("按时", "延误"), ("上线", "下线"),
            ("线上", "线下"), ("indoor", "outdoor"), ("室内", "室外"), ("室内", "户外"), ("获批", "驳回"), ("获批", "被拒"), ("获批", "拒绝"), ("批准", "被拒"),
            # an attempt's outcome: "succeeded in" is never the successor's "succeeded" ("succeeded Dr Lind")
            ("succeeded in", "failed to"), ("succeeds in", "fails to"), ("succeed in", "fail to")]
# Gradable opposites, compared: "the easier of the two" / "the harder of the two", "cheaper" / "more expensive". The
# bare adjectives are no antonym stems ("hard" starts "hardware", "light" is also a noun); their comparative and
# superlative forms are made by English's rules.
_GRADABLE = [("easy", "hard"), ("cheap", "expensive"), ("near", "far"), ("old", "new"), ("old", "young"), ("big", "small"),
             ("large", "small"), ("heavy", "light"), ("strong", "weak"), ("warm", "cold"), ("wide", "narrow"),
             ("busy", "quiet"), ("safe", "dangerous"), ("thick", "thin"), ("deep", "shallow"), ("high", "low"),
             ("long", "short"), ("fast", "slow"), ("close", "far"), ("hot", "cold"), ("loud", "quiet")]


def _compared(word: str, superlative: bool) -> str:
    """An adjective's comparative or superlative: easier / easiest, bigger / biggest, later, more expensive."""
    if len(word) > 6 or word.endswith(("ous", "ive", "ful")):
        return ("most " if superlative else "more ") + word
    if word == "far":
        return "farthest" if superlative else "farther"
    end = "est" if superlative else "er"
    if word.endswith("y"):
        return word[:-1] + "i" + end
    if word.endswith("e"):
        return word + end[1:]
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", word):  # one vowel before one consonant: big / bigger
        return word + word[-1] + end
    return word + end


ANTONYMS += sorted({(_compared(a, s), _compared(b, s)) for a, b in _GRADABLE for s in (False, True)} - set(ANTONYMS))
_STEMS = sorted({w for pair in ANTONYMS for w in pair})
# 通过 that ends its clause is a verdict ("申请通过了": approved, the 获批 of 被拒), not "by way of" ("通过网上申请").
_ZH_VERDICT = re.compile(r"通过了?(?=[。，！；,.!;]|$)")
# "free of charge", "at no cost", "no charge", 不收费 (不会收费, 不再收费) say "free" / 免费: their "charge" and "cost" are none.
_FREE_OF_CHARGE = re.compile(r"\bfree of charges?\b", re.I)
_NO_COST = re.compile(r"\bat no (?:extra |additional )?(?:cost|charge)\b|\bno charge\b|\bcosts? nothing\b"
                      r"|\b(?:does not|doesn't|do not|don't|will not|won't) cost (?:you )?(?:anything|a (?:penny|cent|thing))\b", re.I)
# The 不 of 从不 / 从来不 / 永不 says "never", not "no charge": "这张信用卡从不收取年费" claims more than "免年费" (scope.py reads
# it against an "otherwise").
_NOT_NEVER = "(?<!从来)(?<![从永决绝])"
# 不要钱 / 不用花钱 / 不花一分钱, and the seller's side 不收钱 / 分文不收 / 一分钱都不收, are the everyday 免费.
_ZH_NO_MONEY = (r"不(?:要|用|需要?)(?:花|付|掏)?钱(?![包庄币])|不(?:用|需要?)?花(?:一分)?钱(?![包庄币])"
                r"|不(?:会|再)?收(?:一分)?钱(?![包庄币])|分文不(?:收|取)|一分钱(?:都|也)?不(?:收|要)")
_ZH_FREE = re.compile(_NOT_NEVER + r"不(?:会|再)?(?:收|收取|需|用)(?:任何)?费用?|无需付费|无(?:需|须)?收费|(?<![以避])免(?:收|收取)?(?=[\u4e00-\u9fff]{1,3}费)"
                      r"|" + _ZH_NO_MONEY)
_EVERYDAY_FREE = {True: re.compile(_NOT_NEVER + _ZH_NO_MONEY), False: _NO_COST}
# A price stated (a sum above zero that something costs: "cost $3 each", "费为8元", "收取工本费10元") charges for
# it, whatever the verb: the antonym of "free" / 免费.
_PRICE = re.compile(r"(?:[$£€¥￥]\s*0*[1-9][\d,]*(?:\.\d+)?|(?<![\d.])0*[1-9][\d,]*(?:\.\d+)?\s*(?:元|块钱|美元|英镑|欧元"
                    r"|dollars?\b|euros?\b|(?:GBP|USD|EUR|RMB|CNY)\b))"
                    r"|(?<![\d.])0*[1-9]\d*(?:\.\d+)?\s*%\s*(?:of\b|的)")  # a share of a price: "a fee of 5% of the fare"
_PRICE_WORD = re.compile(r"\b(?:costs?|fees?|charge[sd]?|prices?d?|fares?|pays?|paid)\b|费|价|收取|付", re.I)
# A negation right before a word, or before the word's auxiliary ("is not open", "does not open", "never passed";
# 不开放, 没有通过, 未获批准, 不对外开放).
_EN_NOT = r"\b(?:not|never|no)\s+(?:\w+\s+)?|n['’]t\s+(?:\w+\s+)?"
_ZH_NOT = "(?:不|没有?|未|无|非)(?:再|予|能|会|获|被|对外)?"


@lru_cache(maxsize=65536)
def stems_in(text: str) -> frozenset[str]:
    """The antonym stems a text has: one of its words starts with it (Chinese: it contains it)."""
    text = free_worded(text)
    folded = _FREE_OF_CHARGE.sub("free", fold(text))
    found = re.findall(r"[a-z]+", folded)
    priced = {"收费" if re.search(r"[\u4e00-\u9fff]", text) else "charg"} if _PRICE.search(text) and _PRICE_WORD.search(text) else set()
    return frozenset(stem for stem in _STEMS if (stem in text if not stem.isascii()
                                                 else re.search(rf"\b{stem}\b", folded) if " " in stem or "-" in stem
                                                 else any(w.startswith(stem) for w in found))) | priced | (
        {"获批"} if _ZH_VERDICT.search(text) else set())


def free_worded(text: str) -> str:
    """The text with "at no cost", "costs nothing", 不收费 … written "free" / 免费: one word, and no negation
    left to read against the evidence's price; a priced discount ("half-price", 半价) written "discount" / 打折."""
    return discount_worded(_NO_COST.sub("free", _ZH_FREE.sub("免费", text)))


def negated_at(text: str, stem: str) -> bool:
    """The text negates its word of the stem right where it stands ("does not open", "不允许", "未获通过")."""
    if stem.isascii():
        return bool(re.search(rf"(?:{_EN_NOT}){re.escape(stem)}", fold(text)))
    return bool(re.search(rf"{_ZH_NOT}{re.escape(stem)}", text))


# Not charging a fee is waiving it: "不收月费" / "无需支付运费" says the evidence's "免月费" / "免运费" ("不收费" its "免费").
_ZH_NOT_CHARGED = re.compile(_NOT_NEVER + r"(?:不|无需|无须|不用|不需要?)再?(?:收取?|交纳?|缴纳?|付|支付)(?P<what>[\u4e00-\u9fff]{1,3})")


def _as_waived(statement: str, evidence: str) -> str:
    def waived(match: re.Match) -> str:
        what = match.group("what")
        k = next((k for k in range(len(what), 0, -1) if "免" + what[:k] in evidence), 0)
        return "免" + what if k else match.group(0)

    return _ZH_NOT_CHARGED.sub(waived, statement)


def _as_free(statement: str, evidence: str) -> str:
    """An everyday "costs nothing" (不要钱, "doesn't cost anything") written as the evidence's 免费 / "free", so that
    its negation is no polarity the evidence lacks."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", statement))
    if not (re.search(r"免费", evidence) if zh else re.search(r"\bfree\b", evidence, re.I)):
        return statement
    return _EVERYDAY_FREE[zh].sub("免费" if zh else "free", statement)


def as_evidence_says(statement: str, evidence: str) -> str:
    """The statement with a word the evidence says as "not" and its antonym said so ("The museum is closed on
    Mondays" as "The museum is not open on Mondays" where the evidence says "does not open on Mondays";
    闭馆 as 不开放), so that its words and its polarity are the evidence's. Only where the evidence never
    has the statement's word itself and the statement does not negate it; a fee not charged is one waived (免), and
    an everyday "costs nothing" the evidence's "free"."""
    statement = _as_free(_as_waived(statement, evidence), evidence)
    said, held = stems_in(statement), stems_in(evidence)
    for ours, theirs in [*ANTONYMS, *((y, x) for x, y in ANTONYMS)]:
        if not (ours in said and ours not in held and theirs in held and theirs not in said):
            continue
        if not negated_at(statement, ours) and negated_at(evidence, theirs):
            if not ours.isascii():
                return statement.replace(ours, "不" + theirs, 1)
            word = re.search(rf"\b{re.escape(theirs)}\w*", fold(evidence))
            return re.sub(rf"\b{re.escape(ours)}\w*", f"not {word.group(0)}", statement, count=1, flags=re.I)
        # And the other way: "pets are not allowed" says the evidence's "Animals are prohibited", 不允许 its 禁止. Not a
        # comparison's words: "no more than 5" is a ceiling (facts.bounds), not "less".
        if negated_at(statement, ours) and not negated_at(evidence, theirs) and not {ours, theirs} & _COMPARATIVE:
            if not ours.isascii():
                return re.sub(rf"{_ZH_NOT}{re.escape(ours)}", theirs, statement, count=1)
            word = re.search(rf"\b{re.escape(theirs)}\w*", fold(evidence)).group(0)
            return re.sub(rf"(?:\b(?:not|never|no)\s+(?:\w+\s+)?|n['’]t\s+(?:\w+\s+)?){re.escape(ours)}\w*",
                          lambda m: (" " if m.group(0)[0] == "n" and m.group(0)[1] in "'’" else "") + word,
                          statement, count=1, flags=re.I)
    return statement


# Words of a comparison or an order: negated, they set a bound or keep an order ("not before 9"), no antonym.
_COMPARATIVE = frozenset({"more", "less", "fewer", "higher", "lower", "above", "below", "maximum", "minimum", "rais",
                          "高于", "低于", "超过", "多于", "少于", "以上", "以下", "之前", "之后", "以前", "以后", "最高", "最低", "增加", "减少"})
