"""The Docker and process files, checked without a Docker engine: they parse and say what they must."""
import configparser
import re
import subprocess
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")
REPO = Path(__file__).resolve().parent.parent
SECRET_KEYS = re.compile(r"(PASSWORD|SECRET|TOKEN|API_KEY)", re.I)


def _compose(name: str) -> dict:
    return yaml.safe_load((REPO / name).read_text())


def _no_literal_secrets(services: dict) -> None:
    for name, service in services.items():
        env = service.get("environment") or {}
        items = env.items() if isinstance(env, dict) else (e.split("=", 1) for e in env)
        for key, value in items:
            if SECRET_KEYS.search(key):
                assert isinstance(value, str) and value.startswith("${"), f"{name}: {key} is hard-coded"
            if isinstance(value, str) and "://" in value and "@" in value:
                credentials = value.split("://", 1)[1].split("@", 1)[0]
                assert ":" not in credentials or "${" in credentials, f"{name}: password in {key}"


def test_production_compose():
    compose = _compose("docker-compose.yaml")
    services = compose["services"]
    assert {"app", "worker", "postgres", "redis"} <= set(services)
    assert {"pgdata", "redisdata"} <= set(compose["volumes"])
    for name in ("app", "postgres", "redis", "worker"):
        assert "healthcheck" in services[name], name
    assert services["app"]["env_file"] == ".env" and services["worker"]["env_file"] == ".env"
    assert services["postgres"]["volumes"][0].startswith("pgdata:")
    assert services["redis"]["volumes"][0].startswith("redisdata:")
    # the app is published on loopback only: the HTTPS reverse proxy is the public face
    assert all(port.startswith("127.0.0.1:") for port in services["app"]["ports"])
    _no_literal_secrets(services)


def test_debug_and_test_compose():
    debug = _compose("docker-compose.debug.yaml")["services"]
    assert "adminer" in debug and "--debug" in debug["app"]["entrypoint"]
    test = _compose("docker-compose.test.yaml")["services"]
    assert "tests" in test and {"postgres-test", "redis-test"} <= set(test)
    assert "PSAN_TEST_DATABASE_URL" in test["tests"]["environment"]
    _no_literal_secrets(debug)


def test_env_example_has_no_values_for_secrets():
    for line in (REPO / ".env.example").read_text().splitlines():
        if line and not line.startswith("#") and SECRET_KEYS.search(line.split("=", 1)[0]):
            assert line.split("=", 1)[1] == "", line


def test_dockerfile_is_slim_and_non_root():
    text = (REPO / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\s*$", text, re.M)
    users = re.findall(r"^USER (\S+)", text, re.M)
    assert users and users[-1] not in ("root", "0")
    assert "HEALTHCHECK" in text
    for forbidden in ("COPY . ", "COPY tests", "COPY .git"):
        assert forbidden not in text
    ignored = (REPO / ".dockerignore").read_text().split()
    assert {".git", ".venv", "instance", ".env"} <= set(ignored)


def test_run_sh_and_uwsgi_ini():
    subprocess.run(["bash", "-n", str(REPO / "run.sh")], check=True)
    text = (REPO / "run.sh").read_text()
    assert "wait -n" in text and "trap" in text
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read(REPO / "uwsgi.ini")
    assert parser["uwsgi"]["module"] == "psan.wsgi:app"
    assert parser["uwsgi"]["die-on-term"] == "true"


def test_scale_override_runs_many_workers_against_one_database():
    base = _compose("docker-compose.yaml")["services"]
    scale = _compose("docker-compose.scale.yaml")["services"]
    assert set(scale) == {"worker"}  # only workers multiply; one PostgreSQL, one Redis, one app
    worker = {**base["worker"], **scale["worker"]}
    # --scale worker=N needs no fixed name or host port, and every copy reaches the same services
    assert "container_name" not in worker and "ports" not in worker
    assert "@postgres:5432/" in base["worker"]["environment"]["PSAN_DATABASE_URL"]
    assert base["worker"]["environment"]["PSAN_REDIS_URL"].startswith("redis://redis:")
    assert "PSAN_WORKER_CONCURRENCY" in scale["worker"]["environment"]
    assert "--scale worker=" in (REPO / "docker-compose.scale.yaml").read_text()
    assert "docker-compose.scale.yaml" in (REPO / "docs" / "admin.md").read_text()
    _no_literal_secrets(scale)


def test_compose_worker_waits_for_the_migrated_app_and_a_command_fills_the_models_volume():
    services = _compose("docker-compose.yaml")["services"]
    assert services["worker"]["depends_on"]["app"] == {"condition": "service_healthy"}
    assert "healthcheck" in services["app"]
    models = services["models"]
    assert models["profiles"] == ["tools"] and "models:/models" in models["volumes"]
    assert "--profile tools run --rm models" in (REPO / "docs" / "admin.md").read_text()


def test_licence_file_is_the_mit_licence_pyproject_declares():
    assert 'license = "MIT"' in (REPO / "pyproject.toml").read_text()
    assert (REPO / "LICENSE").read_text().startswith("MIT License")
