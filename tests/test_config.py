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


def test_production_refuses_a_seeded_qa_sample(database_url):
    with pytest.raises(ConfigurationError, match="QA_SAMPLE_SEED"):
        create_app({"PSAN_CONFIG": "production", "DATABASE_URL": database_url,
                    "SECRET_KEY": "a-long-enough-production-secret", "QA_SAMPLE_SEED": "1"})


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


def test_string_settings_are_taken_as_written_never_as_json_literals():
    env = {"PSAN_SMTP_PASSWORD": "123456", "PSAN_MAIL_FROM": "no", "PSAN_SMTP_USERNAME": "null",
           "PSAN_SECRET_KEY": "true", "PSAN_SERVER_URL": "[1]"}
    assert env_overrides(env) == {"SMTP_PASSWORD": "123456", "MAIL_FROM": "no", "SMTP_USERNAME": "null",
                                  "SECRET_KEY": "true", "SERVER_URL": "[1]"}


def test_each_setting_is_parsed_by_its_declared_type():
    env = {"PSAN_LANGUAGES": "en, cs", "PSAN_MODEL_THRESHOLD": "0.5", "PSAN_SMTP_HOST": "", "PSAN_SMTP_SSL": "off",
           "PSAN_RATELIMIT_STORAGE_OPTIONS": '{"socket_timeout": 3}', "PSAN_WTF_CSRF_TIME_LIMIT": "",
           "PSAN_UNKNOWN_THING": "42"}
    assert env_overrides(env) == {"LANGUAGES": ["en", "cs"], "MODEL_THRESHOLD": 0.5, "SMTP_HOST": None,
                                  "SMTP_SSL": False, "RATELIMIT_STORAGE_OPTIONS": {"socket_timeout": 3},
                                  "WTF_CSRF_TIME_LIMIT": None, "UNKNOWN_THING": "42"}
    assert env_overrides({"PSAN_LANGUAGES": '["en"]'}) == {"LANGUAGES": ["en"]}
    # a duration may be a fraction of a second; other numbers are whole
    assert env_overrides({"PSAN_PROCESSING_HEARTBEAT_SECONDS": "0.5", "PSAN_SMTP_TIMEOUT": "20"}) == {
        "PROCESSING_HEARTBEAT_SECONDS": 0.5, "SMTP_TIMEOUT": 20}


@pytest.mark.parametrize(("name", "value", "message"), [
    ("PSAN_SMTP_PORT", "abc", "PSAN_SMTP_PORT must be a whole number, not 'abc'"),
    ("PSAN_SESSION_COOKIE_SECURE", "maybe", "PSAN_SESSION_COOKIE_SECURE must be true or false"),
    ("PSAN_MODEL_THRESHOLD", "high", "PSAN_MODEL_THRESHOLD must be a number or empty"),
    ("PSAN_RATELIMIT_STORAGE_OPTIONS", "[1]", "must be a JSON object"),
    ("PSAN_DEFAULT_WINDOW_SIZE", "", "must be a whole number"),
    ("PSAN_DEFAULT_WINDOW_SIZE", "300.5", "must be a whole number"),
    ("PSAN_SWEEP_INTERVAL_SECONDS", "soon", "must be a number"),
])
def test_a_setting_of_the_wrong_type_stops_the_start_with_a_clear_error(monkeypatch, database_url, name, value,
                                                                         message):
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigurationError, match=message.replace("(", r"\(")):
        create_app({"PSAN_CONFIG": "testing", "DATABASE_URL": database_url, "SECRET_KEY": "x" * 20})


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
