"""What every store domain needs: document status codes and their SQL, planner statistics, clean names.

May import: :mod:`psan.runtime` and :mod:`psan.tool` only.
"""
