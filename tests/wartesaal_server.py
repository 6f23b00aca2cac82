"""Wartesaal server processes for the tests: ``python -m fechtbuch.wartesaal`` bound to
127.0.0.1 on a free port, started, stopped, or killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx

SECRET = "server-test-secret-0123456789"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, database: str, port: int | None = None, tick: float = 0.2) -> None:
        self.database = database
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
        env = dict(os.environ, WARTESAAL_SECRET=SECRET)
        command = [sys.executable, "-m", "fechtbuch.wartesaal", "--database", self.database]
        command += ["--port", str(self.port), "--tick", str(self.tick)]
        self.process = subprocess.Popen(command, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
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
