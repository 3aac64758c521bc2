# syntax=docker/dockerfile:1
# The webhook delivery worker image. Build context: the repository root (docker/compose.yaml sets it), e.g.
#   docker build -f docker/webhooks.Dockerfile -t svc-webhooks .
# Built as docker/api.Dockerfile builds the api (the pinned pnpm, a frozen install, a turbo build), then
# `node apps/webhooks/dist/main.js`. It serves no HTTP: no port, and health is the process being up.
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-bookworm-slim AS build
ENV TURBO_TELEMETRY_DISABLED=1
WORKDIR /app
# pnpm at the version package.json pins (toolchain.pnpm), as bootstrap installs it.
COPY package.json ./
RUN npm install --global "pnpm@$(node -p 'require("./package.json").toolchain.pnpm')"
# Every package of the lockfile into pnpm's store, in a layer that changes only with the lockfile.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm exec turbo run build --filter=@svc/webhooks... --output-logs=errors-only
# Then only what runs: the dev dependencies go (pnpm would ask before it empties node_modules).
RUN pnpm install --frozen-lockfile --offline --prod --config.confirmModulesPurge=false

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    WORKER_HOST=0.0.0.0 \
    WORKER_PORT=3001
WORKDIR /app
# Owned by root and only readable by the worker: in production it writes nothing here (DATABASE_URL,
# MASTER_KEY and SMTP_URL come from the environment, see docker/README.md).
COPY --from=build /app /app
USER node
# /healthz, /readyz and /metrics for operators (docs/operations.md); no organisation traffic.
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.WORKER_PORT||3001)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1: SIGTERM from `docker stop` reaches the worker, which finishes the attempts in flight and
# records them; anything cut short is retried by another worker (at least once).
CMD ["node", "apps/webhooks/dist/main.js"]
