"""Rule systems, metric reporters and behaviours: the registry and the built-in systems.

Each built-in system is a sub-package (``snapfire``, ``h17``, ``fow``, ``too``) that
declares itself once as a ``RuleSystem`` named ``SYSTEM``; ``registry`` finds them, and
any installed plug-in, by name.
"""
