"""Benchmarks of ragpipe itself: agreement with human labels, latency, LLM calls."""
