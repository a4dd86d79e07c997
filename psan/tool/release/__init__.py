"""Release: the output modes (remove, tag, pseudonymize), the pseudonymization key and who used it."""
