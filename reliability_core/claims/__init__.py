"""Steps 4-6 of the method: the subject's statements word for word (extraction),
who said them, what kind of claim each is, its restatement and any stated probability
(classification, speaker, claim_type, restatement, stated_probability, comparisons), triage and
the seeded sample, and the resolution criteria frozen before any research
(criteria, numeric reading)."""
