"""What a study shows its user.

- ``summary``: the table and the JSON contract; ``replications_csv``: the CSV file of
  every replication, written in parts;
- ``headline``: what the study measured, in measured words (after ``mechanisms``: the rule
  counts and whether a comparison sets a rule that barely acts against one that acts often);
- ``farming``: what ``sim analyse`` shows (text, JSON, CSV files, plots);
- ``selection``: what ``sim select`` shows (text, JSON, the guarantee in words);
- ``html_report``: the self-contained HTML report (``sim study --report``).
"""
