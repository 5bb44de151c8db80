"""Steps 7-8 of the method: dated evidence for and against (evidence, passages,
sources, same-story duplicates), steering detection (steering and its fast screen),
the two blind judges and the rules code applies to their proposals (judging), and the
display gates code decides (gates)."""
