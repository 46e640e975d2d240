"""Refusals: a statement that declines to answer, or says the sources do not hold the
answer, asserts nothing about the world, so no context can support or contradict it.

A refusal is recognised by what it says, in Chinese or English, with a small grammar
rather than a list of sentences. One clause of it says either

- that the speaker cannot answer, know, find or confirm: an optional first-person subject,
  a negation or modal (无法/不能/没法/难以/无从/不清楚…, cannot/unable to/don't know…) and a
  verb of answering or knowing ("我无法回答", "I can't determine that", "not sure"); or
- that the sources do not hold the answer: a source noun (资料/文档/上下文/所给内容…, the
  passages/the provided context…), a negation and a verb of saying or containing, or an
  absence or insufficiency ("文档中没有提及", "信息不足", "the passages don't mention",
  "no information about", "beyond the provided context").

Every other clause may only lead into it ("抱歉", "Based on the documents") or suggest
looking elsewhere ("建议咨询当地税务机关", "please consult the official website"). A clause
that names someone else as the subject ("警方不知道…", "Scientists do not know…") or a
condition ("如果无法确定…", "If you cannot…") is no refusal: it speaks about the world.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ragpipe.core.text import content_tokens

# ---- English ----------------------------------------------------------------------------
_EN_SOURCE_NOUN = (r"(?:passages?|documents?|docs|contexts?|sources?|texts?|articles?|materials?|information|info|"
                   r"excerpts?|snippets?|references?|search results|knowledge base|content|paragraphs?|extracts?)")
_EN_SOURCE = (r"(?:(?:the|these|those|this|that|your|my|any|all(?: of)?(?: the)?|both|each|every|such)\s+)?"
              r"(?:(?:provided|given|available|retrieved|supplied|attached|above|following|referenced|reference|"
              r"relevant|listed|cited|shared|current|existing|supporting|two|three|other|same)\s+)*"
              + _EN_SOURCE_NOUN +
              r"(?:\s+(?:provided|given|available|above|supplied|retrieved|shown|here|at hand|(?:that )?(?:you|i|we)\s+"
              r"(?:\w+\s+)?(?:provided|gave|shared|sent|attached|uploaded|supplied|have(?: access to)?|had|was given|"
              r"received|found|retrieved|listed|referenced|cited|can (?:see|access))(?: me| us)?))?")
_EN_SAY = (r"(?:say|mention|provide|contain|state|include|give|indicate|address|discuss|offer|cover|tell|"
           r"list|describe|explain|show|reveal|answer|detail|clarify|note|refer|touch|make|have|allow|support|"
           r"define|identify|name|report|confirm|cite|talk|go into|deal with|specif|relate)\w*")
_EN_INFO = (r"(?:answers?|information|info|details?|specifics|responses?|reply|explanations?|figures?|numbers?|"
            r"dates?|amounts?|estimates?|confirmation|clarification|data|mention|references?|records?|clauses?|"
            r"sections?|evidence|sources?|indications?|hints?|clues?|descriptions?|guidance|statements?)\b")
_EN_DETERMINER = (r"(?:(?:the|an?|any|more|further|specific|exact|precise|definitive|definite|accurate|clear|reliable|"
                  r"complete|direct|concrete|certain|that|this|such|relevant|enough|sufficient|additional|"
                  r"requested|needed|correct|right)\s+)*")
# Verbs of answering or knowing that take any object ("I can't confirm the date"), and verbs
# of giving or finding that decline only with an object that is information ("provide the
# date", not "provide loans"; "find an answer", not "find a buyer").
_EN_KNOW = (r"(?:answer|know|tell|say|determine|confirm|verify|judge|assess|ascertain|establish|comment|speak to|"
            r"be (?:sure|certain)|help(?: (?:you )?with (?:that|this|your question))?)\b")
_EN_FIND = (r"(?:provide|give|offer|share|find|locate|retrieve|access|see|get|identify|supply|come up with)\s+"
            r"(?:(?:you|me|us)\s+)?"
            r"(?:(?:it|this|that|anything|any|one)\b|" + _EN_DETERMINER + _EN_INFO +
            r"|(?:what|when|where|how|whether|who|which|if)\b|(?:in|from|within) " + _EN_SOURCE +
            # any object sought in the sources ("find the parking fee in the provided information")
            r"|(?:[\w'-]+\s+){1,6}?(?:in|from|within|among|anywhere in) " + _EN_SOURCE + r"\b)")
_EN_CANNOT = (r"(?:cannot|could not|am unable to|are unable to|was unable to|unable to|"
              r"am not able to|are not able to|was not able to|not able to|will not be able to|have no way to|"
              r"am not in a position to|(?:it is |it was )?(?:not possible|impossible|hard|difficult) to)")
_EN_ADVERB = r"(?:(?:really|honestly|simply|just|still|currently|unfortunately|quite|fully|entirely|exactly|yet)\s+)?"
_EN_NOT_SURE = r"(?:not (?:sure|certain|aware|clear)|unsure|uncertain|unclear)"

_EN_ANCHORED = [
    # the speaker cannot answer, know or find
    # ("Do not answer calls…" without a subject is an instruction, not a refusal)
    r"(?:(?:i|we)\s+" + _EN_ADVERB + r"(?:do|did) not|(?:(?:i|we)\s+)?" + _EN_ADVERB + _EN_CANNOT + r")\s+" + _EN_ADVERB
    + r"(?:" + _EN_KNOW + r"|" + _EN_FIND + r")",
    r"(?:(?:i|we)\s+(?:am|are)\s+)?" + _EN_ADVERB + _EN_NOT_SURE + r"\b",
    r"(?:i|we)\s+(?:have no|lack|have not got)\s+" + _EN_DETERMINER +
    r"(?:idea|clue|knowledge|access|context|way of knowing|" + _EN_INFO + r")",
    r"(?:i|we)\s+(?:do|did) not have\s+(?:access to\s+)?" + _EN_DETERMINER + r"(?:knowledge|access|context|" +
    _EN_INFO + r")",
    r"no (?:idea|clue)\b|dunno\b|do not know$|unknown(?:$|\s+(?:based on|from|according to|given|per|in)\b)",
    # impersonal and passive: it cannot be determined, there is no way to know
    r"(?:cannot|can no longer|could not) be (?:answered|determined|confirmed|known|found|established|verified|said|"
    r"told|ascertained|inferred|deduced)\b",
    r"no answer (?:can|could) be (?:given|provided|found|determined)",
    r"there is no way (?:for me )?to (?:know|tell|say|determine|answer|confirm|verify)",
    # the sources do not say, hold no information, or fall short
    _EN_SOURCE + r"\s+(?:do|does|did)\s+not\s+" + _EN_ADVERB + r"(?:appear to |seem to )?"
    r"(?:explicitly |directly |specifically |clearly )?" + _EN_SAY,
    _EN_SOURCE + r"\s+(?:contains?|provides?|gives?|offers?|has|have|includes?|holds?|makes?|lacks?|lacked)\s+"
    r"(?:no|any)?\s*(?:mention|" + _EN_DETERMINER + _EN_INFO + r")",
    _EN_SOURCE + r"\s+(?:is|are|was|were|seems?|appears?)\s+(?:to be\s+)?(?:insufficient|not sufficient|not enough|"
    r"inadequate|silent|unclear|not clear|inconclusive|incomplete|not (?:detailed|specific) enough)\b",
    r"(?:none|neither|no one|not one|nothing)(?: of| in)?\s+" + _EN_SOURCE + r"\s+(?:" + _EN_SAY + r")",
    r"(?:neither|no)\s+" + _EN_SOURCE_NOUN + r"\s+" + _EN_SAY,
    r"there (?:is|are|was|were) (?:no|not any)\s+(?:relevant |specific |such |further |additional |sufficient |"
    r"explicit |direct |clear )?(?:information|info|mention|details?|answer|indication|discussion)\b"
    r"(?=\s+(?:about|on|regarding|concerning|in|within|from|available|provided|given|that|to|of|here|anywhere|"
    r"whatsoever|at all|as to|yet)\b|\s*$"
    r"|\s+for (?:this|that|your|the) question)",
    r"no (?:relevant |specific |further |additional |such |other )?(?:information|info|details?|data|answers?|"
    r"mention|results?)(?: (?:on|about|regarding) [^,]{1,40}?)? (?:was|were|is|are|could be|can be|has been|"
    r"have been) (?:found|given|provided|available|mentioned|located|retrieved|returned|included)\b",
    r"(?:there is |there are )?(?:not enough|insufficient|not sufficient|too little)\s+(?:relevant\s+)?"
    r"(?:information|info|context|details?)\b(?=\s*$|\s+(?:to|for|in|about|on|regarding|concerning|within|from|"
    r"available|provided|given|here|(?:is|was|has been) (?:available|provided|given|found)|(?:i|we) (?:have|can))\b)",
    r"(?:the )?(?:information|context|details)(?: needed| required| available)?(?: to answer)?[^,]{0,30}? "
    r"(?:is|are) (?:insufficient|not sufficient|not enough|lacking)\b",
    r"not something (?:that )?(?:" + _EN_SOURCE + r"\s+" + _EN_SAY + r"|(?:i|we) (?:can|could|am able to) " + _EN_KNOW
    + r")",
    r"(?:i|we) (?:would|had) rather not (?:guess|speculate|say|answer|comment)",
    r"(?:the )?(?:answer|information|info)(?: to (?:this|that|your|the) question)? (?:is|are) not (?:available|known|"
    r"provided|given|found|specified|stated)\b(?=\s*$|\s+(?:in|from|within|here|based|according|yet)\b)",
    r"(?:not|nowhere) (?:mentioned|stated|specified|provided|given|found|available|included|covered|addressed|"
    r"discussed)(?: anywhere)? (?:in|by|within) " + _EN_SOURCE + r"\b",
]
# Where the sources themselves are named as what is missing ("The fee is not mentioned in the
# passages"), the clause says nothing about the world whatever its subject.
_EN_FREE = [
    r"(?:is|are|was|were) (?:not|nowhere) (?:explicitly |clearly |directly |specifically )?(?:(?:mentioned|stated|"
    r"specified|provided|given|found|available|included|covered|addressed|discussed|listed|described|explained|"
    r"contained|present|indicated|documented|recorded|answered|there)(?: anywhere)? (?:in|by|within|from|among)|"
    r"(?:anywhere )?(?:in|within|among|part of)) " + _EN_SOURCE + r"\b",
    r"(?:missing|absent) from " + _EN_SOURCE + r"\b",
    r"(?:beyond|outside)(?: of)? (?:the scope of |what )?(?:my (?:knowledge|training)|what i know|"
    + _EN_SOURCE + r")",
]

# ---- Chinese ----------------------------------------------------------------------------
_ZH_SOURCE = (r"(?:(?:我|我们|您|你)?(?:手头|手上|目前|当前|现在)?(?:所)?(?:提供|给出|给定|所给|给|检索到|检索|召回|参考|附|附上|上传|"
              r"引用|上述|以上|现有|已知|已有|相关|这些|该|此|上面|这份|这篇|这段|掌握|查阅|查到|拿到|收到|获得|获取|找到|"
              r"看到)?(?:到)?的?){0,3}"
              r"(?:参考|检索|相关)?(?:资料|文档|文件|文献|上下文|语境|材料|信息|内容|段落|文章|文中|原文|文本|知识库|"
              r"(?:检索|搜索|查询)结果|片段|参考|资料库|答案库|说明书|手册|指南|指引|条款|合同|报告|公告|通知|网页|页面|表格|清单)")
_ZH_WHERE = r"(?:中|里|内|里面|当中|之中|上)"
_ZH_ADVERB = r"(?:并|均|都|也|暂|暂时|还|尚|完全|似乎|好像|目前|皆|亦|确实|实际上|根本)*"
_ZH_SAY = (r"(?:明确|直接|具体|详细|专门|清楚|有)?(?:提及|提到|说明|涉及|包含|包括|给出|明确|记载|记录|写明|显示|介绍|描述|谈到|"
           r"谈及|讲到|说到|列出|指出|规定|收录|涵盖|覆盖|提供|回答|解答|透露|披露|表明|交代|注明|标明|阐述|含有|出现|载明|"
           r"讲|说|写|解释|答案|相关)")
_ZH_INFO = (r"(?:信息|答案|回答|内容|资料|说明|数据|结论|解答|答复|结果|判断|描述|依据|记载|记录|表述|细节|解释|回复|定论|"
            r"金额|数额|数字|日期|时间|价格|条款|规定|答)")
_ZH_CANNOT = r"(?:无法|不能|不可能|没法|没办法|难以|无从|不便|未能|没能|不太能|很难|不好)"
_ZH_VIA = r"(?:(?:从|在|根据|依据|依照|按照|通过|基于|凭|就|由).{0,16}?(?:中|里|内|来看|来说|上)?)?"
_ZH_KNOW = (r"(?:回答|作答|解答|答复|回复|确定|确认|判断|判定|断定|得知|知道|获知|知晓|告知|告诉|核实|证实|推断|推测|评估|"
            r"说明|回应|肯定|说清|答|得到(?:解答|回答|答案|确认|证实))")
_ZH_FIND = (r"(?:提供|给出|给予|找到|查到|查询到|检索到|搜索到|获取|获得|得出|作出|做出|查找|发现|了解到|看到|给)"
            r"(?:.{0,16}?" + _ZH_INFO + r"|$)")

_ZH_ANCHORED = [
    # the speaker cannot answer, know or find
    _ZH_CANNOT + r"(?:在|再)?" + _ZH_VIA + r"(?:支持|用来|用于|帮助|足以|进行|做|作)?(?:" + _ZH_KNOW + r"|" + _ZH_FIND + r")",
    r"(?:未能?|没能|没有|没)" + _ZH_VIA + r"(?:找到|查到|查询到|检索到|搜索到|获取到|发现)" + r"(?:.{0,16}?" + _ZH_INFO + r"|$)",
    r"(?:不|不太|并不|并不太|不是很|不大|也不)(?:知道|清楚|确定|了解|明白|能确定|敢确定|好说|得而知)(?![的性]|因素)",
    r"(?:回答|答|说|讲|确定|判断)(?:不了|不上来|不出来?|不准|不清)|不会(?:回答|答|解答)",
    r"(?:查|查询|检索|搜索|搜|找)不(?:到|出)(?:.{0,16}?" + _ZH_INFO + r"|$)",
    r"(?:无|没有|暂无|并无|尚无|缺乏|缺少)(?:找到|查到|检索到)?(?:任何|相关|有关|具体|明确|足够|这方面|此方面|该方面|准确|确切|可靠|"
    r"可用|关于.{0,12}?|与.{0,15}?(?:相关|有关))的?" + _ZH_INFO,
    # the sources do not say, hold nothing, or fall short
    _ZH_SOURCE + _ZH_WHERE + r"?(?:对此|对这一点|关于(?:这一点|此|这个问题|该问题))?" + _ZH_ADVERB +
    r"(?:没有|没|未|未曾|并未|无|不|未能|尚未)" + _ZH_SAY + "(?!的)",
    _ZH_SOURCE + _ZH_WHERE + r"(?:对此|对这一点|关于(?:这一点|此|这个问题|该问题))?" + _ZH_ADVERB +
    r"(?:没有|没|无|缺少|缺乏|缺失|找不到|查不到|暂无|暂未|未见|不含|不包含|未收录|(?:未能?|没能|没有|没)(?:找到|查到|检索到|发现))"
    r"(?!有?(?:明确|直接)?(?:提及|提到|说明|涉及|包含|列出|写明|规定|载明|记载)的)",
    _ZH_SOURCE + _ZH_ADVERB + r"(?:不足|不够|有限|不充分|不够充分|不全|不完整|欠缺|匮乏|缺失)(?=$|以|来|无法|不能|难以|没法|我)",
    _ZH_SOURCE + r".{0,6}?(?:与|和|跟)(?:您的|你的|本|该|这个)?(?:问题|提问)?(?:无关|不相关|不符|不匹配)",
]
_ZH_FREE = [
    r"(?:超出|超过|不在)了?.{0,12}?(?:知识|能力|回答|资料|文档|材料|信息|上下文|内容).{0,4}?(?:范围|范畴)",
    r"(?:不在|并不在|没有在|未在|不存在于|未出现在|没有出现在)" + _ZH_SOURCE + _ZH_WHERE,
    r"在" + _ZH_SOURCE + _ZH_WHERE + _ZH_ADVERB + r"(?:不存在|没有|找不到|查不到|未出现|未提及|未能?找到|没能找到|缺失|无从)",
]

# The reason a refusal gives, what the sources do cover ("The documents only cover adults, so I
# can't…", "手册中只介绍了安装步骤，无法回答…"): it speaks of the sources, not the world, and
# asserts nothing beside a refusal (alone, it is no refusal).
_REASON_PATTERNS = [
    _EN_SOURCE + r"\s+(?:(?:only|just|merely|solely)\s+" + _EN_SAY + r"|(?:is|are|was|were)\s+(?:only|just|merely|solely)\s+"
    r"(?:about|on|for|concerned with|focused on)\b)",
    _ZH_SOURCE + _ZH_WHERE + r"?" + _ZH_ADVERB + r"(?:只|仅|仅仅|只是|主要)(?:有|是)?" + _ZH_SAY,
]
# A clause that only leads into a refusal: these words and nothing else.
_LEAD_IN_WORDS = ("however therefore thus hence unfortunately regrettably sorry apologize apologies afraid regret note "
                  "worth noting important based according given provided available retrieved supplied above following "
                  "reference references relevant current existing passage passages document documents documentation docs context contexts "
                  "source sources information info text texts material materials excerpt excerpts snippet snippets "
                  "article articles paragraph paragraphs content knowledge base search result results question query "
                  "request regarding concerning topic matter answer hello hi hmm well honestly frankly thank thanks "
                  "dear currently moment present far go see seems appears because since although though whereas while "
                  "抱歉 对不起 很 遗憾 非常 不好意思 您好 你好 感谢 谢谢 说实话 老实说 坦白说 请 恕 这边 这里 哦 呢 啊 呀 啦 嗯 真的 确实 实在 恐怕 可能 "
                  "根据 依据 据 显示 表明 基于 提供 给定 给出 所给 现有 已知 检索 召回 参考 引用 手头 掌握 文档 资料 参考资料 上下文 "
                  "材料 信息 内容 片段 段落 文献 文本 文章 文件 语境 结果 知识 知识库 文中 原文 以上 上述 里 到 "
                  "问题 提问 疑问 答案 这个 目前 暂时 本人 关于 对于 对此 一点 方面 咨询 您 来看 看来 "
                  "由于 因为 因此 所以 但是 不过 然而")
# Someone other than the speaker as subject, or a condition: the clause then describes the
# world ("警方不知道…", "She couldn't answer…", "If you cannot…").
_OTHER_SUBJECT = re.compile(r"\b(?:he|she|they|you|his|her|their|him|them|people|someone|somebody|nobody|"
                            r"everyone|everybody|if|when|unless|whether)\b|(?<!其)[他她它]|如果|若|假如|倘若|一旦|除非|如遇")
# Looking elsewhere asserts nothing: "建议咨询相关部门", "please consult the official website".
_SUGGESTION = re.compile(
    r"^(?:please\s+|kindly\s+|(?:you|we)\s+(?:may|might|could|can|should|would)\s+(?:also\s+)?(?:want to\s+|wish to\s+|"
    r"need to\s+|like to\s+)?|i\s+(?:would\s+)?(?:recommend|suggest|advise)(?:\s+that\s+you)?\s*|(?:it is\s+)?"
    r"(?:recommended|suggested|advisable)\s+(?:to|that you)\s+|feel free to\s+|try\s+|consider\s+|for (?:more|further|"
    r"accurate|the latest|up-to-date) (?:information|details)\s*)"
    r"(?:\w+\s+){0,2}?(?:consult|check|contact|ask|refer|visit|call|reach|look|search|provide|rephrase|share|confirm|"
    r"verify|see|get in touch|clarify|give)\w*"
    r"|^(?:建议|请|您可以|你可以|可以|可|如需|如有需要|如有疑问|欢迎|烦请|麻烦|推荐|最好|不妨|您可|您也可以|也可以).{0,10}?"
    r"(?:咨询|查阅|联系|拨打|致电|查询|访问|登录|前往|核实|询问|参考|提供|补充|换|关注|留意|查看|浏览|确认|问问|了解|检索)"
    r"|^(?:请|建议|一切|具体)?(?:以|依照|参照).{1,12}为准"
    r"|^(?:我|我们)?(?:再|会|将|可以)?(?:帮您|为您|帮你)(?:解答|回答|查询|查找|解决)")

_CLAUSE_BREAK = re.compile(
    r"[,;:!?，；：！？。\n]|\.(?!\d)"
    r"|(?=\b(?:but|however|although|though|whereas|while|therefore|thus|hence|because|since)\b)"
    r"|(?<!not )(?<!think )(?=\bso\b(?! (?:far|much|many|sure|certain|clear)\b))"
    r"|(?=但是|但|不过|然而|因此|所以|因为|由于|因而|从而)")
_CONTRACTIONS = [(r"\b(ca|can)n'?t\b|\bcan not\b", "cannot"), (r"\bwon'?t\b", "will not"),
                 (r"\b(do|does|did|is|are|was|were|could|would|should|has|have|had|must|need)n'?t\b", r"\1 not"),
                 (r"\bi'?m\b", "i am"), (r"'re\b", " are"), (r"'ve\b", " have"), (r"'ll\b", " will"),
                 (r"\b(it|that|there|what|here)'s\b", r"\1 is"), (r"'d\b", " would")]
_CJK_SPACE = re.compile(r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef,.!?;:])\s+|\s+(?=[\u3000-\u303f\u4e00-\u9fff"
                        r"\uff00-\uffef,.!?;:])")


def _compile(patterns: list[str]) -> re.Pattern:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


_ANCHORED = _compile(_EN_ANCHORED + _ZH_ANCHORED)
_FREE = _compile(_EN_FREE + _ZH_FREE)
_REASON = _compile(_REASON_PATTERNS)


def _fold(text: str) -> str:
    """Width, case, typographic apostrophes, contractions and stray spaces folded."""
    text = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'").replace("\u2018", "'")
    for pattern, replacement in _CONTRACTIONS:
        text = re.sub(pattern, replacement, text)
    return " ".join(_CJK_SPACE.sub("", text).split())


@lru_cache(maxsize=65536)
def _clauses(text: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in _CLAUSE_BREAK.split(_fold(text)) if c and re.search(r"\w", c))


@lru_cache(maxsize=1)
def _lead_in() -> frozenset[str]:
    return frozenset(content_tokens(_LEAD_IN_WORDS))  # tokenized on first use: jieba loads lazily


def _leads_in(clause: str) -> bool:
    return set(content_tokens(clause)) <= _lead_in()


@lru_cache(maxsize=65536)  # every metric asks of the same statements: the grammar is the cost
def _refuses(clause: str) -> bool:
    """The clause declines: a match of the grammar that opens it (after lead-in words only,
    no other subject, no condition), or one that names the sources as lacking the answer."""
    if _FREE.search(clause):
        return True
    return any(_leads_in(before) and not _OTHER_SUBJECT.search(before)
               for before in (clause[: m.start()] for m in _ANCHORED.finditer(clause)))


def _gives_reason(clause: str) -> bool:
    return any(_leads_in(clause[: m.start()]) for m in _REASON.finditer(clause))


def _asserts_nothing(clause: str) -> bool:
    return _leads_in(clause) or bool(_SUGGESTION.search(clause)) or _gives_reason(clause)


def only_lead_in(text: str) -> bool:
    """Every clause only leads into a refusal or suggests looking elsewhere ("Sorry.",
    "建议咨询相关部门。"): a statement that adds no claim to a refusal beside it."""
    return all(_asserts_nothing(c) for c in _clauses(text))


def is_refusal(statement: str) -> bool:
    """A statement that only declines: one clause says the speaker cannot answer or the
    sources do not hold the answer, and every other clause only leads into it or suggests
    looking elsewhere. "The passages do not say how big the quilt is, so these steps fit
    any size" asserts more and is no refusal."""
    clauses = _clauses(statement)
    refusing = [_refuses(c) for c in clauses]
    return any(refusing) and all(r or _asserts_nothing(c) for c, r in zip(clauses, refusing))


def says_unanswerable(statements) -> bool:
    """Some statement says the question cannot be answered, with reasons or not
    ("这个问题无法回答，因为…"): unlike ``is_refusal``, other clauses may assert more."""
    return any(_refuses(c) for s in statements for c in _clauses(s))
