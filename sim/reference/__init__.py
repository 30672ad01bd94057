"""The reference that cannot go stale: JSON Schemas of scenario and study files
(``sim schema``) and the generated parts of ``docs/scenario.md``, ``docs/study.md``,
``docs/extending.md`` and the site's ``docs/reference/`` pages (the command line, the event
log's names, the rule catalogue), rewritten by ``sim schema --docs DIR``, made from the
models, the parser and the rule systems' declarations."""
