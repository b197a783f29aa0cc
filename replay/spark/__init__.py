"""Apache Spark as a second engine for projection and SQL (optional: ``pip install 'boardgame-replay[spark]'``).

Nothing here is imported by the rest of the tool unless a user asks for ``--engine spark``, so an
install without pyspark and Java works as before. ``session`` starts Spark; the engines built on it
live beside it, one module per job.
"""
