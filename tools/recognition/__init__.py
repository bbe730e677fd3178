"""Training, synthesis, evaluation and timing of the card photo recognizer.

Run from the repository root, e.g. ``python -m tools.recognition.evaluate ../shared/cardphotos``.
They import ``scorekeeper.recognition``; it never imports them. See
scorekeeper/recognition/README.md.
"""
