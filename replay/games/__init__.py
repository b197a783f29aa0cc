"""Game plug-ins. Each subpackage exports a ``PLUGIN`` named in pyproject's entry points."""
