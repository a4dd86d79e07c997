"""Layered configuration and the production safety checks."""
import pytest

from psan import create_app
from psan.settings import ConfigurationError, env_overrides


def test_production_refuses_default_secret(database_url):
    with pytest.raises(ConfigurationError, match="SECRET_KEY"):
        create_app({"PSAN_CONFIG": "production", "DATABASE_URL": database_url})


def test_production_refuses_missing_secret(database_url):
    with pytest.raises(ConfigurationError, match="SECRET_KEY"):
        create_app({"PSAN_CONFIG": "production", "DATABASE_URL": database_url, "SECRET_KEY": ""})


def test_production_sets_secure_cookies(database_url, redis_url):
    app = create_app({"PSAN_CONFIG": "production", "DATABASE_URL": database_url, "REDIS_URL": redis_url,
                      "SECRET_KEY": "a-long-enough-production-secret"})
    assert app.config["SESSION_COOKIE_SECURE"] and app.config["REMEMBER_COOKIE_SECURE"]
    assert app.config["SESSION_COOKIE_HTTPONLY"]
    assert app.config["HSTS_SECONDS"] > 0


def test_missing_database_url_is_refused():
    with pytest.raises(ConfigurationError, match="DATABASE_URL"):
        create_app({"PSAN_CONFIG": "debug", "DATABASE_URL": None})


def test_unknown_mode_is_refused():
    with pytest.raises(ConfigurationError, match="PSAN_CONFIG"):
        create_app({"PSAN_CONFIG": "staging"})


def test_environment_overrides_types():
    env = {"PSAN_DATABASE_URL": "postgresql://x/y", "PSAN_SMTP_PORT": "2525", "PSAN_SMTP_STARTTLS": "true",
           "PSAN_CONFIG": "debug", "PSAN_TEST_DATABASE_URL": "ignored", "OTHER": "x"}
    assert env_overrides(env) == {"DATABASE_URL": "postgresql://x/y", "SMTP_PORT": 2525, "SMTP_STARTTLS": True}


def test_environment_beats_defaults(monkeypatch, database_url):
    monkeypatch.setenv("PSAN_DEFAULT_WINDOW_SIZE", "123")
    app = create_app({"PSAN_CONFIG": "testing", "DATABASE_URL": database_url, "SECRET_KEY": "x" * 20})
    assert app.config["DEFAULT_WINDOW_SIZE"] == 123
