"""Rule systems, metric reporters and behaviours: the registry and the built-in systems.

Each built-in part is a sub-package (``skirmish``, ``snapfire``, ``h17``, ``fow``, ``too``)
that declares itself once, a ``BaseGame`` named ``BASE`` or a ``RuleModule`` named ``MODULE``
(and a ``Ruleset`` named ``RULESET`` for a scenario's ``ruleset``); ``registry`` finds them,
and any installed plug-in, by name.
"""

#: The environment variable naming plug-in modules every command imports (comma-separated);
#: here, where the command line's parser reads it without loading the registry.
PLUGINS_ENV = "SIM_PLUGINS"
