"""Request infrastructure and helpers shared by the page blueprints.

* per request: access control (:mod:`~psan.web.access`), input guard, security headers, error pages,
  JSON provider, attachment headers, Flask extensions, the blueprint list (:mod:`~psan.web.blueprints`);
* words for people: UI languages and the language switcher, document status names, code names;
* shared by the admin and annotator pages: the project picker, id checks, charts, the CSV
  import/export, re-annotation after imports.

May import: :mod:`psan.identity`, :mod:`psan.celery`, :mod:`psan.store`, :mod:`psan.runtime`, :mod:`psan.tool`;
the page blueprints import it, never the other way round.
"""
