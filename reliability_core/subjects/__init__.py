"""Steps 1-3 of the method: who the subject is and whether it may be covered
(coverage), the subject registry, the candidate documents where the subject
speaks (candidates), and the rule-based choice among them (selection)."""
