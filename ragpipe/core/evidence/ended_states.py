"""A state said to go on that the evidence says has ended: "The ferry service is still operating." against "The ferry
service stopped operating in 2023.", 报名已经开始 against 报名已于上周五结束, 仍在营业 against 已于去年停止营业. Whatever
verb each uses (start / end, run / discontinued, 营业 / 关闭, 展出 / 闭幕): the statement says it goes on now, the
evidence that it is over. The statement must say "now" (still, already, currently; 仍, 已经, 目前, 正在), for a
scheduled start or end ("Registration starts on 1 May", 报名将于5月1日开始) is another event than the one that ended.
And the evidence must say the end is past (English past tense, "is over", "no longer"; 已 before the Chinese verb)."""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.facts import facts, negated
from ragpipe.core.evidence.polarity import clauses_of, pronoun
from ragpipe.core.text import is_chinese

# What goes on: a service runs, a sale or a registration is open, a shop trades (营业), a show is on (展出).
_ON_EN = (r"(?:open\w*|start\w*|began|begun|runn?\w*|operat\w*|in\s+(?:operation|service|progress)|on\s+sale|sell\w*"
          r"|trad\w*|accept\w*|available|underway|ongoing|active|valid)")
_ON_ZH = r"(?:开始|进行|营业|运营|运行|运转|销售|售卖|发售|在售|开放|展出|开展|招生|报名|上映|开通|有效)"
_MARKERS = re.compile(r"\b(?:still|currently|now|already)\b|仍然?|还在|依然|依旧|目前|正在|照常|正常|已经", re.I)
_NOW_EN = re.compile(rf"\b(?:still|currently|now|already)\b(?:\s+\w+){{0,2}}?\s+{_ON_EN}"
                     rf"|\b(?:has|have)\s+(?:already\s+)?(?:started|begun|opened)\b|\b(?:underway|ongoing|in\s+progress)\b", re.I)
_NOW_ZH = re.compile(rf"(?:仍|还在|依然|依旧|目前|正在|照常|正常|已经|已)[在然旧是]?{_ON_ZH}|{_ON_ZH}中")
# An end that is past: the English past tense (not "ends on 5 May", "will close"), "is over", "no longer"; 已 before
# the Chinese verb (已于…结束, 已经停运), not 将于…结束.
_OVER_EN = re.compile(r"\b(?:ended|closed(?:\s+down)?|finished|expired|stopped|ceased|discontinued|terminated|concluded"
                      r"|shut\s+down|(?:was|were|has\s+been|have\s+been)\s+(?:cancell?ed|called\s+off|suspended|withdrawn|scrapped)"
                      r"|(?:is|are|was|were)\s+(?:now\s+)?over|no\s+longer)\b", re.I)
_OVER_ZH = re.compile(r"已(?:经|于[^，。；,;]{0,12}?)?(?:结束|截止|停止|停运|停售|停产|停业|歇业|停办|停用|关闭|关停|闭幕|落幕"
                      r"|闭馆|终止|取消|下架|下线|倒闭|失效|过期)")
# An end undone: "reopened", "resumed", 恢复, 重新.
_RESUMED = re.compile(r"\b(?:re-?open\w*|resum\w*|restart\w*|again)\b|恢复|重新|再次", re.I)
_CONDITION = re.compile(r"\b(?:if|unless|when|until)\b|如果|若|除非|之前", re.I)
# A month written with 份 is the month: "8月份也照常开放" speaks of the "8月" of "每年8月已于月初停止对外开放".
_ZH_MONTH_FEN = re.compile(r"(\d{1,2}|[一二三四五六七八九十]{1,3})月份")


def _frame(statement: str, now: re.Pattern) -> list[str]:
    """What the statement speaks of: its words but those that say it goes on now, and pronouns (这家 / 该)."""
    return [w for w in dict.fromkeys(words(_MARKERS.sub(" ", now.sub(" ", statement)))) if not pronoun(w)]


def ended_state(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("antonym", what the statement says goes on, the evidence's end, its sentence), or None."""
    zh = is_chinese(statement)
    now, over = (_NOW_ZH, _OVER_ZH) if zh else (_NOW_EN, _OVER_EN)
    said = now.search(statement)
    if not said or len(clauses_of(statement)) != 1 or over.search(statement) or negated(statement):
        return None
    frame = _frame(_ZH_MONTH_FEN.sub(r"\1月", statement) if zh else statement, now)
    if not frame:
        return None
    for sentence in sentences:
        # Every word and number of it: "The company currently operates 50 stores" is not "…closed 20 stores".
        if not all(t in sentence if zh else found_in(t, words(sentence)) for t in frame) or not (
                facts(statement).numbers <= facts(sentence).numbers):
            continue
        for clause in clauses_of(sentence):
            end = over.search(clause)
            if end and not _RESUMED.search(sentence) and not _CONDITION.search(clause) and not negated(clause[:end.start()]):
                return "antonym", said.group(0), end.group(0), sentence
    return None
