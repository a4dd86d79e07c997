"""Administration: accounts, projects and members, labels, rules (the rule set and its admin page),
instance settings, the worker health probe and the PostgreSQL server itself.

May import: :mod:`psan.store.shared`, :mod:`psan.runtime`, :mod:`psan.tool`.
"""
