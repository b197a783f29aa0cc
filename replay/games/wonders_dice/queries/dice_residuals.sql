-- question: Which faces come up more or less often than fair dice would make them? Per colour and face: the rolls, the count a fair die gives, and the Pearson residual (observed - expected) / sqrt(expected), about -2..2 for fair dice (for `replay plot dice`; squared and summed per colour, the chi-square of dice_fairness).
-- columns: colour, face, observed, expected, residual
WITH faces AS (
    SELECT colour, face, count(*) AS n FROM wonders_dice.dice GROUP BY ALL
), totals AS (
    SELECT colour, sum(n) AS total FROM faces GROUP BY colour
)
SELECT s.colour, s.face,
       coalesce(f.n, 0) AS observed,
       round(t.total * s.sides / 6.0, 3) AS expected,
       round((coalesce(f.n, 0) - t.total * s.sides / 6.0) / sqrt(t.total * s.sides / 6.0), 4) AS residual
FROM wonders_dice.dice_faces s
JOIN totals t ON t.colour = s.colour
LEFT JOIN faces f ON f.colour = s.colour AND f.face = s.face
ORDER BY s.colour, s.face;
