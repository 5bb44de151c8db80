"""The record model of every warehouse table, which fixes the table's one schema
(``reliability_core.warehouse.schema``). It sits on top of the layers because the
records are defined in the phases that make them; the shells (the Dagster resources,
the CLI) give it to the ``Warehouse`` they write through, so a subject refused coverage
gets empty partitions with the same columns as everyone else's."""

from pydantic import BaseModel

from reliability_core.claims.extraction import DocumentRead
from reliability_core.models import (
    CandidateDocument,
    Claim,
    ClaimVerdict,
    CoverageDecision,
    DocumentSelection,
    DroppedStatement,
    EvidenceItem,
    Report,
    ResolutionCriteria,
    SampleMembership,
    SearchResultSet,
    Statement,
)
from reliability_core.providers.failures import ModelFailure
from reliability_core.scores.peers import PeerFigures
from reliability_core.stages import SnapshotRef
from reliability_core.stewardship.steward import StewardQueueItem
from reliability_core.subjects.candidates import CandidateListing
from reliability_core.validation.backtest import BacktestResult
from reliability_core.validation.stability import StabilityReport
from reliability_core.verdicts.evidence import EvidenceResult
from reliability_core.warehouse import tables

TABLE_MODELS: dict[str, type[BaseModel]] = {
    tables.COVERAGE: CoverageDecision,
    tables.IDENTITY_SEARCHES: SearchResultSet,
    tables.CANDIDATE_LISTINGS: CandidateListing,
    tables.CANDIDATES: CandidateDocument,
    tables.CANDIDATE_SEARCHES: SearchResultSet,
    tables.DOCUMENT_RANKING: DocumentSelection,
    tables.SNAPSHOT_INDEX: SnapshotRef,
    tables.DOCUMENT_SAMPLE: DocumentSelection,
    tables.DOCUMENT_READS: DocumentRead,
    tables.STATEMENTS: Statement,
    tables.DROPPED: DroppedStatement,
    tables.EXTRACTED_CLAIMS: Claim,
    tables.CLAIMS: Claim,
    tables.CLAIM_SAMPLE: SampleMembership,
    tables.CRITERIA: ResolutionCriteria,
    tables.CRITERIA_FAILURES: ModelFailure,
    tables.EVIDENCE: EvidenceItem,
    tables.EVIDENCE_SEARCHES: SearchResultSet,
    tables.EVIDENCE_RESULTS: EvidenceResult,
    tables.VERDICTS: ClaimVerdict,
    tables.SCORED_REPORTS: Report,
    tables.REPORTS: Report,
    tables.PEER_FIGURES: PeerFigures,
    tables.STEWARD_QUEUE: StewardQueueItem,
    tables.BACKTESTS: BacktestResult,
    tables.STABILITY: StabilityReport,
}
