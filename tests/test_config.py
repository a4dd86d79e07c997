"""Layered configuration and the production safety checks."""
import os
import subprocess  # nosec B404
import sys
from pathlib import Path

import pytest

from psan import create_app
from psan.runtime.settings import ConfigurationError, env_overrides


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


def test_tests_ignore_the_users_instance_and_environment(tmp_path):
    """After ``make run`` (instance/config.py with a real secret, PSAN_* exported) the config tests still pass."""
    from psan.commands.devstack import LOCAL_CONFIG
    user_instance = tmp_path / "instance"
    user_instance.mkdir()
    (user_instance / "config.py").write_text(LOCAL_CONFIG.format(secret="a-user-secret-" + "x" * 32))
    env = {**os.environ, "PSAN_INSTANCE_PATH": str(user_instance), "PSAN_CONFIG": "production",
           "PSAN_SECRET_KEY": "another-user-secret-" + "y" * 32, "PSAN_SESSION_COOKIE_SECURE": "false"}
    repo = Path(__file__).resolve().parent.parent
    tests = [f"tests/test_config.py::{name}" for name in
             ("test_production_refuses_default_secret", "test_production_sets_secure_cookies")]
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *tests],  # noqa: S603
                            cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "2 passed" in result.stdout
