"""Warehouse table names, one per asset output (a Parquet file per subject in each).
Shared by the orchestration, which writes them, and the API, which reads them."""

COVERAGE = "coverage"
IDENTITY_SEARCHES = "identity_search_results"
CANDIDATES = "candidates"
CANDIDATE_SEARCHES = "candidate_search_results"
DOCUMENT_RANKING = "document_ranking"
SNAPSHOT_INDEX = "page_snapshots"
SNAPSHOT_LEDGER = "snapshots"  # ledger table: append-only page snapshots
PRIVATE_SENTENCES_LEDGER = "private_sentences"  # ledger table: fingerprints of private sentences (no text)
DOCUMENT_SAMPLE = "document_sample"
DOCUMENT_READS = "document_reads"  # how each checked document was read: chunks, a cut, a model failure
STATEMENTS = "statements"
DROPPED = "dropped_statements"
EXTRACTED_CLAIMS = "extracted_claims"  # claims as extracted, before re-triage as due
CLAIMS = "claims"
CLAIM_SAMPLE = "claim_sample"
CRITERIA_LEDGER = "criteria"  # ledger table: frozen resolution criteria
CRITERIA = "resolution_criteria"
CRITERIA_FAILURES = "criteria_failures"  # claims whose criteria the model failed to write
EVIDENCE = "evidence"
EVIDENCE_SEARCHES = "evidence_search_results"
EVIDENCE_RESULTS = "evidence_results"  # each claim's research outcome: notes, skips, a model failure
VERDICTS = "verdicts"
SCORED_REPORTS = "scored_reports"  # the scored report before publication (subject_scores)
REPORTS = "reports"
RESPONSES_LEDGER = "responses"  # ledger table: subject responses (append-only)
RULINGS_LEDGER = "steward_rulings"  # ledger table: steward rulings (append-only)
REFRESH_REQUESTS_LEDGER = "refresh_requests"
BACKTESTS = "backtest_results"
STABILITY = "rerun_stability"
STEWARD_QUEUE = "steward_queue"
CANDIDATE_LISTINGS = "candidate_listings"
PEER_FIGURES = "peer_figures"  # each published report's figures for its peers' prior
PEER_SNAPSHOTS_LEDGER = "peer_snapshots"  # ledger table: the peer snapshot of each day, frozen
