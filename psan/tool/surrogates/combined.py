"""The app's replacer: an admin's label replacement wins, else a project surrogate.

Why in psan.tool: it is pure (no SQL), so the project render (:mod:`psan.store.publish.output`) and the
single-document render from the stored key (:mod:`psan.store.publish.output_single`) share one class.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.surrogates.replacer import SurrogateReplacer

__all__ = ["CombinedReplacer"]


class CombinedReplacer:
    """``Replacer`` for the app: the admin's label replacement wins, else a project surrogate.

    Why both: an admin who typed a replacement for a label ("the client") wants exactly that
    string; everything else must still become a realistic, consistent surrogate instead of a
    tag.  ``None`` from the surrogate replacer (policy ``tag`` or nothing safe found) makes the
    output module write the category tag.  ``sources``/``entities`` record, per region, who
    produced the text and the consistency key, for the pseudonymization key.
    """

    def __init__(self, replacements: Mapping[int, str], surrogates: SurrogateReplacer) -> None:
        self.replacements = dict(replacements)
        self.surrogates = surrogates
        for text in set(self.replacements.values()):
            # a surrogate equal to an admin's replacement would merge two entities in the output
            surrogates.observe(text, [PrivateRegion(0, len(text))])
        self.sources: dict[tuple[int, int], str] = {}
        self.entities: dict[tuple[int, int], str] = {}

    def observe(self, text: str, regions: list[PrivateRegion]) -> None:
        """Forbid the document's originals as surrogates (see ``SurrogateReplacer.observe``)."""
        self.surrogates.observe(text, regions)

    def start_document(self, text: str | None = None, regions: Sequence[PrivateRegion] = ()) -> None:
        """Forget the per-region records of the previous document (offsets are per document); with the next
        document's text and regions, its own private years and letters are forbidden in its surrogates."""
        if text is not None:
            self.surrogates.enter_document(text, regions)
        self.sources = {}
        self.entities = {}
        self.surrogates.entities = {}
        self.surrogates.features = {}

    @property
    def features(self) -> dict[tuple[int, int], dict[str, str | None]]:
        """The UD features each surrogate of the current document was rendered with (for the key)."""
        return self.surrogates.features

    def preposition(self, text: str, region: PrivateRegion, replacement: str) -> tuple[int, str]:
        """The preposition before a region vocalized for its replacement (see ``SurrogateReplacer``)."""
        return self.surrogates.preposition(text, region, replacement)

    def replacement(self, region: PrivateRegion, original: str) -> str | None:
        where = (region.start, region.end)
        if region.label is not None and region.label in self.replacements:
            self.sources[where] = "label"
            self.entities[where] = f"label:{region.label}"
            return self.replacements[region.label]
        got = self.surrogates.replacement(region, original)
        self.sources[where] = "surrogate" if got is not None else "tag"
        self.entities[where] = self.surrogates.entities.get(where, "")
        return got
