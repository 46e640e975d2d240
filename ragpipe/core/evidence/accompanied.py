"""Alone where the evidence requires company: a statement that lets a group do a thing alone ("Minors can play the
course without an adult.", "未成年人可以单独进场") where the evidence requires that group to be accompanied ("Golfers under
18 must be accompanied by an adult", "18岁以下的顾客须由成人陪同方可入场").

Neither side negates, and their words differ ("without an adult" / "accompanied by an adult", 单独 / 陪同), so
polarity.py sees no opposition. The group ties the two: its age bound stands in both (minors.py has read "minors" as
the evidence's "under 18"), and a word of the act or of the group besides; without a bound, two such words.
"""

from __future__ import annotations

import re

from ragpipe.core.evidence.agreement import found_in, words
from ragpipe.core.evidence.limits import bounded_alike
from ragpipe.core.evidence.polarity import clauses_of, modality
from ragpipe.core.text import numbers

# Who may keep company: a grown-up, or whoever supervises the activity ("a coach", 教练, 救生员).
_COMPANION = (r"(?:adults?|parents?|guardians?|grown-ups?|supervisors?|instructors?|coach(?:es)?|teachers?|lifeguards?"
              r"|guides?|(?:a )?member of staff|staff(?: members?)?)")
_ZH_COMPANION = r"(?:家长|成人|大人|监护人|教练|老师|救生员|工作人员|导游|向导)"
_ALONE = re.compile(rf"\b(?:alone|on (?:their|his|her|your) own|by (?:themselves|himself|herself|yourself)|unaccompanied"
                    rf"|unsupervised|without (?:an? |the |their )?(?:{_COMPANION}|supervision))\b"
                    rf"|单独|独自|无需{_ZH_COMPANION}?陪同|不(?:需要?|用){_ZH_COMPANION}?陪同|没有{_ZH_COMPANION}(?:在场|陪同)"
                    r"|自己(?=进|入|去|来|参加|乘|坐|上|玩|游)|自行(?=进|入|前往|参加|乘|坐)", re.I)  # 自己进园: alone, not 自己带
_ACCOMPANIED = re.compile(rf"\b(?:must|need to|needs to|have to|has to|should|are required to|is required to)\s+be\s+"
                          rf"(?:accompanied|supervised)\b|\bonly (?:with|when accompanied by) an? (?:adult|parent|guardian)\b"
                          rf"|\bunless (?:accompanied by |with )?(?:an? |their |his |her )?(?:adult|parent|guardian)s?\b"
                          # "may only go on the water when a coach is present", "only under the supervision of a lifeguard"
                          rf"|\bonly\b[^,;.]{{0,40}}?\b(?:when|while|if)\s+(?:an? |the |their )?{_COMPANION}\s+(?:is|are)\s+"
                          rf"(?:present|there|on duty|watching)\b|\bonly\b[^,;.]{{0,40}}?\b(?:in the presence of|under the "
                          rf"supervision of)\b"
                          rf"|(?:须|需|需要|必须|应)(?:由|有|在)?[\u4e00-\u9fff]{{0,6}}(?:陪同|在场)|(?:只有)?(?:在|由)?[\u4e00-\u9fff]{{0,6}}?(?:陪同|在场)(?:下|时|的情况下)?(?:方可|才能|才可以?)"
                          rf"|除非有?{_ZH_COMPANION}", re.I)
_CONDITION = re.compile(r"\b(?:if|unless|only|except)\b|如果|除非|只有|除外", re.I)
# The words that say alone or in company, not who or what.
_COMPANY_WORDS = re.compile(r"^(?:alone|own|unaccompan\w*|unsupervis\w*|without|adults?|parents?|guardians?|supervis\w*"
                            r"|accompan\w*|must|need\w*|requir\w*|coach\w*|instruct\w*|teacher\w*|lifeguard\w*|present"
                            r"|单独|独自|陪同|在场|成人|大人|家长|监护人|教练|老师|救生员|可以|须|需|必须)$", re.I)


def accompaniment_conflict(statement: str, sentences: list[str]) -> tuple[str, str, str, str] | None:
    """("modality", the statement's "alone", the evidence's "accompanied", the clause) where the evidence requires
    company of the group the statement lets do a thing alone; None elsewhere."""
    alone = _ALONE.search(statement)
    if not alone or _ACCOMPANIED.search(statement) or _CONDITION.search(statement) or modality(statement) == "forbid":
        return None
    stated = numbers(statement)
    ours = [w for w in dict.fromkeys(words(statement)) if not _COMPANY_WORDS.match(w)]
    for clause in (c for s in sentences for c in clauses_of(s)):
        company = _ACCOMPANIED.search(clause)
        # The company it requires may be its condition ("not … to anyone under 18 unless a parent … stays"), no other.
        if not company or _ALONE.search(clause) or _CONDITION.search(clause[:company.start()] + clause[company.end():]):
            continue
        shared = sum(found_in(w, words(clause)) for w in ours)
        same_bound = bool(stated) and bounded_alike(statement, clause)
        if shared >= (1 if same_bound else 2) and (same_bound or not stated):
            return "modality", alone.group(0), company.group(0), clause
    return None
