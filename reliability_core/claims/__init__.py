"""Steps 4-6 of the method: the subject's statements word for word (extraction),
who said them and what kind of claim each is (attribution, comparisons), triage and
the seeded sample, and the resolution criteria frozen before any research
(criteria, numeric reading)."""
