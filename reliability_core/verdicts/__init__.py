"""Steps 7-8 of the method, in reading order: the research for dated evidence for and
against (evidence), what may be evidence (evidence_rules: own source, fetch outcome,
rejected classes, unverified quotes, repeats, forecasts), copies and "the same story counts
once" (duplicates), the reader's passages and the source classes (passages, sources),
steering detection (steering and its fast screen); then the usable evidence a verdict may
rest on (usable_evidence), what a judge may see (judge_input), the rules code applies to a
judge's proposal (verdict_rules), the reviewer (review), the judging step itself (judging)
and the display gates code decides (gates)."""
