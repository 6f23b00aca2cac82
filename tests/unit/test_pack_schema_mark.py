"""A pack that passed its schema is not checked again: the mark of its bytes and schema.

The schema of a pack with deep solution trees takes seconds (the duel's shipped pack
about 4 CPU-s), and every command that opens a pack checks it, so ``load_pack`` leaves
a mark named by the SHA-256 of the schema and of the pack's bytes.  The marks live in
the cache folder of this source tree, so any edit of the code starts afresh.
"""

from __future__ import annotations

import orjson
import pytest
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles import pack as pack_module
from fechtbuch.puzzles.pack import PackError, load_pack, schema_problems


@pytest.fixture
def counted(monkeypatch, tmp_path):
    """This test's own cache folder, and how often a schema walks a pack."""
    monkeypatch.setenv("FECHTBUCH_CACHE_DIR", str(tmp_path / "cache"))
    walks = []
    walk = pack_module.StrictValidator.iter_errors

    def counting(self, instance, *args, **kwargs):
        walks.append(instance)
        return walk(self, instance, *args, **kwargs)

    monkeypatch.setattr(pack_module.StrictValidator, "iter_errors", counting)
    return walks


def _copy(tmp_path, pack: dict, name: str = "p.json"):
    path = tmp_path / name
    path.write_bytes(dump_json(pack))
    return path


PYRAMIDS = orjson.loads(data_path("packs", "pyramiden-uebungen.json").read_bytes())


def test_the_second_load_of_the_same_bytes_skips_the_schema(tmp_path, counted):
    path = _copy(tmp_path, PYRAMIDS)
    assert load_pack(path) == PYRAMIDS
    assert len(counted) == 1
    assert list((tmp_path / "cache" / "valid-packs").iterdir())
    assert load_pack(path) == PYRAMIDS
    assert len(counted) == 1  # the mark stood for the walk


def test_one_changed_value_is_checked_and_refused(tmp_path, counted):
    load_pack(_copy(tmp_path, PYRAMIDS))
    broken = orjson.loads(orjson.dumps(PYRAMIDS))
    broken["puzzles"][0]["difficulty"] = "hard"
    with pytest.raises(PackError, match=r"schema: puzzles/0/difficulty"):
        load_pack(_copy(tmp_path, broken, "broken.json"))
    assert len(counted) == 2
    assert len(list((tmp_path / "cache" / "valid-packs").iterdir())) == 1  # no mark for it


def test_a_pack_in_memory_is_always_checked(tmp_path, counted):
    """A pack built in memory may hold what JSON cannot tell apart (a tuple for a list):
    only a parsed pack counts a mark."""
    load_pack(_copy(tmp_path, PYRAMIDS))
    assert schema_problems(PYRAMIDS) == []
    assert len(counted) == 2
    as_tuple = dict(PYRAMIDS, puzzles=tuple(PYRAMIDS["puzzles"]))
    assert schema_problems(as_tuple) != []  # a tuple is no JSON array to the schema
    assert len(counted) == 3
