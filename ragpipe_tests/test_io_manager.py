"""The Parquet IO manager: its path scheme, and writes of one partition by several
processes at once (atomic: a reader sees one writer's whole frame, never a partial file)."""

import multiprocessing

import dagster as dg
import pandas as pd
from upath import UPath

from ragpipe.defs.io_manager import ParquetIOManager

WRITES = 40
ROWS = 20_000


def frame_of(writer: int) -> pd.DataFrame:
    return pd.DataFrame({"writer": [writer] * ROWS, "row": range(ROWS), "text": [f"w{writer}-{i}" for i in range(ROWS)]})


def write(base: str, writer: int, errors) -> None:
    manager, frame = ParquetIOManager(UPath(base)), frame_of(writer)
    for _ in range(WRITES):
        try:
            manager.handle_output(dg.build_output_context(asset_key=dg.AssetKey(["scores", "m"])), frame)
        except Exception as exc:  # noqa: BLE001 - every failure is counted, none may happen
            errors.put(f"writer {writer}: {type(exc).__name__}: {exc}")


def read(base: str, stop, errors, seen) -> None:
    manager, expected = ParquetIOManager(UPath(base)), {w: frame_of(w) for w in (1, 2)}
    while not stop.is_set():
        try:
            frame = manager.load_input(dg.build_input_context(asset_key=dg.AssetKey(["scores", "m"])))
        except FileNotFoundError:
            continue  # before the first write
        except Exception as exc:  # noqa: BLE001
            errors.put(f"reader: {type(exc).__name__}: {exc}")
            continue
        writer = int(frame["writer"].iloc[0])
        if writer not in expected or not frame.equals(expected[writer]):
            errors.put(f"reader: a frame that no writer wrote ({len(frame)} rows)")
        seen.put(writer)


def test_two_writers_and_a_reader_of_one_file(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    errors, seen, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
    reader = ctx.Process(target=read, args=(str(tmp_path), stop, errors, seen))
    writers = [ctx.Process(target=write, args=(str(tmp_path), w, errors)) for w in (1, 2)]
    reader.start()
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=300)
    stop.set()
    reader.join(timeout=60)
    failures = drain(errors)
    reads = drain(seen)
    assert [w.exitcode for w in writers] == [0, 0] and reader.exitcode == 0
    assert not failures, f"{len(failures)} failures, first: {failures[:3]}"
    assert reads, "the reader never saw a file"
    final = pd.read_parquet(tmp_path / "scores" / "m.parquet")
    assert final.equals(frame_of(int(final["writer"].iloc[0])))
    assert sorted(p.name for p in (tmp_path / "scores").iterdir()) == ["m.parquet"]  # no temporary file left


def drain(queue) -> list:
    items = []
    while not queue.empty():
        items.append(queue.get())
    return items


def test_stored_reads_a_partition_where_a_run_wrote_it(tmp_path):
    manager = ParquetIOManager(UPath(tmp_path))
    key = dg.MultiPartitionKey({"dataset": "product_en", "bot": "refbot@v1.5"})
    frame = pd.DataFrame({"question_id": ["q1"], "value": [0.5]})

    @dg.asset(partitions_def=dg.MultiPartitionsDefinition({"dataset": dg.StaticPartitionsDefinition(["product_en"]),
                                                           "bot": dg.StaticPartitionsDefinition(["refbot@v1.5"])}),
              key=["scores", "m"])
    def scores() -> pd.DataFrame:
        return frame

    assert dg.materialize([scores], partition_key=key, resources={"io_manager": manager}).success
    assert (tmp_path / "scores" / "m" / "refbot@v1.5" / "product_en.parquet").exists()
    assert manager.stored(["scores", "m"], key).equals(frame)
    assert manager.stored(["scores", "m"], "refbot@v1.5|product_en").equals(frame)
    assert manager.stored(["scores", "m"], dg.MultiPartitionKey({"dataset": "other", "bot": "refbot@v1.5"})) is None
