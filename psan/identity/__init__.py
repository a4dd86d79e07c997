"""People and secrets: accounts and the last-admin rule, password hashing and policy, signed
tokens (password reset, first-admin registration) and e-mail.

May import: :mod:`psan.store`, :mod:`psan.runtime`.  The pages are the ``auth`` and ``users`` blueprints.
"""
