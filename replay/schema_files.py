"""The checked-in schema files (``schemas/``), generated from the models.

A test regenerates them and compares, so code and schemas cannot drift apart.
"""

from __future__ import annotations

from .registry import GameRegistry
from .schema import events_json_schema, json_text, kind_schema, schema_fingerprint, schema_text


def schema_files(games: GameRegistry) -> dict[str, str]:
    """File name -> content, for every installed game kind."""
    files: dict[str, str] = {}
    for kind in games.kinds():
        game = games.get(kind)
        arrow = kind_schema(game)
        files[f"{kind}.arrow.txt"] = f"# {kind} archive files; fingerprint {schema_fingerprint(arrow)}\n" + schema_text(arrow)
        files[f"{kind}.events.schema.json"] = json_text(events_json_schema(game))
    return files
