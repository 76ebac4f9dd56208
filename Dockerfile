# Kasino Discord bot. Build: docker build -t kasino .
# Run:   docker run -d --name kasino --env-file .env -v kasino-data:/data kasino
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    KASINO_DB=/data/kasino.db

WORKDIR /app

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install .

# An unprivileged user owns the database volume.
RUN useradd --system --uid 10001 --home-dir /app kasino \
    && mkdir -p /data \
    && chown kasino /data
USER kasino
VOLUME ["/data"]

CMD ["python", "-m", "bot"]
