"""Step 9 of the method: per-type and overall scores with their 80% intervals
(scoring), confidence, the peers' prior, the report and how long it is served
(report, refresh), and its Markdown and chart (render)."""
