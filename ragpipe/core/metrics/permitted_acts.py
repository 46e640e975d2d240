"""The act a may-I question asks leave to do ("Can I renew my costume rental?": renew; "戏服可以续租吗？": 续租), and
whether a context names it. A context that names the act and gives a rule or a way of doing it ("续租请在租期结束前一天到店
或打电话办理。", "Renewals can be made by phone up to a day before the rental ends.") answers the question, yes by telling
how, however far its cosine lies below a chunk worded as asked (context_relevance)."""

import re

from ragpipe.core.metrics.priced_thing import named_in
from ragpipe.core.text import pos_tags

_EN_ASKS_LEAVE = re.compile(r"^\W*(?:can|may|could) (?:i|we|you|one|guests|members|customers|visitors)\s+"
                            r"(?:still\s+|also\s+)?([a-z]+)(?:\s+(?:a|an|the|my|our|your|this|that|some|any))?\s*([a-z]*)", re.I)
# A verb that says little by itself ("bring a dog", "get a refund"): its object names the act.
_EN_LIGHT = {"get", "make", "have", "do", "take", "keep", "put", "set", "give", "go", "use", "bring", "pay", "come"}
_ZH_ASKS_LEAVE = re.compile(r"(?:可以|能否|可否|能不能|可不可以|允许|能)(?P<tail>[\u4e00-\u9fff]{2,8}?)(?:吗|么|[？?]|$)")


def permitted_act(question: str) -> str:
    """The word naming the act a may-I question asks leave to do, or ""."""
    match = _EN_ASKS_LEAVE.search(question)
    if match:
        verb, after = match.group(1).lower(), match.group(2).lower()
        if verb == "be":  # "Can I be considered a resident?" asks what one counts as, not leave to act
            return ""
        return after if verb in _EN_LIGHT and after else "" if verb in _EN_LIGHT else verb
    match = _ZH_ASKS_LEAVE.search(question)
    if match:  # the tail's first word, when it names an act of itself (续租, 转让, 延期; not 算 of 能算华侨吗, which
        # asks what one counts as, nor 被 of 能被认定为…)
        first = next(iter(pos_tags(match.group("tail"))), None)
        return first.word if first and len(first.word) >= 2 else ""
    return ""


def names_permitted_act(question: str, context: str) -> bool:
    return named_in(permitted_act(question), context)
