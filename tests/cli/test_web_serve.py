"""`fechtbuch serve` on the command line: help with an example, one-line errors for
bad options and a bad store, and a real start on 127.0.0.1 that serves the page."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request

from support.clirun import assert_one_line_error, run
from support.webserver import interrupt


def test_help_teaches_with_an_example():
    result = run("serve", "--help")
    assert result.exit_code == 0
    assert "fechtbuch serve --open" in result.output and "--port" in result.output


def test_bad_port_is_one_line_naming_it():
    assert "port" in assert_one_line_error(run("serve", "--port", "70000")).lower()
    assert "port" in assert_one_line_error(run("serve", "--port", "8o")).lower()


def test_a_bad_store_is_one_line_naming_data(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    not_sqlite = tmp_path / "notes.sqlite3"
    not_sqlite.write_text("these are my notes, not a database\n" * 20)
    for bad in (tmp_path, plain / "web.sqlite3", not_sqlite):
        line = assert_one_line_error(run("serve", "--data", bad, "--port", "0"))
        assert "data" in line, line


def test_serve_starts_on_loopback_and_serves_the_page(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "fechtbuch", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"playing at (http://127\.0\.0\.1:\d+/)", line)
        assert match, line + process.stderr.read()
        with urllib.request.urlopen(match.group(1), timeout=10) as response:
            page = response.read().decode()
        assert "<title>Fechtbuch</title>" in page
        with urllib.request.urlopen(match.group(1) + "static/app.js", timeout=10) as response:
            assert b"FechtbuchGames" in response.read()
        assert (tmp_path / "fechtbuch" / "web.sqlite3").is_file()
    finally:
        interrupt(process)
