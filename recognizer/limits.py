"""The photo limits the app and the recognizer share.

Standard library only: the settings and the models read them (every management command imports
the models), and importing them loads no image or network library.
"""

# The largest photo read: decompression bombs are refused, and 50 megapixels is well above any
# phone camera. The app may accept less (DJANGO_PHOTO_MAX_MEGAPIXELS), never more.
MAX_PIXELS = 50_000_000

# Cards read less surely than this are shown flagged, for the player to check before a meld is
# checked or a hand scored.
SURE_CONFIDENCE = 0.95

# One thread a reader, so that one photo never takes every core (ONNX Runtime's sessions are
# made with one, model.py): NumPy's OpenBLAS otherwise starts a thread a core that spins while it
# waits, which cost a read 60% more CPU on two cores. The libraries read these when they load, so
# a process sets them before it imports the reader: the task workers for their readers
# (scorekeeper/management/commands/task_workers.py), the tests for themselves.
READER_THREADS = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "OPENCV_FOR_THREADS_NUM": "1",
}
