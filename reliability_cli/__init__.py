"""The ``reliability`` command: the users' verbs over the core (subjects, gold
sets, steward rulings, re-scoring). Outside the domain core: the core is the
method, this is one way of calling it."""

from reliability_cli.main import main

__all__ = ["main"]
