"""``python -m fechtbuch``: the same as the ``fechtbuch`` command."""

from fechtbuch.engines import interrupts

interrupts.install()  # before the heavy imports, as the console script does

from fechtbuch.cli import main  # noqa: E402

main()
