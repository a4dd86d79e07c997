#!/usr/bin/env bash
# Container entry point: migrate, then run uWSGI and/or the Celery worker and stop both cleanly.
#   run.sh all     web server and worker in one container (small installations, the thesis' layout)
#   run.sh web     only uWSGI            run.sh worker   only the Celery worker
set -euo pipefail
mode="${1:-all}"
export PSAN_BIND="${PSAN_BIND:-0.0.0.0:5000}"
cd "$(dirname "$0")"

if [[ "$mode" == "all" || "$mode" == "web" ]]; then
  flask --app psan db upgrade
  flask --app psan registration-link
elif [[ "$mode" == "worker" ]]; then
  # a worker alone waits for the web container (or an admin) to migrate the schema
  flask --app psan db wait --timeout "${PSAN_MIGRATION_WAIT_SECONDS:-600}"
fi

pids=()
stop() {
  trap - TERM INT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait
}
trap stop TERM INT

if [[ "$mode" == "all" || "$mode" == "web" ]]; then
  uwsgi --ini uwsgi.ini &
  pids+=("$!")
fi
if [[ "$mode" == "all" || "$mode" == "worker" ]]; then
  # gossip/mingle: unused by psan, and gossip's restart after a lost Redis connection can crash the worker
  celery -A psan.celery.worker worker --loglevel=INFO --concurrency="${PSAN_WORKER_CONCURRENCY:-$(nproc)}" \
    --without-gossip --without-mingle &
  pids+=("$!")
fi
if [[ ${#pids[@]} -eq 0 ]]; then
  echo "usage: run.sh [all|web|worker]" >&2
  exit 2
fi

# when one process dies, stop the other one too so the orchestrator restarts the container
status=0
wait -n "${pids[@]}" || status=$?
stop
exit "$status"
