"""Entities: which mentions are one person, organisation or place, however each is written."""
