"""The games. Each subpackage exports ``GAME``, an instance of its ``replay.contract.Game``, named in pyproject's entry points."""
