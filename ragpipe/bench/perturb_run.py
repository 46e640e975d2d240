"""`ragpipe bench perturb`: a generated perturbation sweep over the behavioural suite's faithful cases.

Seeds: the suite's MFT cases of faithfulness and hallucination_rate with capability "faithful" or "faithful
paraphrase" that pass today. Each seed's answer gets the typed edits of ragpipe.bench.perturb, scored with
the seed's metric on the seed's contexts:

- a meaning-changing edit is caught when the score says so and the flag agrees: faithfulness ≤ 0.65 and
  ``hallucinated``; hallucination_rate ≥ 0.35 (its complement);
- a control (meaning kept) passes when |value(edit) − value(seed)| ≤ 0.1, the suite's INV band.

The report gives generated / caught (or kept) per edit type and language, and with --misses each miss.
Nothing is written into the suite: the sweep regenerates its cases from it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from ragpipe.bench.perturb import CHANGING, CONTROLS, perturb
from ragpipe.bench.sanity import run_suite
from ragpipe.bench.sanity_cases import BEHAVIOUR_DIR, load_suite

METRICS = ("faithfulness", "hallucination_rate")
SEED_CAPABILITIES = ("faithful", "faithful paraphrase")
CAUGHT = 0.65      # the suite's band for an answer half of which is invented
CONTROL_DELTA = 0.1


def seeds(cases):
    return [c for c in cases if c.metric in METRICS and c.type == "MFT" and c.capability in SEED_CAPABILITIES
            and c.variant is None]


def generate(seed_cases):
    """(seed, edit, BehaviourCase to score) for every edit of every seed; the case's expectation is unused."""
    out = []
    for seed in seed_cases:
        fields = seed.fields()
        for edit in perturb(fields["answer"] or "", fields.get("retrieved_contexts") or []):
            case = replace(seed, id=f"{seed.id}#{edit.kind}", case={**seed.case, "answer": edit.answer})
            out.append((seed, edit, case))
    return out


def caught(metric: str, value: float | None, details: dict) -> bool:
    if value is None:
        return False
    if metric == "faithfulness":
        return value <= CAUGHT and details.get("hallucinated") is True
    return value >= 1 - CAUGHT


def sweep(folder=BEHAVIOUR_DIR, toolkit=None, seed_filter=None):
    """Score the seeds, keep those that pass, score their edits; one row per generated case."""
    found = seeds(load_suite(folder, [m for m in METRICS if (Path(folder) / f"{m}.jsonl").exists()]))
    if seed_filter is not None:
        found = [s for s in found if seed_filter(s)]
    passed = {o.id: o for o in run_suite(found, toolkit) if o.passed}
    kept = [s for s in found if s.id in passed]
    made = generate(kept)
    outcomes = run_suite([case for _, _, case in made], toolkit)
    rows = []
    for (seed, edit, _), o in zip(made, outcomes):
        before = passed[seed.id].value
        if edit.control:
            ok = o.value is not None and before is not None and abs(o.value - before) <= CONTROL_DELTA
        else:
            ok = caught(seed.metric, o.value, o.details)
        rows.append({"seed": seed.id, "metric": seed.metric, "language": seed.language, "kind": edit.kind,
                     "control": edit.control, "slot": edit.slot, "to": edit.to, "answer": edit.answer,
                     "seed_value": before, "value": o.value, "hallucinated": o.details.get("hallucinated"), "ok": ok})
    return len(found), len(kept), rows


def table(rows) -> str:
    cells = defaultdict(lambda: [0, 0])
    for r in rows:
        cell = cells[(r["kind"], r["language"])]
        cell[0] += 1
        cell[1] += r["ok"]
    lines = ["edit | lang | generated | caught (controls: kept) | rate", "---|---|---|---|---"]
    for kind in (*CHANGING, *CONTROLS):
        for lang in ("en", "zh"):
            if (kind, lang) in cells:
                n, ok = cells[(kind, lang)]
                lines.append(f"{kind}{' (control)' if kind in CONTROLS else ''} | {lang} | {n} | {ok} | {100 * ok / n:.1f}%")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench perturb",
                                     description="Typed perturbations of the suite's passing faithful cases: how many "
                                                 "meaning-changing edits are caught, how many controls keep the score.")
    parser.add_argument("folder", nargs="?", default=str(BEHAVIOUR_DIR), help="folder of the suite's <metric>.jsonl files")
    parser.add_argument("--language", choices=("en", "zh"), help="only this language's seeds")
    parser.add_argument("--misses", action="store_true", help="list every edit not caught and every control that moved")
    parser.add_argument("--json", action="store_true", help="print every generated case and its score as JSON")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    keep = (lambda s: s.language == args.language) if args.language else None
    n_seeds, n_kept, rows = sweep(args.folder, seed_filter=keep)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"seeds": n_seeds, "seeds_passing": n_kept, "cases": rows, "seconds": round(seconds, 1)},
                         indent=1, ensure_ascii=False))
        return 0
    print(f"{n_kept} of {n_seeds} faithful seeds pass; {len(rows)} edits generated\n")
    print(table(rows))
    if args.misses:
        for r in rows:
            if not r["ok"]:
                print(f"  MISS {r['kind']} {r['seed']}: {r['slot']!r} → {r['to']!r}: {r['answer']!r} "
                      f"{r['seed_value']:.3f} → {r['value'] if r['value'] is None else round(r['value'], 3)}")
    print(f"\n{seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
