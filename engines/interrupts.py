"""Ctrl-C that always works: one SIGINT handler for the whole command line.

Python's default handler raises :class:`KeyboardInterrupt` wherever the main
thread happens to be.  Three places make that go wrong, and this handler
avoids each:

* **Start-up** (importing numba, llvmlite, OR-Tools): an exception there is a
  traceback, or an ``ImportError: initialization failed`` of a C extension.
  Until :func:`started` is called the handler prints the one error line and
  leaves at once with status 130: nothing has been written yet, so there is
  nothing to clean up.
* **Finalisers** (llvmlite's ``__del__`` runs whenever the garbage collector
  likes): Python prints ``Exception ignored in ...`` and *swallows* the
  interrupt, so the run goes on.  The handler notices a finaliser on the stack
  and asks again 20 ms later (SIGALRM), when the finaliser is done.
* **C code that turns exceptions into its own** (an extension's import): the
  CLI asks :func:`received` and reports any error after Ctrl-C as
  "interrupted".

Compiled loops never see a signal; the code that calls them keeps each call
short (perft in subtrees, the verifier per puzzle), so the interrupt is raised
between two calls.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

EXIT_INTERRUPTED = 130
RETRY_SECONDS = 0.02
MESSAGE = b"fechtbuch: error: interrupted\n"

_state = {"received": False, "started": False}


def install() -> None:
    """Take over SIGINT (idempotent; only from the main thread of the main program)."""
    try:
        signal.signal(signal.SIGINT, _on_interrupt)
        signal.signal(signal.SIGALRM, _on_retry)
    except ValueError:  # not the main thread (an embedding program): keep its handlers
        pass


def started() -> None:
    """Start-up is over: from now on Ctrl-C raises KeyboardInterrupt, so commands
    can clean up (save the mining pool, stop workers) before they stop."""
    _state["started"] = True


def received() -> bool:
    """True once Ctrl-C was pressed in this process."""
    return _state["received"]


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    _state["received"] = True
    _deliver(frame)


def _on_retry(signum: int, frame: FrameType | None) -> None:
    if _state["received"]:
        _deliver(frame)


def _deliver(frame: FrameType | None) -> None:
    if not _state["started"]:
        _leave_now()
    if _in_finaliser(frame):
        signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
        return
    raise KeyboardInterrupt


def _leave_now() -> None:
    """The one line and exit 130, without unwinding (there is nothing to save yet)."""
    try:
        sys.stdout.flush()
    except Exception:  # noqa: BLE001 - a closed or broken stdout must not stop the exit
        pass
    try:
        os.write(2, MESSAGE)
    finally:
        os._exit(EXIT_INTERRUPTED)


def _in_finaliser(frame: FrameType | None) -> bool:
    """A ``__del__`` (or weakref finaliser) on the stack: an exception there is lost."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or (
            code.co_name == "__call__" and code.co_filename.endswith("weakref.py")
        ):
            return True
        frame = frame.f_back
    return False
