"""How deep the property tests search: `make test` searches at the developer's depth, the loop
a change waits for; CI (`TEST_DEPTH=ci`, set by .ci/run) searches every property deeper, on SQLite
and PostgreSQL. The same tests run at both depths; only the number of examples differs."""

import os

DEPTH = os.environ.get("TEST_DEPTH", "dev")
if DEPTH not in ("dev", "ci"):
    raise ValueError(f"TEST_DEPTH is dev or ci, not {DEPTH!r}")


def examples(dev: int, ci: int) -> int:
    """The number of examples (or of anything counted) at this depth."""
    return ci if DEPTH == "ci" else dev
