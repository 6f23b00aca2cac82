"""Ctrl-C that always works: one SIGINT handler for the whole command line.

Python's default handler raises :class:`KeyboardInterrupt` wherever the main
thread happens to be.  Three places make that go wrong, and this handler
avoids each:

* **Start-up** (importing numba, llvmlite, OR-Tools): an exception there is a
  traceback, or an ``ImportError: initialization failed`` of a C extension.
  Until :func:`started` is called the handler prints the one error line and
  leaves at once with status 130: nothing has been written yet, so there is
  nothing to clean up.
* **Callbacks whose exceptions Python cannot raise** (llvmlite's ``__del__``,
  numba's object-cache callbacks called from LLVM, logging's after-fork hook):
  Python prints ``Exception ignored in ...`` and *swallows* the interrupt, so the
  run goes on.  Such a KeyboardInterrupt is dropped silently (:data:`sys.unraisablehook`),
  and after raising, the handler checks back 250 ms later: if no handler has called
  :func:`acknowledge` by then, the interrupt was swallowed and is raised again.
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
CHECK_BACK_SECONDS = 0.25
MESSAGE = b"fechtbuch: error: interrupted\n"

_state = {"received": False, "started": False, "acknowledged": False, "fork_hook": False}


def install() -> None:
    """Take over SIGINT (idempotent; only from the main thread of the main program).

    Forked children (mining and match workers) ignore SIGINT from their first
    instruction: the parent stops them, and a child interrupted between fork and
    its own set-up would print a traceback of its own."""
    try:
        signal.signal(signal.SIGINT, _on_interrupt)
        signal.signal(signal.SIGALRM, _on_retry)
    except ValueError:  # not the main thread (an embedding program): keep its handlers
        return
    if sys.unraisablehook is not _unraisable:
        _state["previous_hook"] = sys.unraisablehook
        sys.unraisablehook = _unraisable
    if not _state["fork_hook"] and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_child_ignores_interrupts)
        _state["fork_hook"] = True


def _unraisable(info) -> None:
    """A Ctrl-C that Python had to drop is raised again by the check-back; say nothing."""
    if info.exc_type is KeyboardInterrupt and _state["received"]:
        return
    _state.get("previous_hook", sys.__unraisablehook__)(info)


def _child_ignores_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.setitimer(signal.ITIMER_REAL, 0)


def acknowledge() -> None:
    """A handler has caught the KeyboardInterrupt: stop checking back."""
    _state["acknowledged"] = True
    signal.setitimer(signal.ITIMER_REAL, 0)


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
    if _state["received"] and not _state["acknowledged"]:
        _deliver(frame)


def _deliver(frame: FrameType | None) -> None:
    if not _state["started"]:
        _leave_now()
    _state["acknowledged"] = False
    signal.setitimer(signal.ITIMER_REAL, CHECK_BACK_SECONDS)
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
