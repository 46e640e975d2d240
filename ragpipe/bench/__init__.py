"""Benchmarks of ragpipe itself (`ragpipe bench …`): agreement with human labels, latency,
throughput, LLM calls, bot faults. A layer of its own on top of the package: it uses the
public modules and ragpipe.testing's loopback servers; nothing in ragpipe imports it
except the `ragpipe bench` dispatcher. The labelled files live beside a checkout
(../shared/benchmarks/, or --bench-dir)."""


def loadavg_text(figures) -> str:
    """The load averages a figure was measured under, as the benchmarks print them."""
    return "load " + "/".join(f"{x:.1f}" for x in figures)
