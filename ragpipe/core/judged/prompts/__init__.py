"""The evaluation prompts, one module each: typed input and output models, a zh and an
en template, a version, and a hash to store beside every score they produce; beside each,
the typed examples its template shows and the reply the tests' fake judge gives.

Single prompts serve one operation each (``statement_decomposition``, ``llm_judge`` …);
the batched prompts (``answer_analysis``, ``statement_verification_batch``,
``entity_extraction_batch``, ``judge_and_rubric``; ``context_relevance`` judges all
contexts at once) serve a whole sample in a few calls with the same results.
``question_generation`` and ``multi_hop_question`` build question sets from the corpus."""

from ragpipe.core.judged.prompts.answer_analysis import ANSWER_ANALYSIS
from ragpipe.core.judged.prompts.answer_relevancy import ANSWER_RELEVANCY
from ragpipe.core.llm.prompt import LANGUAGES, Language, Prompt, fence, pick_language
from ragpipe.core.judged.prompts.context_relevance import CONTEXT_RELEVANCE
from ragpipe.core.judged.prompts.decompose import DECOMPOSE
from ragpipe.core.judged.prompts.entities import ENTITIES, ENTITIES_BATCH
from ragpipe.core.judged.prompts.judge import JUDGE_1_5
from ragpipe.core.judged.prompts.judge_and_rubric import JUDGE_AND_RUBRIC
from ragpipe.core.judged.prompts.question_generation import MULTI_HOP_QUESTION, QUESTION_GENERATION
from ragpipe.core.judged.prompts.rubric import RUBRIC_1_10, RUBRIC_1_10_PURE_LLM
from ragpipe.core.judged.prompts.verify import VERIFY, VERIFY_BATCH

PROMPTS: dict[str, Prompt] = {
    p.name: p
    for p in (DECOMPOSE, VERIFY, CONTEXT_RELEVANCE, ANSWER_RELEVANCY, ENTITIES, JUDGE_1_5,
              RUBRIC_1_10, RUBRIC_1_10_PURE_LLM,
              ANSWER_ANALYSIS, VERIFY_BATCH, ENTITIES_BATCH, JUDGE_AND_RUBRIC,
              QUESTION_GENERATION, MULTI_HOP_QUESTION)
}


def prompt_hash(name: str, language: Language) -> str:
    """The hash of prompt ``name`` in ``language``, to store with a score."""
    return PROMPTS[name].hash(language)


__all__ = ["ANSWER_ANALYSIS", "ANSWER_RELEVANCY", "CONTEXT_RELEVANCE", "DECOMPOSE", "ENTITIES", "ENTITIES_BATCH",
           "JUDGE_1_5", "JUDGE_AND_RUBRIC", "LANGUAGES", "MULTI_HOP_QUESTION", "PROMPTS", "QUESTION_GENERATION",
           "RUBRIC_1_10", "RUBRIC_1_10_PURE_LLM", "VERIFY", "VERIFY_BATCH", "Language", "Prompt", "fence",
           "pick_language", "prompt_hash"]
