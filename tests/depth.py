"""How deep the property tests search: `make test` searches at the developer's depth, the loop
a change waits for; CI (`TEST_DEPTH=ci`, set by .ci/run) searches every property deeper, on SQLite
and PostgreSQL. The same tests run at both depths; only the number of examples differs."""

import os

DEPTH = os.environ.get("TEST_DEPTH", "dev")
if DEPTH not in ("dev", "ci"):
    raise ValueError(f"TEST_DEPTH is dev or ci, not {DEPTH!r}")


def examples[T](dev: T, ci: T) -> T:
    """The number of examples at this depth, or of anything counted (a state machine's examples,
    steps and parts, as a tuple)."""
    return ci if DEPTH == "ci" else dev
