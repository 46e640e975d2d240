"""The parts of a reference answer that answer_correctness and factual_correctness read one by one: the items a
listing reference names ("Copper and tin", 黄河和长江), and the alternative it takes of a choice question
("饭前还是饭后服用？")."""

import re

from ragpipe.core.evidence.agreement import found_in, worded
from ragpipe.core.evidence.facts import fold
from ragpipe.core.text import is_chinese, jieba_ready, stem


# What joins the items of a listing reference ("Copper and tin", "Malcolm & Donald Campbell", "黄河和长江");
# a comma only where the question asks for several: it more often adds a place or a title ("Geneva, Switzerland").
_LIST_JOINER = re.compile(r"\s*(?:&|\band\b|以及|和|与|及|、)\s*", re.I)


def list_items(reference: str, commas: bool = False) -> list[str]:
    """The parts a reference's joiners (and, where asked, its commas) separate, less its parentheses."""
    core = re.sub(r"\([^()]*\)|（[^（）]*）", " ", reference).strip()
    return [item.strip(" ,，") for item in re.split(rf"{_LIST_JOINER.pattern}{'|[,，]' if commas else ''}", core, flags=re.I)
            if item.strip(" ,，")]


# A question that asks for more than one thing ("Which two metals…", "name the top four…", "both",
# "哪两条", "哪几位"; not "separated into two parts").
_SEVERAL = re.compile(r"\b(?:which|what|name|list|the)\s+(?:\w+\s+){0,2}?(?:two|three|four|five|six|[2-9])(?![\w-])|\bboth\b"
                      r"|哪[2-9两二三四五六七八九几]|哪些|几[个位种条项]", re.I)


def listed(reference: str, question: str) -> list[list[str]]:
    """The key terms (those the question does not give) of each item a short reference lists, where
    the question asks for several things and each item has some. Without such a question a joined
    reference is as often one name ("Tokyo City and Prefecture", "Vodka and Coke")."""
    asked = re.sub(r"\([^()]*\)|（[^（）]*）", " ", question)  # not an aside: "(clue - both medals were …)"
    if not _SEVERAL.search(asked) or len(reference.split()) > 8 or len(reference) > 40:
        return []
    given = set(worded(question))
    keyed = [[t for t in worded(item) if not found_in(t, given)] for item in list_items(reference, commas=True)]
    return keyed if len(keyed) > 1 and all(keyed) else []


# What joins the two alternatives of a choice question ("饭前还是饭后服用？", "Rent or buy?").
_CHOICE = re.compile(r"还是|或是|\bor\b", re.I)


def _plain_words(text: str) -> list[str]:
    """Every word, small ones too ("before", "after"): jieba's words, or English stems."""
    if is_chinese(text):
        return [w for w in jieba_ready().lcut(text) if re.search(r"\w", w)]
    return [stem(w) for w in re.findall(r"[a-z0-9]+", fold(text).lower())]


def other_choice(question: str, reference: str, answer: str) -> str | None:
    """The question offers two alternatives (the words either side of "or" / 还是), the reference
    takes one and the answer the other ("应在饭前服用" for "饭后服用"): a conflict."""
    parts = _CHOICE.split(question or "", maxsplit=1)
    if len(parts) != 2 or _CHOICE.search(reference):
        return None
    left, right = _plain_words(parts[0]), _plain_words(parts[1])
    while len(left) > 1 and len(right) > 1 and left[-1] == right[-1]:  # "早上涂还是晚上涂": 早上 or 晚上
        left, right = left[:-1], right[:-1]
    if not left or not right or left[-1] == right[0]:
        return None

    def says(text: str, word: str) -> bool:
        return word in _plain_words(text) or is_chinese(text) and word in text

    for wanted, other in ((left[-1], right[0]), (right[0], left[-1])):
        if says(reference, wanted) and not says(reference, other) and says(answer, other) and not says(answer, wanted):
            return f"{other} for {wanted}"
    return None
