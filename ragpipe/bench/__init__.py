"""Benchmarks of ragpipe itself (`ragpipe bench …`): agreement with human labels, latency,
throughput, LLM calls, bot faults. A layer of its own on top of the package: it uses the
public modules and ragpipe.testing's loopback servers; nothing in ragpipe imports it
except the `ragpipe bench` dispatcher. The labelled files live beside a checkout
(../shared/benchmarks/, or --bench-dir)."""
