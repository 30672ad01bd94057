"""What a study shows its user.

- ``summary``: the table, the JSON contract, the CSV file and the one-sentence meaning;
- ``farming``: what ``sim analyse`` shows (text, JSON, CSV files, plots);
- ``html_report``: the self-contained HTML report (``sim study --report``).
"""
