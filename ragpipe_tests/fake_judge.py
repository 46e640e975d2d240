"""A scripted stand-in for an LLM judge behind the loopback OpenAI-compatible server:
it recognises each ragpipe prompt and answers it deterministically from the fenced data."""

import re

from ragpipe_tests.openai_server import Recorded

KNOWN_ENTITIES = {"财政部": "organization", "中小企业": "industry", "上海市": "location",
                  "Ministry of Finance": "organization", "small businesses": "industry", "Ohio": "location"}


def prompt_of(req: Recorded) -> str:
    """Which prompt a request carries: from response_format, else from its data fences."""
    if req.schema_name:
        return req.schema_name
    if req.fenced("statement 1") is not None:
        return "statement_verification"
    if req.fenced("document 1") is not None:
        return "rubric_1_10"
    if req.fenced("ground_truth") is not None:
        return "llm_judge"
    if req.fenced("question") is not None and req.fenced("context") is not None:
        return "context_relevance"
    if req.fenced("question") is not None:
        return "rubric_1_10_pure_llm"
    if req.fenced("answer") is not None:
        return "answer_relevancy"
    return "entity_extraction" if "legal_clause" in req.prompt else "statement_decomposition"


def strip_end(text: str) -> str:
    return text.strip().rstrip("。.！!？?")


def fake_llm(req: Recorded):
    name = prompt_of(req)
    if name == "statement_decomposition":
        text = req.fenced("text")
        return {"statements": [s.strip() for s in re.split(r"(?<=[。！？])|(?<=[.!?])\s+", text) if s.strip()]}
    if name == "statement_verification":
        contexts, statements = req.fenced_items("context"), req.fenced_items("statement")
        verdicts = []
        for i, s in enumerate(statements, 1):
            source = next((j for j, c in enumerate(contexts, 1) if strip_end(s) in c), 0)
            verdicts.append({"index": i, "reason": f"passage {source}" if source else "not in any passage",
                             "verdict": int(source > 0), "source": source})
        return {"verdicts": verdicts}
    if name == "context_relevance":
        relevant = "FHA" in req.fenced("context")
        return {"reason": "about FHA" if relevant else "about something else", "relevant": relevant}
    if name == "answer_relevancy":
        answer = req.fenced("answer")
        n = int(re.search(r"(?:写出|Write) (\d+)", req.prompt).group(1))
        return {"questions": [f"Q{i}: {strip_end(answer)}?" for i in range(1, n + 1)],
                "noncommittal": int("不知道" in answer or "don't know" in answer)}
    if name == "entity_extraction":
        text = req.fenced("text")
        found = sorted((e for e in KNOWN_ENTITIES if e in text), key=text.index)
        return {"items": [{"name": e, "type": KNOWN_ENTITIES[e]} for e in found]}
    if name == "llm_judge":
        good = strip_end(req.fenced("ground_truth")) in req.fenced("answer")
        return {"reasoning": "matches the ground truth" if good else "contradicts it", "score": 5 if good else 2}
    if name == "rubric_1_10":
        return {"analysis": "no errors", "accuracy": 9, "completeness": 7, "clarity": 8,
                "reason": "accurate", "suggestion": "add the credit score"}
    if name == "rubric_1_10_pure_llm":
        return {"analysis": "unverifiable figures", "accuracy": 3, "completeness": 5, "clarity": 8,
                "reason": "fabricated", "suggestion": "cite sources"}
    raise AssertionError(f"unrouted prompt {name}")
