# Kasino Discord bot. Build: docker build -t kasino .
# Run:   docker run -d --name kasino --env-file .env -v kasino-data:/data kasino
# One process on an SQLite file by default; compose.yaml runs shards over PostgreSQL.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    KASINO_DB=/data/kasino.db \
    HEALTH_FILE=/tmp/kasino-health

WORKDIR /app

# A font with every letter of the bot's languages, for the profile's rating picture.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, so code changes do not reinstall them: only pyproject.toml is
# copied here, and the dependencies it lists are installed without the package.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

# Then the code, installed without touching the dependencies.
COPY README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps .

# An unprivileged user owns the database volume.
RUN useradd --system --uid 10001 --home-dir /app kasino \
    && mkdir -p /data \
    && chown kasino /data
USER kasino
VOLUME ["/data"]

# Healthy while connected to Discord with a database that answers (bot/health.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
