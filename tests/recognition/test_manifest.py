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
