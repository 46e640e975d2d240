"""The stances a text takes on a thing, however worded: permits, forbids, requires or exempts (``MODALITY``), holds in or
leaves out (``INCLUSION``), and each stance's opposite. polarity.py reads a statement's stance against the evidence's."""

import re

# What a text permits, forbids, requires or exempts from, however worded: "严禁" and "不得" both
# forbid (neither is the other's negation), "may not" and "is prohibited" too. The negated forms
# come first in each language: "not allowed" ("isn't allowed") forbids, "not required" exempts.
MODALITY = [
    ("forbid", re.compile(r"^\s*(?:please\s+)?(?:do\s+not|don['’]t|never)\b"
                          r"|\b(?:must|may|shall|should|can|could)\s+not\b|\b(?:mustn|shan|can|couldn)['’]?t\b|\bcannot\b"
                          r"|(?:\b(?:not|never)|n['’]t)\s+(?:\w+\s+){0,2}(?:allowed|permitted|safe|recommended|advised|suitable)\b"
                          r"|\b(?:prohibit\w*|forbid\w*|ban(?:s|ned|ning)?\b)"
                          r"|\boff[\s-]limits\b|\bno\s+(?:\w+\s+){1,2}(?:is|are|was|were)\s+(?:allowed|permitted)\b"
                          # Advice to avoid a thing forbids it ("should avoid lighting fires"), not a purpose ("to avoid queues").
                          r"|\b(?:should|must|please|best\s+to)\s+avoid\b|^\s*avoid\b",
                          re.I)),
    ("exempt", re.compile(r"\b(?:optional|voluntary)\b|(?:\bnot|n['’]t)\s+(?:required|mandatory|necessary|needed)\b|\bno\s+need\b"
                          r"|\b(?:do|does|did)(?:\s+not|n['’]t)\s+(?:need|have)\s+to\b|\bneed(?:\s+not|n['’]t)\b"
                          r"|\b(?:do|does|did)(?:\s+not|n['’]t)\s+(?:need|require)\b"
                          r"|\bno\b(?=(\s+(?:\w+\s+){1,2}(?:is|are|was|were)\s+(?:needed|required|necessary))\b)", re.I)),
    ("require", re.compile(r"\b(?:must|shall|required|mandatory|compulsory|obligatory)\b|\b(?:have|has|need|needs)\s+to\b"
                           r"|\brequires?\b", re.I)),
    # "may", not the month ("May 1937", "1 May", "in May"); harmless is allowed ("has no effect on", "没有影响").
    ("permit", re.compile(r"(?<!\d\s)(?<!\bin\s)(?<!\bof\s)(?<!\bfrom\s)(?<!\bsince\s)(?<!\buntil\s)\bmay\b(?!\s+\d)"
                          r"|\b(?:can|allowed|permitted|welcome|safely)\b|\b(?:is|are)\s+safe\b"
                          r"|\bfree\s+to\b|\b(?:has|have|had)\s+no\s+(?:\w+\s+)?effect\b|\bdoes\s+not\s+affect\b"
                          r"|\bharmless\b", re.I)),
    ("forbid", re.compile(r"严禁|禁止|禁[用食烟售行停入]|不得|不准|不许|不能|不可|不宜|切勿|请勿|谢绝|不(?:允许|准许|建议|推荐)"
                          r"|(?<![可能])暂停"  # a service suspended ("暂停办理") is not to be had
                          r"|概不|不予|不(?:支持|接收|接受|受理)"  # a refusal of the provider's own ("概不退还", "不予受理",
                          # "不接收医疗废物") allows it to no one
                          # Advice to avoid or not to do a thing forbids it ("应避免剧烈运动", "最好不要带"), not a purpose ("以避免拥堵").
                          r"|(?:应当?|应该|须|需要?|请|尽量|务必|最好)避免|(?:请|最好|千万|切记|一定)不要")),
    ("exempt", re.compile(r"无需|无须|毋须|不需要?|不必|不用|非必须|自愿|可选")),
    ("require", re.compile(r"必须|务必|应当|需要|须")),
    # "也能", "都能": a reply's "can … too" permits ("穿鞋也能进场"); a bare 能 is as often ability ("能治疗").
    ("permit", re.compile(r"可以|允许|准许|能够|放心|(?:没有|无)(?:任何)?影响|不影响|无妨|无碍|[也都]能")),
]
# What a text holds in or leaves out, however worded: "is excluded from", "is not part of", "falls outside the scope
# of", "不含", "不在…范围内", "免责" leave out what "covers", "includes", "包含", "保障" hold in (negated forms first).
INCLUSION = [
    ("exclude", re.compile(r"\bexclu(?:de|ded|des|ding|sion)\b|\boutside\s+(?:[\w'’]+\s+){0,2}(?:scope|coverage)\b"
                           r"|(?:\bnot|n['’]t)\s+(?:\w+\s+){0,2}(?:includ|cover|contain|part\s+of|extend\s+to|reimburs)", re.I)),
    ("include", re.compile(r"\b(?:includ(?:e|es|ed|ing)|cover(?:s|ed)?|contain(?:s|ed)?|part\s+of|extends?\s+to|reimburs\w*)\b", re.I)),
    # What a plan pays for it holds in: "可以报销" / "不予赔付", "不属于医保支付范围".
    ("exclude", re.compile(r"不(?:包括|包含|含|涵盖|覆盖|保障|承保)|不(?:在|属于)[^，。；]{0,12}(?:范围|目录|之列)|除外|免责"
                           r"|未(?:包括|包含|纳入|列入)|不(?:予|能|可)?(?:报销|赔付|理赔)")),
    ("include", re.compile(r"包括|包含|含(?![义量糊])|涵盖|覆盖|保障|承保|纳入|列入|在[^，。；]{0,12}范围|报销|赔付|理赔")),
]
OPPOSITE = {"forbid": "permit", "permit": "forbid", "require": "exempt", "exempt": "require",
             "include": "exclude", "exclude": "include"}
