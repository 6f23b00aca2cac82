"""Wartesaal server processes for the tests: ``python -m fechtbuch.wartesaal`` bound to
127.0.0.1 on a port the OS picks, started, stopped, or killed with SIGKILL.

The command binds the port itself, so the port is looked up first (bind to port 0,
read it, release it); another test process may take it in between.  So the first
start of a server whose port was picked this way tries again on a new port when the
process exits during start-up (at most ``PORT_TRIES`` times); a restart keeps its port,
as clients come back to the same address."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx

SECRET = "server-test-secret-0123456789"
PORT_TRIES = 3


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerExited(RuntimeError):
    """The server process ended during start-up (on a taken port, say)."""


class Server:
    def __init__(self, database: str, port: int | None = None, tick: float = 0.2) -> None:
        self.database = database
        self.picked = port is None  # may move to another port on its first start
        self.port = port or free_port()
        self.tick = tick
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        retries = PORT_TRIES - 1 if self.picked else 0
        self.picked = False
        for _ in range(retries):
            try:
                return self._start()
            except ServerExited:
                self.port = free_port()
        return self._start()

    def _start(self) -> Server:
        env = dict(os.environ, WARTESAAL_SECRET=SECRET)
        command = [sys.executable, "-m", "fechtbuch.wartesaal", "--database", self.database]
        command += ["--port", str(self.port), "--tick", str(self.tick)]
        self.process = subprocess.Popen(command, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerExited(f"the server exited with {self.process.returncode}")
            try:
                if httpx.get(self.http + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not answer within 60 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None
