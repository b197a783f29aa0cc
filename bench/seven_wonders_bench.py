"""7 Wonders benchmark: replay with full validation (every payment, chain, stage and claim), and
simulation, per player count.

    python bench/seven_wonders_bench.py              # 200 games per player count
    python bench/seven_wonders_bench.py --games 30   # quick

The measurement is bench/game_bench.py's (what each row means is said there).
"""

from game_bench import main

if __name__ == "__main__":
    main("7wonders", (3, 4, 5, 6, 7), (("random",), ("science", "military", "civilian")))
