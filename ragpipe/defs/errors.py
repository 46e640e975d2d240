from contextlib import contextmanager

import dagster as dg

from ragpipe.core.schemas import InputError, InputErrors


@contextmanager
def input_failure():
    """Turn bad user input into a Dagster failure whose message names file, line and field."""
    try:
        yield
    except (InputError, InputErrors) as exc:
        problems = exc.problems if isinstance(exc, InputErrors) else [exc]
        raise dg.Failure(
            description=str(exc),
            metadata={"problems": dg.MetadataValue.json(
                [{"file": p.file, "line": p.line, "field": p.field, "problem": p.problem} for p in problems]
            )},
            allow_retries=False,
        ) from exc
