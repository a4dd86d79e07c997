"""Review by risk: which unread sentences may hide a personal mention nobody marked, and what a QA sample of
the rest certifies.

Why a package of its own: the web app routes text with it and ``ner_eval`` measures it, and neither may
re-implement it.  It knows nothing of the database: the store hands it sentences, spans and what people read.
"""
from psan.tool.risk.bound import (
                                  allowed_misses,
                                  missed_share_bound,
                                  risk_strata,
                                  sample_calibration,
                                  sample_size,
                                  sequential_confidence,
                                  stratified_sample,
)
from psan.tool.risk.features import SentenceView, TextWords, sentence_features
from psan.tool.risk.model import RiskModel
from psan.tool.risk.routing import Routing, route
from psan.tool.risk.scores import ScoreMemo

__all__ = ["RiskModel", "Routing", "ScoreMemo", "SentenceView", "TextWords", "allowed_misses", "missed_share_bound",
           "risk_strata", "route", "sample_calibration", "sample_size", "sentence_features", "sequential_confidence",
           "stratified_sample"]
