"""ragpipe: evaluate RAG bots. ``ragpipe.evaluate`` scores one answer online."""


def evaluate(*args, **kwargs):
    """See ragpipe.api.evaluate (imported on first use to keep `import ragpipe` light)."""
    from ragpipe.api import evaluate as _evaluate

    return _evaluate(*args, **kwargs)
