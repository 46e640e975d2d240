"""A scripted stand-in for an LLM judge behind the loopback OpenAI-compatible server:
it recognises each ragpipe prompt (single and batched) and answers it deterministically
from the fenced data, so that a batched prompt and the single prompts it replaces give
the same results."""

import re

from ragpipe.testing.openai_server import Recorded

KNOWN_ENTITIES = {"财政部": "organization", "中小企业": "industry", "上海市": "location",
                  "Ministry of Finance": "organization", "small businesses": "industry", "Ohio": "location"}
RUBRIC = {"analysis": "no errors", "accuracy": 9, "completeness": 7, "clarity": 8,
          "reason": "accurate", "suggestion": "add the credit score"}
PURE_RUBRIC = {"analysis": "unverifiable figures", "accuracy": 3, "completeness": 5, "clarity": 8,
               "reason": "fabricated", "suggestion": "cite sources"}


def prompt_of(req: Recorded) -> str:
    """Which prompt a request carries: from response_format, else from its data fences."""
    if req.schema_name:
        return req.schema_name
    if req.fenced("check 1 statement 1") is not None:
        return "statement_verification_batch"
    if req.fenced("statement 1") is not None:
        return "statement_verification"
    if req.fenced("text 1") is not None:
        return "entity_extraction_batch"
    if req.fenced("document 1") is not None:
        return "judge_and_rubric" if req.fenced("ground_truth") is not None else "rubric_1_10"
    if req.fenced("ground_truth") is not None:
        return "llm_judge" if req.fenced("question") is not None else "answer_analysis"
    if req.fenced("question") is not None and req.fenced("context 1") is not None:
        return "context_relevance"
    if req.fenced("question") is not None:
        return "rubric_1_10_pure_llm"
    if req.fenced("answer") is not None:
        return "answer_relevancy"
    return "entity_extraction" if "legal_clause" in req.prompt else "statement_decomposition"


def strip_end(text: str) -> str:
    return text.strip().rstrip("。.！!？?")


def split(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[。！？])|(?<=[.!?])\s+", text) if s.strip()]


def verdicts_for(statements: list[str], passages: dict[int, str]) -> list[dict]:
    """A statement is supported by the first passage that contains it (end punctuation aside)."""
    out = []
    for i, s in enumerate(statements, 1):
        source = next((j for j, c in passages.items() if strip_end(s) in c), 0)
        out.append({"index": i, "reason": "stated in a passage" if source else "not in any passage",
                    "verdict": int(source > 0), "source": source})
    return out


def entities_in(text: str) -> list[dict]:
    found = sorted((e for e in KNOWN_ENTITIES if e in text), key=text.index)
    return [{"name": e, "type": KNOWN_ENTITIES[e]} for e in found]


def questions_for(answer: str, n: int) -> dict:
    return {"questions": [f"Q{i}: {strip_end(answer)}?" for i in range(1, n + 1)],
            "noncommittal": int("不知道" in answer or "don't know" in answer)}


def judge(answer: str, ground_truth: str) -> dict:
    good = strip_end(ground_truth) in answer
    return {"reasoning": "matches the ground truth" if good else "contradicts it", "score": 5 if good else 2}


def n_questions(req: Recorded) -> int:
    return int(re.search(r"(?:写出|Write) (\d+)", req.prompt).group(1))


def fake_llm(req: Recorded):
    name = prompt_of(req)
    if name == "statement_decomposition":
        return {"statements": split(req.fenced("text"))}
    if name == "answer_analysis":
        answer, truth = req.fenced("answer"), req.fenced("ground_truth")
        return {"answer_statements": split(answer), "ground_truth_statements": split(truth),
                **questions_for(answer, n_questions(req))}
    if name == "statement_verification":
        contexts, statements = req.fenced_items("context"), req.fenced_items("statement")
        return {"verdicts": verdicts_for(statements, dict(enumerate(contexts, 1)))}
    if name == "statement_verification_batch":
        passages = req.fenced_items("passage")
        checks = []
        for k in range(1, 100):
            statements = req.fenced_items(f"check {k} statement")
            if not statements:
                break
            allowed = re.search(rf"(?:核对 {k}：只依据段落 |Check {k}: judge the following \d+ statement\(s\) by "
                                rf"passage\(s\) )([\d、, ]+)", req.prompt).group(1)
            numbers = [int(x) for x in re.findall(r"\d+", allowed)]
            checks.append({"check": k, "verdicts": verdicts_for(statements, {j: passages[j - 1] for j in numbers})})
        return {"checks": checks}
    if name == "context_relevance":
        return {"contexts": [{"index": i, "reason": "about FHA" if "FHA" in c else "about something else",
                              "relevant": "FHA" in c} for i, c in enumerate(req.fenced_items("context"), 1)]}
    if name == "answer_relevancy":
        return questions_for(req.fenced("answer"), n_questions(req))
    if name == "entity_extraction":
        return {"items": entities_in(req.fenced("text"))}
    if name == "entity_extraction_batch":
        return {"texts": [{"index": i, "entities": entities_in(t)}
                          for i, t in enumerate(req.fenced_items("text"), 1)]}
    if name == "llm_judge":
        return judge(req.fenced("answer"), req.fenced("ground_truth"))
    if name == "judge_and_rubric":
        return {"judge": judge(req.fenced("answer"), req.fenced("ground_truth")), "rubric": RUBRIC}
    if name == "rubric_1_10":
        return RUBRIC
    if name == "rubric_1_10_pure_llm":
        return PURE_RUBRIC
    raise AssertionError(f"unrouted prompt {name}")
