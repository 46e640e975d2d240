"""A prompt's few-shot and calibration examples as typed values of its own models, and how a
template shows them (rendered into its ``${examples}`` before hashing)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from string import Formatter
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

I = TypeVar("I", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)


@dataclass(frozen=True)
class Example(Generic[I, O]):
    """A few-shot or calibration example: the material shown (``input``; None where the
    template shows only the output's shape), the output the model should give, and a
    heading (``note``, e.g. "fluent but fabricated, 2"). Both are the prompt's own typed
    models, so an example that no longer fits them fails when the prompt is built."""

    output: O
    input: I | None = None
    note: str = ""


def example_json(output: BaseModel) -> str:
    """An example output as the template shows it: JSON, a whole-number float as an integer."""
    def shown(value: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, dict):
            return {k: shown(v) for k, v in value.items()}
        return [shown(v) for v in value] if isinstance(value, list) else value
    return json.dumps(shown(output.model_dump(mode="json")), ensure_ascii=False)


@dataclass(frozen=True)
class ExampleLayout:
    """How a template shows its examples in one language: a heading, a line per example
    (``{k}``, ``{note}``; none when empty), its input as ``lines`` (format strings over the
    input's fields; a list field shows as "[1] … [2] …"), and its output (``{output}``). From
    the second example on, the lines but the last become ``same`` (if given) when their
    fields equal the first example's."""

    head: str
    example: str
    lines: tuple[str, ...]
    output: str
    same: str = ""

    def show(self, examples: tuple[Example, ...]) -> str:
        def fields(example: Example) -> dict[str, str]:
            return {name: " ".join(f"[{i}] {v}" for i, v in enumerate(value, 1)) if isinstance(value, list) else
                    str(value) for name, value in example.input.model_dump().items()}

        shared = [name for line in self.lines[:-1] for _, name, _, _ in Formatter().parse(line) if name]
        first = fields(examples[0])
        shown = [self.head]
        for k, example in enumerate(examples, 1):
            values = fields(example)
            same = bool(self.same) and k > 1 and all(values[name] == first[name] for name in shared)
            material = [self.same, self.lines[-1]] if same else list(self.lines)
            heading = [self.example.format(k=k, note=example.note)] if self.example else []
            shown += [*heading, *(line.format(**values) for line in material),
                      self.output.format(output=example_json(example.output))]
        return "\n".join(shown)


def show_outputs(examples: tuple[Example, ...], language: str) -> str:
    """The examples' outputs alone, one per line: for a template that shows only the shape of its output."""
    return "\n".join(example_json(example.output) for example in examples)


def show_examples(layouts: Mapping[str, ExampleLayout]) -> Callable[[tuple[Example, ...], str], str]:
    """A prompt's ``show_examples`` from its layout per language."""
    return lambda examples, language: layouts[language].show(examples)
