"""The live rehearsal: local servers on loopback that speak the vendors' wire
formats and enforce their documented rules, answering from a scripted model.

Nothing here is a model. ``scripted_model`` writes, for every model step, the
output a real model writes (its competence comes from the offline rules, which
read only the request) and then makes the mistakes real models make at seeded
rates; ``servers`` wraps those answers in each vendor's wire format and fails
requests the way the vendors do. Every record made with it says
``rehearsal`` in its method version.
"""

from reliability_rehearsal.scripted_model import MistakeRates, ScriptedAnswer, ScriptedModel
from reliability_rehearsal.servers import FaultRates, RehearsalServers, VendorLog

__all__ = [
    "FaultRates",
    "MistakeRates",
    "RehearsalServers",
    "ScriptedAnswer",
    "ScriptedModel",
    "VendorLog",
]
