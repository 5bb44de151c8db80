"""The offline stand-in: a deterministic model, a search index and a web over the
demo corpus, so the main job runs with no keys and no services.

Nothing here is a rule of the method. The stand-in model proposes what a model
would (``rules/`` holds its handlers, one module per step, named after the step),
and the same functions of the phases dispose of its proposals as of a live model's.
Every record made with it says ``offline-rules``.
"""
