"""Layered configuration: default ← debug/production ← instance/config.py ← PSAN_* environment."""
