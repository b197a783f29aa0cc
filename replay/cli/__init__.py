"""The ``replay`` command line (click)."""
