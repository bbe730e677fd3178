"""Training, synthesis, evaluation and timing of the card photo recognizer.

Run from the repository root, e.g. ``python -m tools.recognition.evaluate PHOTOS`` with PHOTOS a
folder of labelled card photos. They import ``recognizer``; it never imports them. See
recognizer/README.md.
"""
