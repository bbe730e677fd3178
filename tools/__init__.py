"""Developer tools, run from the repository root (``python -m tools...``); the app imports none."""
