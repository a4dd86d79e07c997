"""Texts that ``annotate.js`` shows, translated on the server and handed to the page as JSON data.

Why this way: the page's CSP forbids inline scripts, but a ``<script type="application/json">``
data block is never executed, so the template renders ``{english: translation}`` into one and
the script reads it with ``JSON.parse`` (falling back to English for anything missing).  The
English text is the key, gettext style.  The annotation API (:mod:`psan.annotate.api`,
:mod:`psan.store.annotation.decisions`) translates its messages on the server already; its fixed texts stay
listed below, with exactly the same English, so an English answer is still translated by the page.

Placeholders are ``%(name)s``, filled in by the script.
"""
from __future__ import annotations

from flask_babel import gettext


def N_(message: str) -> str:  # the conventional gettext "mark only" name (pybabel extracts N_)
    """Mark a string for extraction without translating it now."""
    return message


MESSAGES: tuple[str, ...] = (
    # answers and status line
    N_("unexpected answer"),
    N_("network error"),
    N_("error %(status)s"),
    N_("unavailable"),
    N_("Nothing to annotate."),
    N_("Read this text in full and mark any personal data nobody marked. Shown because: %(why)s"),
    N_("tokens %(first)s–%(end)s"),
    N_("selecting annotations (m: tokens)"),
    N_("selecting tokens (m: annotations)"),
    N_("Document finished: nothing suspicious is left. Press w for the next window."),
    N_("Saved."),
    N_("Label saved."),
    N_("Nothing recognized here: choose a category for this span."),
    N_("Suggestions accepted."),
    N_("Undone."),
    N_("Undo"),
    N_("Nothing yet."),
    N_("undone"),
    N_("%(kind)s %(decision)s · %(spans)s span(s), %(rules)s rule(s)"),
    N_("%(kind)s %(decision)s · %(spans)s span(s)"),
    N_("model, p = %(p)s"),
    N_("%(vote)s (weight %(weight)s)"),
    N_("token"),
    N_("word_type"),
    N_("ne_type"),
    N_("entity"),
    N_("accept"),
    N_("label"),
    N_("suggested: %(decision)s"),
    # decisions, document states, rule types and decision scopes
    N_("PUBLIC"),
    N_("PRIVATE"),
    N_("SUSPICIOUS"),
    N_("NEW"),
    N_("PROCESSING"),
    N_("RECOGNIZED"),
    N_("PRE_ANNOTATED"),
    N_("DONE"),
    N_("FAILED"),
    N_("NE_TYPE"),
    N_("WORD_TYPE"),
    N_("LEMMA"),
    N_("PATTERN"),
    N_("MODEL"),
    N_("lookup"),
    N_("token"),
    N_("word_type"),
    N_("ne_type"),
    # the "why is it decided?" panel
    N_("Decision: %(decision)s"),
    N_("label %(label)s"),
    N_("rule level %(level)s"),
    N_("entity %(types)s"),
    N_("special category: %(topics)s"),
    N_("token decision"),
    N_("Reason"),
    N_("Vote"),
    N_("Author"),
    N_("History"),
    N_("Decision"),
    N_("By"),
    # entities (psan/store/annotation/entities.py)
    N_("Entity: %(category)s · mentions in this window: %(mentions)s"),
    N_("[… %(count)s tokens not shown …]"),
    N_("Split off"),
    N_("Remember for merging"),
    N_("Merge with the remembered entity"),
    N_("Select a span of the other entity and merge it from its detail."),
    N_("Entities merged."),
    N_("Entity split."),
    N_("entity_merge"),
    N_("entity_split"),
    N_("No entity was recognized at that span."),
    N_("Both spans already belong to one entity."),
    N_("Entities of different categories cannot be merged."),
    N_("This entity has a single mention; there is nothing to split."),
    # what the annotation API answers (psan/annotate/api.py, psan/store/annotation/decisions.py; translated there too)
    N_("Nothing is left to annotate right now."),
    N_("You have no annotation window; request one first."),
    N_("Your annotation window expired and was given to someone else; request a new one."),
    N_("You may no longer annotate this project."),
    N_("That text is outside your annotation window."),
    N_("unknown label"),
    N_("scope must be token, word_type, ne_type or entity"),
    N_("Every mention of the entity decided."),
    N_("Every mention of the entity decided, except %(count)s that you had decided private: they stay private."),
    N_("This entity has too many mentions to decide at once; decide by word type."),
    N_("the span has no named entity of that type"),
    N_("no named entity was recognized on exactly this span"),
    N_("The learned model's spans are decided one by one, not by type."),
    N_("login required"),
)


def js_messages() -> dict[str, str]:
    """``{english: translation}`` for the current request's language (only the translated ones)."""
    table = {}
    for message in MESSAGES:
        translated = gettext(message)
        if translated != message:
            table[message] = translated
    return table
