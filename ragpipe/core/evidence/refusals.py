"""Refusals: a statement that declines to answer, or says the sources do not hold the
answer, asserts nothing about the world, so no context can support or contradict it."""

from __future__ import annotations

import re
from functools import lru_cache

from ragpipe.core.text import content_tokens

# A refusal: the answer declines to answer or says the sources do not hold the answer. It
# asserts nothing about the world, so it is no claim a context can support or contradict.
_REFUSAL = re.compile(
    r"\bI (?:do not|don't) know\b|\bI(?: am|'m) not sure\b"
    r"|\b(?:passages?|documents?|contexts?|sources?|text|article|references?|(?:given|provided) information)"
    r"\s+(?:do|does|did)(?: not|n't)\s+(?:say|mention|specify|provide|contain|state|include|give|indicate|address|"
    r"discuss|offer|cover)\b"
    r"|\bthere (?:is|are) no (?:information|mention|data|details?|answer)\b"
    r"|\bI\s+(?:cannot|can't|can not|am unable to|'m unable to|was unable to|could not|couldn't)\s+"
    r"(?:find|answer|determine|provide|tell|say|know|locate)\b"
    r"|\b(?:unable|not able) to (?:answer|provide (?:a |an |the )?(?:\w+ )?answer)\b"
    r"|\bimpossible to (?:say|tell|answer|determine)\b|\bcannot be (?:determined|answered)\b"
    r"|\b(?:not|no|in)sufficient information\b|\bnot enough information\b"
    r"|\bnot (?:mentioned|specified|stated|provided|given|addressed|found|included) in the\b"
    r"|无法(?:回答|确定|得知|判断|提供|找到|从|给出|查到|知道)|不能(?:回答|确定)|(?:我|本人)(?:不知道|不清楚|不确定)"
    r"|没有(?:找到)?(?:相关|具体|明确|足够)的?(?:信息|内容|资料|说明|数据|答案)|暂无相关|未能?(?:在.{0,10})?找到"
    r"|(?:文档|资料|上下文|材料|文中|原文|段落|文章|信息)[中里内]?(?:并|均|都)?(?:没有|未|没)(?:提及|提到|说明|涉及|包含|给出|明确|记载|相关)",
    re.I)
# Words that only lead into a refusal ("However, the passages do not say…", "抱歉，资料中没有相关信息"):
# a clause of nothing else adds no claim to it.
_LEAD_IN_WORDS = ("however therefore thus unfortunately sorry apologize note worth noting important based according "
                  "given provided passage passages document documents context contexts source sources information text "
                  "question answer 抱歉 对不起 很 遗憾 根据 依据 基于 提供 给定 所给 现有 文档 资料 参考资料 上下文 材料 信息 "
                  "内容 参考 问题 这个 目前 您好")
_CLAUSE_BREAK = re.compile(r"[,，;；:：]")


@lru_cache(maxsize=1)
def _lead_in() -> frozenset[str]:
    return frozenset(content_tokens(_LEAD_IN_WORDS))  # tokenized on first use: jieba loads lazily


def only_lead_in(text: str) -> bool:
    return set(content_tokens(text)) <= _lead_in()


def is_refusal(statement: str) -> bool:
    """A statement that only declines: one clause says the sources do not hold the answer
    (or "I don't know"), and every other clause only leads into it. "The passages do not say
    how big the quilt is, so these steps fit any size" asserts more and is no refusal."""
    clauses = [c for c in _CLAUSE_BREAK.split(statement) if c.strip()]
    refusing = [bool(_REFUSAL.search(c)) for c in clauses]
    return any(refusing) and all(r or only_lead_in(c) for c, r in zip(clauses, refusing))


def says_unanswerable(statements) -> bool:
    """Some statement says the question cannot be answered, with reasons or not
    ("这个问题无法回答，因为…"): unlike ``is_refusal``, other clauses may assert more."""
    return any(_REFUSAL.search(s) for s in statements)

