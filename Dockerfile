# psan production image: uWSGI + Celery worker (see run.sh), non-root, runtime files only.
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md ./
COPY psan ./psan
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".[server,polish,morph,swedish]"

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PSAN_CONFIG=production PSAN_HOME=/app PYTHONPATH=/app
RUN useradd --create-home --uid 10001 psan
# word lists every printed Czech, Slovak and Polish surrogate form is checked against (psan.tool.morph.wordlist)
RUN apt-get update && apt-get install -y --no-install-recommends libhunspell-1.7-0 hunspell-cs hunspell-sk hunspell-pl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels "psan[server,polish,morph,swedish]" && rm -rf /wheels
WORKDIR /app
COPY --chown=psan:psan config ./config
COPY --chown=psan:psan db ./db
COPY --chown=psan:psan run.sh uwsgi.ini ./
RUN mkdir -p /app/instance /models && chown psan:psan /app/instance /models
USER psan
ENV PSAN_NAMETAG_MODELS=/models
EXPOSE 5000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:5000/health').status != 200)"
ENTRYPOINT ["/app/run.sh"]
CMD ["all"]
