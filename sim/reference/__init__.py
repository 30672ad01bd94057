"""The reference that cannot go stale: JSON Schemas of scenario and study files
(``sim schema``) and the generated parts of ``docs/scenario.md`` and ``docs/study.md``
(``sim schema --docs DIR``), made from the models and the rule systems' declarations."""
