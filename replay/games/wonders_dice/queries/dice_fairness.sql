-- question: Are the dice fair? Face counts per colour against the die's faces, and Forum sections against uniform, with a chi-square statistic (above critical_5pct: unlikely at the 5% level).
-- columns: test, colour, rolls, categories, chi_square, dof, critical_5pct
WITH faces AS (
    SELECT colour, face, count(*) AS n FROM wonders_dice.dice GROUP BY ALL
), face_test AS (
    SELECT 'faces' AS test, f.colour, sum(f.n) AS rolls, count(*) AS categories,
           sum(power(f.n - t.total * s.sides / 6.0, 2) / (t.total * s.sides / 6.0)) AS chi_square
    FROM faces f
    JOIN wonders_dice.dice_faces s ON s.colour = f.colour AND s.face = f.face
    JOIN (SELECT colour, sum(n) AS total FROM faces GROUP BY colour) t ON t.colour = f.colour
    GROUP BY f.colour
), sections AS (
    SELECT section, count(*) AS n FROM wonders_dice.dice GROUP BY ALL
), section_test AS (
    SELECT 'sections' AS test, 'all' AS colour, sum(n) AS rolls, count(*) AS categories,
           sum(power(n - (SELECT sum(n) FROM sections) / 4.0, 2) / ((SELECT sum(n) FROM sections) / 4.0)) AS chi_square
    FROM sections
)
SELECT test, colour, rolls, categories, round(chi_square, 3) AS chi_square, categories - 1 AS dof,
       CASE categories - 1 WHEN 1 THEN 3.841 WHEN 2 THEN 5.991 WHEN 3 THEN 7.815 WHEN 4 THEN 9.488
                           WHEN 5 THEN 11.070 END AS critical_5pct
FROM (SELECT * FROM face_test UNION ALL SELECT * FROM section_test)
ORDER BY test, colour;
