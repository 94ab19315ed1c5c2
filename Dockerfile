# Syndicate API. Needs a Redis: set REDIS_URL (e.g. redis://redis:6379/0).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SYNDICATE_HOST=0.0.0.0 \
    SYNDICATE_PORT=8000

WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY service ./service
COPY events ./events
COPY projections ./projections
COPY games ./games
RUN pip install --no-cache-dir -c constraints.txt . \
    && useradd --create-home --uid 10001 syndicate

USER syndicate
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/livez', timeout=2)"

# The API; run the worker from the same image with: syndicate worker
# gevent workers keep live feeds (SSE) from tying up the server; see the README.
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "2", "--worker-class", "gevent", \
     "--worker-connections", "1000", "--access-logfile", "-", "service.wsgi:app"]
