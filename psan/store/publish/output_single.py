"""One document's pseudonymized output rendered from the stored pseudonym key alone.

Why: without a stored key, a document's surrogates depend on every other document of the
project (who drew a name first, which originals must be avoided), so one 10k-token document of
a 10^6-token project cost a render of the whole project.  Once the project's identities are in
``pseudonym_key`` (:mod:`psan.store.publish.pseudonym_key`, written by every full render), a document
whose entities all have identities renders from them and its own regions only, with the same
text as in the project pass.  When the document needs anything the key does not hold (a new
entity, a new form of a value), :func:`render_alone` returns ``None`` and the caller renders the
project, which stores the missing identities for the next time.

Limit: the originals of the *other* documents are not loaded, so a stored surrogate that later
became equal to an original of a newer document is not caught here (the project pass tags it).
"""
from __future__ import annotations

from typing import Any

from psan.runtime import db

__all__ = ["render_alone"]


def render_alone(conn, document_id: int, ctx: Any) -> Any:
    """A :class:`psan.store.publish.output.PseudonymizedDocument` from the stored key, or ``None`` (see module)."""
    from psan.store.annotation.entities import manual_keys
    from psan.store.corpus.documents import load_document
    from psan.store.publish import pseudonym_key
    from psan.store.publish import regions as store_regions
    from psan.tool.release import output as tool_output
    from psan.tool.surrogates.combined import CombinedReplacer
    from psan.tool.surrogates.identity import document_entities

    row = db.query_one("SELECT id, name FROM document WHERE id = %s", (document_id,), conn)
    doc = load_document(conn, document_id)
    if row is None or doc is None:
        return None
    regions = store_regions.private_regions(conn, document_id, doc, ctx)
    manual = manual_keys(conn, document_id, doc)
    # only the identities this document can use: its entities' and the persons its partial names may be
    language = doc.language or ctx.language  # as in the project pass: linking and surrogates follow the document
    linked = document_entities(doc.text, regions, language, manual)
    names = set().union(*(p.lemmas for p in linked.partials.values()))
    surrogates = pseudonym_key.replacer_for(conn, ctx, keys=set(linked.entity_keys.values()), names=names)
    if not surrogates.stored:
        return None
    surrogates.language = language
    replacer = CombinedReplacer(ctx.replacements, surrogates)
    surrogates.observe(doc.text, regions, entity_keys=manual, linked=linked)  # linked above, same language
    replacer.start_document(doc.text, regions)
    out = tool_output.pseudonymize(doc.text, regions, replacer, language=doc.language)
    if surrogates.drawn:
        return None  # something was drawn: only the project pass draws (and stores) identities
    entries = []
    for e in out.standoff:
        where = (e["original_start"], e["original_end"])
        entries.append({"document": str(row["id"]), "document_id": row["id"], "document_name": row["name"], **e,
                        "label_name": ctx.label_names.get(e["label"]) if e["label"] is not None else None,
                        "entity": replacer.entities.get(where, ""), "source": replacer.sources.get(where, "tag")})
    return store_regions.PseudonymizedDocument(row["id"], row["name"], out.text, entries)
