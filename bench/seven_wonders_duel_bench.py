"""7 Wonders Duel benchmark: replay with full validation (availability, every payment, the
military track, the tokens and every claim), and simulation, for its two players.

    python bench/seven_wonders_duel_bench.py              # 200 games
    python bench/seven_wonders_duel_bench.py --games 30   # quick

The measurement is bench/game_bench.py's (what each row means is said there).
"""

from game_bench import main

if __name__ == "__main__":
    main("7wonders-duel", (2,), (("random",), ("military", "science")))
