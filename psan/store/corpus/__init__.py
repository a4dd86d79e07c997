"""Documents and their processing: saving and loading recognized documents, their text, history,
pre-processing bookkeeping and section runs, pipelines, download jobs, the project's learned model,
and re-annotation (applying a project's rules to its documents).

May import: :mod:`psan.store.admin`, :mod:`psan.store.shared`, :mod:`psan.runtime`, :mod:`psan.tool`.
"""
