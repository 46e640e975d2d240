"""The action a how-to question asks to do ("How do I tie a bowline knot?": tie; "怎么给多肉植物浇水？": 浇水), and whether
an answer takes it up. An answer about the same thing that neither instructs nor names the action ("The bowline knot has
been used by sailors since the 17th century.", "本店投影仪支持七天无理由退货。" to "投影仪怎么连接手机？") speaks of another
attribute of the thing, not of the way asked, when e5 too reads it off the question (answer_relevancy)."""

import re

from ragpipe.core.metrics.places_and_steps import ROUTE_ASKED, instructs, task_step
from ragpipe.core.text import jieba_ready

_EN_ACTION = re.compile(r"\bhow (?:do|can|should|would|could) (?:i|you|we|one)\s+([a-z]+)(?:\s+(?:a|an|the|my|our|your|"
                        r"this|that|these|those|his|her|their|its|some|rid of))?\s*([a-z]*)|\b(?:how|(?:best|easiest|"
                        r"quickest|fastest|right) way) to\s+([a-z]+)(?:\s+(?:a|an|the|my|our|your|this|that|some))?\s*([a-z]*)",
                        re.I)
# A verb that says little by itself ("get a refund", "keep flowers fresh", "办理上牌"): its object names the action too.
_EN_LIGHT = {"get", "make", "have", "do", "take", "keep", "put", "set", "give", "find", "go", "use"}
_ZH_HOW = re.compile(r"(?:怎么|怎样|如何)(?!办(?:呢|啊|才好)?\W*$|样|回事)(?P<tail>[\u4e00-\u9fff]+)")  # not "该怎么办？"
# "怎么给绿萝施肥", "如何把照片导出": the action follows the preposition's object.
_ZH_PREPOSITION = re.compile(r"^(?:给|把|将|对|为|帮|替|跟|和|向|用)")
_ZH_LIGHT = {"办理", "办", "弄", "做", "搞", "进行", "处理"}


def asked_action(question: str) -> list[str]:
    """The words that name the action a how-to question asks to do; empty when it names none ("发烧了该怎么办？")."""
    match = _EN_ACTION.search(question)
    if match:
        verb, after = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        verb = verb.lower()
        return [verb, after.lower()] if verb in _EN_LIGHT and after else [verb]
    match = _ZH_HOW.search(question)
    if not match:
        return []
    words = jieba_ready().lcut(match["tail"])
    if _ZH_PREPOSITION.match(words[0]) and len(words) > 1:
        return [words[-1]]
    return [words[0], "".join(words[1:])[:2]] if words[0] in _ZH_LIGHT and len(words) > 1 else words[:1]


def _takes_up(action: str, answer: str) -> bool:
    if action.isascii():
        stem = action[:max(3, len(action) - 2)]  # "apply" in "applications", "prune" in "pruning"
        return any(word.startswith(stem) for word in re.findall(r"[a-z]+", answer.lower()))
    return action in answer or len(action) == 2 and all(c in answer for c in action)  # 施肥 in "施一次液体肥"


# A means given as a phrase ("With a rabbit-and-tree trick.", "By soaking it overnight.", "用中性洗涤剂。") is a way.
_BY_MEANS = re.compile(r"^\W*(?:by|with|using|via|through)\b|^\W*(?:用|靠|通过|借助|利用)", re.I)


def takes_up_action(question: str, answer: str) -> bool:
    """Whether the answer names the action the question asks, or a means to it (True when the question names none)."""
    actions = asked_action(question)
    return not actions or bool(_BY_MEANS.match(answer)) or any(_takes_up(a, answer) for a in actions)


def names_no_way(question: str, answer: str, statements: list[str]) -> bool:
    """No statement instructs or is a step of the task asked, and the answer names neither the action nor a means. A
    route question is left to gives_route: a transport named without a verb ("机场大巴每半小时一班") answers it."""
    return not (ROUTE_ASKED.search(question) or takes_up_action(question, answer)
                or any(instructs(s) or task_step(question, s) for s in statements))
