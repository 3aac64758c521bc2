# syntax=docker/dockerfile:1
# The api image. Build context: the repository root (docker/compose.yaml sets it), e.g.
#   docker build -f docker/api.Dockerfile -t svc-api .
# Same steps as `npm start` (scripts/bootstrap.mjs): the pinned pnpm, a frozen install, a turbo build,
# then `node apps/api/dist/main.js`.
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
RUN pnpm exec turbo run build --filter=@svc/api... --output-logs=errors-only
# Then only what runs: the dev dependencies go (pnpm would ask before it empties node_modules).
RUN pnpm install --frozen-lockfile --offline --prod --config.confirmModulesPurge=false

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# Owned by root and only readable by the service: in production it writes nothing here (DATABASE_URL,
# MASTER_KEY and ADMIN_TOKEN come from the environment, see docker/README.md).
COPY --from=build /app /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1: SIGTERM from `docker stop` reaches the api, which finishes in-flight requests.
CMD ["node", "apps/api/dist/main.js"]
