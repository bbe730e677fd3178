"""What importing the recognizer costs, and what it may import.

Every management command imports the settings and the models: they read the photo limits from
``recognizer/limits.py``, which loads none of the recognizer's libraries. OpenCV, ONNX Runtime
and numpy load with the first photo read, not with the package. Each check runs in a fresh
interpreter, where nothing is loaded yet.
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

# slow: fresh interpreters.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PHOTO = Path(__file__).with_name("photos") / "phone_010.jpg"
HEAVY = ("numpy", "cv2", "onnxruntime", "PIL", "pillow_heif")


def modules_loaded_by(code: str, watched=HEAVY, **environment: str) -> set[str]:
    """Which of the ``watched`` modules a fresh interpreter has loaded after running ``code``."""
    report = f"import sys\nprint(' '.join(name for name in {watched!r} if name in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", f"{code}\n{report}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **environment},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_importing_the_package_loads_no_image_or_network_library():
    code = "from recognizer import SURE_CONFIDENCE, Detection, read_cards"
    assert modules_loaded_by(code) == set()


def test_the_app_models_load_no_image_or_network_library():
    code = "import django\ndjango.setup()\nimport scorekeeper.models"
    loaded = modules_loaded_by(code, DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    assert loaded & {"numpy", "cv2", "onnxruntime"} == set()


def test_the_app_settings_and_models_read_only_the_recognizers_limits():
    code = "import django\ndjango.setup()\nimport scorekeeper.models"
    cheap = {"__init__", "limits", "detections"}
    modules = (ROOT / "recognizer").glob("*.py")
    watched = tuple(f"recognizer.{path.stem}" for path in modules if path.stem not in cheap)
    loaded = modules_loaded_by(code, watched, DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    assert loaded == set()


def test_the_image_error_loads_the_decoder_but_not_the_networks():
    code = "from recognizer import UnreadableImage, load_image"
    assert modules_loaded_by(code) == {"numpy", "PIL", "pillow_heif"}


def test_the_first_photo_read_loads_the_networks():
    code = f"from recognizer import read_cards\nread_cards({str(PHOTO)!r})"
    assert modules_loaded_by(code) >= {"numpy", "cv2", "onnxruntime"}


def test_the_runtime_package_imports_no_tool():
    """Training, synthesis, evaluation and timing live in tools/; the app never needs them."""
    for module in [*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "recognizer").rglob("*.py")]:
        tree = ast.parse(module.read_text(), filename=str(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            assert not any(name.split(".")[0] == "tools" for name in names), module


def test_the_network_trainer_imports_without_rules():
    # train_cnn runs in torch's Python 3.11, where rules/ (Python 3.12 syntax) does not import:
    # it takes the class labels from the patches file. Here rules/ is made unimportable instead.
    code = "import sys\nsys.modules['rules'] = None\nimport tools.recognition.train_cnn"

    assert modules_loaded_by(code, watched=("recognizer.cards", "recognizer.model")) == set()
