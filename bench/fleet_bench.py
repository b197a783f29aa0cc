"""Fleet benchmark: replay with full validation, and simulation, per player count.

    python bench/fleet_bench.py              # 200 games per player count
    python bench/fleet_bench.py --games 30   # quick

The measurement is bench/game_bench.py's (what each row means is said there).
"""

from game_bench import main

if __name__ == "__main__":
    main("fleet", (2, 3, 4), (("random",), ("greedy", "frugal")))
