"""The evaluation prompts, one module each: typed input and output models, a zh and an
en template, a version, and a hash to store beside every score they produce."""

from ragpipe.core.llm.prompts.answer_relevancy import ANSWER_RELEVANCY
from ragpipe.core.llm.prompts.base import LANGUAGES, Language, Prompt, fence, pick_language
from ragpipe.core.llm.prompts.context_relevance import CONTEXT_RELEVANCE
from ragpipe.core.llm.prompts.decompose import DECOMPOSE
from ragpipe.core.llm.prompts.entities import ENTITIES
from ragpipe.core.llm.prompts.judge import JUDGE_1_5
from ragpipe.core.llm.prompts.rubric import RUBRIC_1_10, RUBRIC_1_10_PURE_LLM
from ragpipe.core.llm.prompts.verify import VERIFY

PROMPTS: dict[str, Prompt] = {
    p.name: p
    for p in (DECOMPOSE, VERIFY, CONTEXT_RELEVANCE, ANSWER_RELEVANCY, ENTITIES, JUDGE_1_5,
              RUBRIC_1_10, RUBRIC_1_10_PURE_LLM)
}


def prompt_hash(name: str, language: Language) -> str:
    """The hash of prompt ``name`` in ``language``, to store with a score."""
    return PROMPTS[name].hash(language)


__all__ = ["ANSWER_RELEVANCY", "CONTEXT_RELEVANCE", "DECOMPOSE", "ENTITIES", "JUDGE_1_5", "LANGUAGES",
           "PROMPTS", "RUBRIC_1_10", "RUBRIC_1_10_PURE_LLM", "VERIFY", "Language", "Prompt", "fence",
           "pick_language", "prompt_hash"]
