"""How the Wartesaal's own commands end: every error is one line, ``<name>: <what>``
naming the field, with exit status 2 for bad input (click's usage errors and
``InputError``), as everywhere in fechtbuch."""

from __future__ import annotations

import sys

import click
from fechtbuch.engines.errors import InputError


def run_command(command: click.Command, name: str) -> None:
    try:
        result = command.main(prog_name=name, standalone_mode=False)
    except click.exceptions.Exit as stop:
        sys.exit(stop.exit_code)
    except click.UsageError as err:
        click.echo(f"{name}: {err.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as err:
        click.echo(f"{name}: {err.format_message()}", err=True)
        sys.exit(err.exit_code)
    except InputError as err:
        click.echo(f"{name}: {err}", err=True)
        sys.exit(2)
    except (KeyboardInterrupt, click.Abort):
        click.echo(f"{name}: interrupted", err=True)
        sys.exit(130)
    sys.exit(result if isinstance(result, int) else 0)
