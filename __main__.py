"""``python -m fechtbuch``: the same as the ``fechtbuch`` command."""

from fechtbuch.cli import main

main()
