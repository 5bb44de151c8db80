"""Every record the method stores, as immutable pydantic models."""

from reliability_core.models.base import (
    CLAIM_TYPES,
    SCORED_VERDICTS,
    Basis,
    ClaimType,
    Record,
    SourceClass,
    StampedRecord,
    TriageState,
    Verdict,
)
from reliability_core.models.claims import (
    Claim,
    CriteriaLevels,
    DroppedStatement,
    NumericCriteria,
    ResolutionCriteria,
    SampleMembership,
    Statement,
)
from reliability_core.models.documents import (
    CandidateDocument,
    DocumentSelection,
    PageSnapshot,
    SearchResult,
    SearchResultSet,
)
from reliability_core.models.gold import GoldEvidence, GoldItem
from reliability_core.models.reports import (
    BrierScore,
    ClaimCounts,
    OverallScore,
    Prior,
    Report,
    StewardRuling,
    SubjectResponse,
    TypeScore,
)
from reliability_core.models.subjects import CoverageDecision, IdentityEvidence, RegistryEntry
from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem, GateOutcome, JudgeVerdict

__all__ = [
    "CLAIM_TYPES",
    "SCORED_VERDICTS",
    "Basis",
    "BrierScore",
    "CandidateDocument",
    "Claim",
    "ClaimCounts",
    "ClaimType",
    "ClaimVerdict",
    "CoverageDecision",
    "CriteriaLevels",
    "DocumentSelection",
    "DroppedStatement",
    "EvidenceItem",
    "GateOutcome",
    "GoldEvidence",
    "GoldItem",
    "IdentityEvidence",
    "JudgeVerdict",
    "NumericCriteria",
    "OverallScore",
    "PageSnapshot",
    "Prior",
    "Record",
    "RegistryEntry",
    "Report",
    "ResolutionCriteria",
    "SampleMembership",
    "SearchResult",
    "SearchResultSet",
    "SourceClass",
    "StampedRecord",
    "Statement",
    "StewardRuling",
    "SubjectResponse",
    "TriageState",
    "TypeScore",
    "Verdict",
]
