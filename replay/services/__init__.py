"""The work behind every command.

The CLI parses arguments and prints; the demo and the benchmarks call the same
functions. Nothing here imports the CLI, and no command module does work of its
own beyond parsing and printing.

* :mod:`.logs`: a game's events from the archive, a JSON Lines file or a notation file;
* :mod:`.importing`: adding files to the archive;
* :mod:`.audit`: every problem of a game, located and explained;
* :mod:`.review`: seeking, showing and stepping through a game; comparing two logs;
* :mod:`.simulation`: games between bots, into the archive;
* :mod:`.packs`: the rules packs a game can be played under;
* :mod:`.impact`: what correcting a rules pack would change in the games played under it;
* :mod:`.regress`: whether this version of replay still brings the projected games to their recorded ends;
* :mod:`.overview`: what an archive holds.

Projection and SQL live in :mod:`replay.analytics`.
"""
