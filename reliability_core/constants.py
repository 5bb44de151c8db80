"""Constants of the method.

Every number here is part of the method version (``reliability_core.version``
hashes this file). Each carries a comment naming where it comes from:
``[M]`` the reliability method (shared/method/000), ``[V]`` the verification
ladder (001), ``[R]`` the referee rulebook (002), ``[#n]`` issue n, which
fills in tables the method text leaves out.
"""

from __future__ import annotations

from typing import Final

METHOD_BASE_VERSION: Final = "0.1.0"  # [M] "Method version 0.1"

# --- Coverage -----------------------------------------------------------------
# [M] step 1 "When the evidence is thin, the rule is not to cover"; [#6] leaves the
# threshold open: identity hits on fewer distinct sites than this are thin.
COVERAGE_MIN_IDENTITY_SOURCES: Final = 2
COVERAGE_IDENTITY_MAX_RESULTS: Final = 10  # [#6] results asked per identity query

# --- Candidates and selection -------------------------------------------------
CANDIDATES_MIN: Final = 20  # [M] step 2: "20 to 40 documents"
CANDIDATES_MAX: Final = 40  # [M] step 2
CANDIDATE_REUSE_DAYS: Final = 90  # [M] step 2: "stored and reused for 90 days"
QUICK_REPORT_DOCUMENTS: Final = 8  # [M] step 3: "A quick report keeps 8 documents"
QUICK_REPORT_FORWARD_LOOKING: Final = 3  # [M] step 3: "3 of them forward-looking"
CANDIDATE_RESULTS_PER_QUERY: Final = 15  # [#6] results kept per candidate query (one query per kind of document)
CANDIDATE_OWN_SITE_RESULTS: Final = 20  # [#6] results kept from the subject's own sites ("its own writing")

# --- Extraction -----------------------------------------------------------------
# [#14] section 1 "extraction of a long page is chunked, or cut with the cut recorded on the
# record; never silently": a long page is read in at most this many overlapping chunks (cost
# and time stay bounded for a 3 MB page), which bounds how much of a page statements can come
# from. The chunk's size is the extract step's input limit (providers.assignment.STEP_LIMITS).
EXTRACTION_MAX_CHUNKS: Final = 5
EXTRACTION_CHUNK_OVERLAP_CHARS: Final = 2_000  # consecutive chunks overlap: a statement across a boundary is whole in one

# --- Sampling -----------------------------------------------------------------
SAMPLE_CAP_PER_TYPE: Final = 25  # [M] step 5: "Up to 25 per type are chosen"

# --- Web ------------------------------------------------------------------------
FETCH_TIMEOUT_SECONDS: Final = 10.0  # [V] T1: "10 s timeout"
FETCH_MAX_BYTES: Final = 3 * 1024 * 1024  # [V] T1: "3 MB cap"
FETCH_MAX_REDIRECTS: Final = 5  # [#3] "Re-check every redirect hop (at most 5)"
ROBOTS_MAX_CRAWL_DELAY_SECONDS: Final = 30.0  # [M] step 7: "more than 30 seconds ... is skipped"
ROBOTS_CACHE_SECONDS: Final = 24 * 3600  # [#3] cache robots per host with an expiry (RFC 9309 §2.4: 24 h)
ROBOTS_MAX_PARSE_BYTES: Final = 500 * 1024  # RFC 9309 §2.5: "The parsing limit MUST be at least 500 kibibytes"
EVIDENCE_QUOTE_MIN_CHARS: Final = 20  # [V] T1: "The 20–600 character quote"
EVIDENCE_QUOTE_MAX_CHARS: Final = 600  # [V] T1
USER_AGENT: Final = "reliability-bot/0.1 (+https://reliability.example/bot)"  # [#3] a project user agent

# --- Verdicts and scoring -------------------------------------------------------
VERDICT_VALUES: Final[dict[str, float]] = {  # [#8] fills the method's omitted table
    "true": 1.0,
    "mostly_true": 0.75,
    "mixed": 0.5,
    "mostly_false": 0.25,
    "false": 0.0,
}
PRIOR_ALPHA: Final = 2.0  # [M] "α = β = 2": prior mean 50 worth 4 claims
PRIOR_BETA: Final = 2.0  # [M]
PRIOR_STRENGTH: Final = PRIOR_ALPHA + PRIOR_BETA  # [#8] strength kept at 4 claims when the mean moves
PRIOR_SWITCH_MIN_SUBJECTS: Final = 20  # [M]/[#8] prior mean becomes the kind average from 20 scored subjects
INTERVAL_MASS: Final = 0.80  # [M] "80% interval"
INTERVAL_LOW_QUANTILE: Final = 0.10  # [#8] 10th percentile
INTERVAL_HIGH_QUANTILE: Final = 0.90  # [#8] 90th percentile
MIN_CLAIMS_FOR_SCORE: Final = 5  # [M] "With fewer than 5 checked claims of a type there is no number"
OVERALL_INTERVAL_DRAWS: Final = 20_000  # [#8] "at least 10,000 draws"
OVERALL_INTERVAL_SEED: Final = 20_261_013  # [M] "a fixed seed, so the same inputs always give the same interval"
BRIER_BASELINE: Final = 0.25  # [M] "0.25 is what always saying 50% would score"

# --- Confidence (fixed rule) [#8] ---------------------------------------------
CONFIDENCE_HIGH_MIN_CLAIMS: Final = 20
CONFIDENCE_HIGH_MIN_DOCUMENTS: Final = 5
CONFIDENCE_MEDIUM_MIN_CLAIMS: Final = 10
CONFIDENCE_MEDIUM_MIN_DOCUMENTS: Final = 3
CONFIDENCE_HIGH_MAX_INTERVAL_WIDTH: Final = 20.0  # points
CONFIDENCE_MEDIUM_MAX_INTERVAL_WIDTH: Final = 30.0  # points

# --- Reports --------------------------------------------------------------------
REPORT_SERVED_DAYS: Final = 90  # [M] step 9: "served for 90 days"

# --- Judging and display gates [R], [#7] ----------------------------------------
GATE_MIN_INDEPENDENT_PUBLISHERS: Final = 2  # [R] "at least 2 independent publishers back it"
GATE_MIN_PRIMARY_OR_MAJOR: Final = 1  # [R] "including at least one primary or major source"
GATE_MIN_JUDGE_A_CONFIDENCE: Final = 0.80  # [R] "the Ref is at least 80% sure"
NUMERIC_ABS_TOLERANCE: Final = 0.05  # [V] T2: "|Δ| ≤ 0.05"
NUMERIC_REL_TOLERANCE: Final = 0.001  # [V] T2: "or ≤ 0.1% relative"
# [#15] rule 2 "Numeric claims use the five levels": the margins of the default bands, as a
# share of the threshold by which the figure misses it: mostly true within 5%, mixed within
# 15%, mostly false within 35%, false beyond (the margins the criteria writer's template and
# the demo corpus's answer key use: "misses by no more than 5%" ...).
NUMERIC_BAND_MARGINS: Final = (0.05, 0.15, 0.35)
# [#15] rule 12 "Not yet: the official figure hasn't been published": how long after the judge
# date a deciding official figure may still be awaited (annual accounts and official statistics
# appear within about four months of the period's end); later, no figure is "too little evidence".
OFFICIAL_FIGURE_WAIT_DAYS: Final = 120
NEAR_DUPLICATE_JACCARD: Final = 0.8  # [#7] shingle similarity above which a page is a copy of another
SHINGLE_WORDS: Final = 5  # [#7] words per shingle for the copy and same-story checks
EVIDENCE_RESULTS_PER_QUERY: Final = 8  # [#7] search results read per research query (for and against alike)
EVIDENCE_MAX_PAGES_PER_CLAIM: Final = 16  # [#7] pages opened per claim, split evenly between for and against
# [#14] section 4: what the evidence reader is sent of a page (reliability_core/verdicts/passages.py).
# Looser than any reader (the offline reader needs 0.35 of the claim's specific terms), so
# the rule narrows what is read, never what counts as evidence.
PASSAGE_MIN_SHARED_TERMS: Final = 0.3  # share of the claim's key terms a sentence must hold
PASSAGE_WINDOW_SENTENCES: Final = 1  # neighbours kept either side of a matching sentence
PASSAGE_LEAD_SENTENCES: Final = 2  # the page's lead: its dateline and who it is about
PASSAGE_MAX_CHARS: Final = 4_000  # about 1k tokens: the relevant part of a news article

# --- Steward [V] ------------------------------------------------------------------
STEWARD_SAMPLE_RATE: Final = 0.10  # [V] "a random 10% of everything verified in the last seven days"
STEWARD_WINDOW_DAYS: Final = 7  # [V]

# --- Re-check cadence for not-yet-due claims [R], [#9] ------------------------------
RECHECK_DAILY_WITHIN_DAYS: Final = 7  # [R] "daily in the last week"
RECHECK_WEEKLY_WITHIN_DAYS: Final = 60  # [R] "weekly within two months, monthly before that"
EVIDENCE_PAGE_REUSE_DAYS: Final = 1  # [#19] a stored evidence page is reused for the shortest re-check interval [R] ("daily")

# --- Validation gates [#10] -----------------------------------------------------------
# Proposed from the anchors: [R] "Correct verdicts 100%", "Wrong verdicts shown 0",
# "Settled by the Ref without help 88.6%", "Calibration error 0.041"; [#10] kappa 0.6
# because the AVeriTeC annotators' own agreement was about 0.62.
GATE_MIN_ACCURACY_ON_SHOWN: Final = 0.95  # [#10] "on shown verdicts accuracy >= 95%"
GATE_MAX_WRONG_SHOWN: Final = 0  # [#10] "zero wrong verdicts shown on the gold set"
GATE_MIN_SETTLED_WITHOUT_HELP: Final = 0.85  # [#10] "settled without help >= 85%"
GATE_MAX_CALIBRATION_ERROR: Final = 0.05  # [#10] "calibration error <= 0.05"
GATE_MIN_KAPPA_WITH_HUMANS: Final = 0.6  # [#10] "kappa with humans >= 0.6"
CALIBRATION_BINS: Final = 10  # [#10] equal-width bins of judge confidence for the calibration error

# --- Steward [V] §04, [#10] -----------------------------------------------------------
# [#18] The 10% sample has no fixed seed: a public seed made it predictable. Each build
# draws one (steward.draw_sample_seed) and records it with the draw.

# --- Re-run stability [#10] ------------------------------------------------------------
STABILITY_RERUNS: Final = 3  # [#10] "re-runs research and judging for the same claims k times"; [M] reports 1 in 4 verdicts changing

# --- Code's readings of a model's proposal [#24] ----------------------------------------------
# [M] "Serving politicians and officials in post are out of scope": how many words may stand
# between the subject's name and an office for the office to be the subject's ("Jane Roe,
# Denmark's minister", "Minister for Finance Jane Roe"); an office further away is someone else's.
OFFICE_NAME_GAP_WORDS: Final = 5
# [M] "reports that only repeat the claim" are never evidence: a quote of reported speech that
# shares at least this share of the claim's content words repeats it (without naming the speaker).
REPEAT_SHARED_CONTENT_WORDS: Final = 0.5
