"""``python -m replay`` is the same as the ``replay`` command."""

from .cli.main import cli

cli(prog_name="replay")
