"""Loopback stand-ins for what ragpipe talks to: an OpenAI-compatible judge server, a
scripted judge that answers ragpipe's prompts, and a RAG bot over HTTP that injects
faults. The tests and the benchmarks both use them; nothing in ragpipe.core or
ragpipe.defs imports them. And ``assert_scores``, a release gate for a team's own unit tests."""

from ragpipe.testing.scores import assert_scores

__all__ = ["assert_scores"]
