"""The annotation workflow: windows and their content, decisions (token, word type, entity),
decision requests, suggestions, entities (merge/split), document locks, targeted rule application,
the action log with undo, and the annotation detail panel.

May import: :mod:`psan.store.corpus`, :mod:`psan.store.admin`, :mod:`psan.store.shared`,
:mod:`psan.runtime`, :mod:`psan.tool`.
"""
