"""Flip 7 benchmark: replay with full validation, and simulation, per player count.

    python bench/flip7_bench.py              # 200 games per player count
    python bench/flip7_bench.py --games 30   # quick

The measurement is bench/game_bench.py's (what each row means is said there).
"""

from game_bench import main

if __name__ == "__main__":
    main("flip7", (3, 4, 6, 8, 12, 18), (("random",), ("odds",), ("stay20", "odds", "random")))
