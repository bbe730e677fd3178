"""models.json lists every model file the recognizer loads, with its hash and size."""

import hashlib
import json
import re
from pathlib import Path

import pytest

import recognizer

FOLDER = Path(recognizer.__file__).parent
MANIFEST = json.loads((FOLDER / "models.json").read_text())["files"]
MODEL_SUFFIXES = {".npz", ".onnx"}


def test_every_model_file_in_the_folder_is_listed():
    on_disk = {path.name for path in FOLDER.iterdir() if path.suffix in MODEL_SUFFIXES}
    assert on_disk == set(MANIFEST)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_the_model_file_matches_its_hash_and_size(name):
    content = (FOLDER / name).read_bytes()
    assert len(content) == MANIFEST[name]["bytes"]
    assert hashlib.sha256(content).hexdigest() == MANIFEST[name]["sha256"]


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_the_model_file_names_the_commit_and_command_that_trained_it(name):
    entry = MANIFEST[name]
    assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"])
    assert entry["command"].startswith("python -m ")


# Options whose $TMPDIR file a command writes rather than reads.
WRITES = {">", "--patches", "--output"}


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_every_scratch_file_a_command_reads_is_made_by_a_step_before_it(name):
    entry = MANIFEST[name]
    made: set[str] = set()
    for commit, command in [*entry["before"], [entry["commit"], entry["command"]]]:
        assert re.fullmatch(r"[0-9a-f]{40}", commit)
        words = command.split()
        for before, word in zip(["", *words], words, strict=False):
            if word.startswith("$TMPDIR/"):
                if before in WRITES:
                    made.add(word)
                else:
                    assert word in made, f"{name}: {word} is read before a step makes it"
        # No path of one machine: scratch files are $TMPDIR's, the crops $CROPS.
        assert not re.search(r"(^|[\s=])/", command), command
