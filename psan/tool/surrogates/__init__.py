"""Form-keeping pseudonyms: per-category surrogates, one consistent key, exact reversal.

Public API::

    from psan.tool.surrogates import SurrogateReplacer, pseudonymize_document, PseudonymKey, de_pseudonymize
    out, entries = pseudonymize_document(text, regions, "cs", seed=42)
    assert de_pseudonymize(out.text, entries) == text

See :mod:`.policy` for the per-category policy (JSON dict, presets ``default``/``swell``).
"""
from psan.tool.release.key import PseudonymKey, de_pseudonymize
from psan.tool.surrogates.policy import DEFAULT_POLICY, SWELL_POLICY, make_policy
from psan.tool.surrogates.replacer import SurrogateReplacer, pseudonymize_document

__all__ = ["SurrogateReplacer", "pseudonymize_document", "PseudonymKey", "de_pseudonymize", "make_policy",
           "DEFAULT_POLICY", "SWELL_POLICY"]
