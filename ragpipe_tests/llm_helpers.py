"""What the LLM-layer tests share: the material per language, the scripted judge on a
loopback server, a client with fast retries, and a sample for the evaluator."""

from __future__ import annotations

import pytest

from ragpipe.core.llm import LLMClient, LLMSettings
from ragpipe.core.schemas import EvalCase
from ragpipe.testing.fake_judge import fake_llm
from ragpipe.testing.openai_server import OpenAIServer

SECRET = "sk-test-7f3a9c1e5b2d4068"
# Material per language for the round trips.
MATERIAL = {
    "zh": {
        "question": "FHA 贷款的最低首付是多少？",
        "answer": "FHA 贷款允许最低 3.5% 的首付。联邦政府强制要求不得超过此比例。",
        "statements": ["FHA 贷款允许最低 3.5% 的首付", "联邦政府强制要求不得超过此比例"],
        "contexts": ["FHA 贷款允许最低 3.5% 的首付，信用分数至少 580。", "ARM 通常以较低利率开始。"],
        "ground_truth": "FHA 贷款允许最低 3.5% 的首付",
        "entity_text": "财政部发布了支持上海市中小企业的税收政策。",
        "entities": ["财政部", "上海市", "中小企业"],
        "refusal": "我不知道。",
    },
    "en": {
        "question": "What is the minimum down payment for an FHA loan?",
        "answer": "FHA loans allow a minimum down payment of 3.5%. The federal government forbids anything higher.",
        "statements": ["FHA loans allow a minimum down payment of 3.5%",
                       "The federal government forbids anything higher"],
        "contexts": ["FHA loans allow a minimum down payment of 3.5% with a credit score of at least 580.",
                     "ARMs usually start with a lower rate."],
        "ground_truth": "FHA loans allow a minimum down payment of 3.5%",
        "entity_text": "The Ministry of Finance announced tax relief for small businesses in Ohio.",
        "entities": ["Ministry of Finance", "small businesses", "Ohio"],
        "refusal": "I don't know.",
    },
}


@pytest.fixture
def server():
    with OpenAIServer(route=fake_llm) as s:
        yield s


FAST_RETRIES = {"backoff_base": 0.01, "backoff_max": 0.05}


def make_client(server: OpenAIServer, **settings) -> LLMClient:
    return LLMClient(LLMSettings(**{"base_url": server.base_url, "model": "judge-model", "api_key": SECRET,
                                    "timeout": 5, **FAST_RETRIES, **settings}))


@pytest.fixture
def client(server):
    with make_client(server) as c:
        yield c


def sequence(*replies):
    """A route that answers with these replies in turn (the last one repeats)."""
    replies = list(replies)

    def route(req):
        return replies.pop(0) if len(replies) > 1 else replies[0]
    return route


SAMPLE = EvalCase(question_id="s1", question=MATERIAL["zh"]["question"], answer=MATERIAL["zh"]["answer"],
                  ground_truth_answer=MATERIAL["zh"]["ground_truth"] + "。信用分数至少 580。",
                  retrieved_contexts=MATERIAL["zh"]["contexts"] + ["上海市财政部门的公告。"])
