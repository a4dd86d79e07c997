"""Every Redis key carries the instance's prefix, rate-limit counters included, so two instances can share
one Redis database.
"""
from __future__ import annotations


# --- every Redis key carries the instance's prefix ----------------------------------------------------------
def test_redis_keys_carry_the_instance_prefix(clean_app, celery_worker):
    import redis

    from psan.celery.tasks import health_check
    prefix = clean_app.config["REDIS_KEY_PREFIX"]
    assert prefix != "psan"
    store = redis.Redis.from_url(clean_app.config["REDIS_URL"])
    with clean_app.app_context():
        result = health_check.delay("prefixed")
        assert result.get(timeout=30)["nonce"] == "prefixed"
    assert store.exists(f"{prefix}:celery-task-meta-{result.id}")
    assert not store.exists(f"celery-task-meta-{result.id}")
    # the queue bindings of this instance are prefixed too
    assert any(k.decode().startswith(f"{prefix}:_kombu.binding.") for k in store.scan_iter(f"{prefix}:_kombu*"))


RATE_LIMIT_PROBE = """
import sys, uuid
import redis
from psan import create_app
from tests.services import app_config
from tests.helpers import csrf_token
prefix = f"inst-{uuid.uuid4().hex[:8]}"
config = app_config(sys.argv[1], sys.argv[2], REDIS_KEY_PREFIX=prefix)
config.pop("RATELIMIT_KEY_PREFIX")
app = create_app(config)
client = app.test_client()
client.post("/auth/login", data={"email": "x@example.org", "password": "wrong", "csrf_token": csrf_token(client)})
celery = app.extensions["celery"].conf
keys = [k.decode() for k in redis.Redis.from_url(sys.argv[2]).scan_iter(f"*{prefix}*")]
print(prefix, app.config["RATELIMIT_KEY_PREFIX"], app.config["RATELIMIT_STORAGE_OPTIONS"]["key_prefix"],
      celery.broker_transport_options["global_keyprefix"], celery.result_backend_transport_options["global_keyprefix"],
      all(k.startswith(prefix + ":LIMITS:LIMITER/" + prefix + "/") for k in keys) and len(keys) > 0)
"""


def test_rate_limit_keys_follow_redis_key_prefix(database_url, redis_url):
    """A fresh process (the limiter extension is global): an instance's login counters live under its prefix."""
    import subprocess
    import sys
    from pathlib import Path
    out = subprocess.run([sys.executable, "-c", RATE_LIMIT_PROBE, database_url, redis_url], capture_output=True,
                         text=True, check=True, timeout=120, cwd=Path(__file__).resolve().parents[2]).stdout.split()
    prefix = out[0]
    assert out[1:] == [prefix, f"{prefix}:LIMITS", f"{prefix}:", f"{prefix}:", "True"]
