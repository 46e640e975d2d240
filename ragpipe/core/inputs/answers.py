"""The HTTP bots' answer cache: every answer received, by the bot's cache key, and the
answer rounds opened per bot version, config hash and dataset, in order (see
``ragpipe.core.inputs.bots``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from ragpipe.core.cache import Cache

if TYPE_CHECKING:
    from ragpipe.core.inputs.bot_config import BotConfig


class AnswerCache(Cache):
    """The HTTP bots' answers by cache key, and beside them (``rounds/``) the rounds opened
    per bot version, config hash and dataset, in order."""

    def __init__(self, directory: Path):
        super().__init__(directory)
        self._rounds = Cache(self.directory / "rounds")

    @staticmethod
    def _rounds_key(config: BotConfig, dataset: str) -> str:
        return json.dumps([config.key, config.config_hash, dataset])

    def rounds(self, config: BotConfig, dataset: str) -> list[str]:
        return self._rounds.get(self._rounds_key(config, dataset)) or []

    def round_for(self, config: BotConfig, dataset: str, run_round: str, reask: bool) -> tuple[str, str | None]:
        """The round a run answers in, and the round before it (None for the first): a
        re-ask answers in ``run_round`` (its root run id), anything else in the latest round."""
        key = self._rounds_key(config, dataset)
        with self._rounds.transact():  # two processes opening a round see each other's
            rounds = self._rounds.get(key) or []
            if (reask or not rounds) and run_round not in rounds:
                rounds.append(run_round)
                self._rounds.put(key, rounds)
        current = run_round if reask else rounds[-1]
        position = rounds.index(current)
        return current, rounds[position - 1] if position else None

    def close(self) -> None:
        super().close()
        self._rounds.close()
