"""Build ragpipe/core/word_senses.json from a WordNet 3.0 dictionary folder.

usage: python scripts/build_word_senses.py /usr/share/wordnet   (Debian/Ubuntu: apt-get install wordnet-base)

Each group lists the single English words that share one WordNet synset among the TOP_SENSES most frequent senses
of every one of them and a quarter at least of its uses in WordNet's sense-tagged corpus ("begin start", "kid child",
"supply provide"): a word's rare senses are left out, so "get" is no synonym of "begin", nor "dog" of "trail", though
a rare sense of each is, and so are words the corpus never tags (mostly names of species and terms of art). Names, days and months (capitalised lemmas), multi-word
lemmas and number words are left out: they are values and names, which the typed readers compare. The irregular
forms of the kept words ("paid" / "pay", "began" / "begin") come with them.

WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved (license: see the notice in the JSON).
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

TOP_SENSES = 3
MIN_SHARE = 0.25  # of all the word's tagged uses, any part of speech: "dog" the verb ("trail") is 5% of "dog"
POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
SS_TYPE = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}  # a sense key's synset type (5: adjective satellite)
OUT = Path(__file__).resolve().parent.parent / "ragpipe" / "core" / "word_senses.json"
NOTICE = ("Derived from WordNet 3.0. WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. "
          "Permission to use, copy, modify and distribute this software and database and its documentation for any "
          "purpose and without fee or royalty is hereby granted, provided that you agree to comply with the following "
          "copyright notice and statements, including the disclaimer, and that the same appear on ALL copies of the "
          "software, database and documentation, including modifications that you make for internal use or for "
          "distribution. THIS SOFTWARE AND DATABASE IS PROVIDED \"AS IS\" AND PRINCETON UNIVERSITY MAKES NO "
          "REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. The name of Princeton University or Princeton may not be "
          "used in advertising or publicity pertaining to distribution of the software and/or database.")
_WORD = re.compile(r"^[a-z][a-z-]*[a-z]$")  # lower-case single words: no names, multi-word lemmas or numbers


def _lines(path: Path):
    return (line for line in path.read_text(encoding="latin-1").splitlines() if not line.startswith(" "))


def build(folder: Path) -> dict:
    lemmas = {}  # (pos, offset) -> the synset's lemmas as written
    for p, name in POS.items():
        for line in _lines(folder / f"data.{name}"):
            fields = line.split()
            count = int(fields[3], 16)
            lemmas[(p, fields[0])] = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i]) for i in range(count)]
    tags = defaultdict(int)  # (word, pos, sense number) -> times the corpus tags the word in that sense
    for line in _lines(folder / "cntlist.rev"):
        key, number, count = line.split()
        word, kind = key.split("%")[0], SS_TYPE[key.split("%")[1][0]]
        tags[(word, kind, int(number))] += int(count)
    total = defaultdict(int)
    for (word, _, _), count in tags.items():
        total[word] += count
    kept = defaultdict(set)  # synset -> the words for which it is a frequent sense
    for p, name in POS.items():
        for line in _lines(folder / f"index.{name}"):
            fields = line.split()
            word, pointers = fields[0], int(fields[3])
            for number, offset in enumerate(fields[6 + pointers:][:TOP_SENSES], start=1):
                written = lemmas[(p, offset)]
                if _WORD.match(word) and word in written and not any(re.search(r"\d", w) for w in written) \
                        and tags[(word, p, number)] >= MIN_SHARE * total[word] > 0:
                    kept[(p, offset)].add(word)
    groups = sorted({" ".join(sorted(words)) for words in kept.values() if len(words) >= 2})
    words = {w for g in groups for w in g.split()}
    irregular = {}
    for name in POS.values():
        for line in _lines(folder / f"{name}.exc"):
            form, base = line.split()[:2]
            if base in words and _WORD.match(form):
                irregular.setdefault(form, base)
    return {"source": NOTICE, "top_senses": TOP_SENSES, "groups": groups, "irregular": dict(sorted(irregular.items()))}


if __name__ == "__main__":
    table = build(Path(sys.argv[1]))
    OUT.write_text(json.dumps(table, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(table['groups'])} groups, {len(table['irregular'])} irregular forms -> {OUT}")
