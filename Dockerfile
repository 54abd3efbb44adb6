# syntax=docker/dockerfile:1

# One image for every app: `pnpm build`'s bundles (apps/<app>/dist/main.js) run with plain node
# on production dependencies only, as the non-root node user. docker-compose.yml picks the app
# with `command:`, e.g. `node apps/crawl-worker/dist/main.js`.
#
# Node 24, the active LTS line. CI runs the test suite on the machine's Node 20 (package.json's
# engines: >= 20.19); the bundles target Node 20, so they run on both (docs/operators.md, "Production runtime").
#
# No HEALTHCHECK here: each app listens on its own port, so docker-compose.yml declares one per
# service (a `node -e fetch(...)` probe; the slim image has no curl).

ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: every dependency, then the bundles and the console's web UI
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# npm rather than corepack: corepack would fetch pnpm at run time. Keep in step with
# package.json's "packageManager".
RUN npm i -g pnpm@10.34.8

# Manifests and lockfile first, so the install layer is rebuilt only when dependencies change.
# postinstall generates the Prisma client, which needs prisma/ and packages/db/scripts too.
# Every workspace package's package.json must be listed here (tests/deployment.test.ts checks).
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc prisma.config.ts ./
COPY prisma ./prisma
COPY packages/db/scripts ./packages/db/scripts
COPY apps/answer-collector/package.json ./apps/answer-collector/
COPY apps/console/package.json ./apps/console/
COPY apps/crawl-worker/package.json ./apps/crawl-worker/
COPY apps/ingest-gateway/package.json ./apps/ingest-gateway/
COPY apps/lead-worker/package.json ./apps/lead-worker/
COPY apps/notifier/package.json ./apps/notifier/
COPY apps/ops/package.json ./apps/ops/
COPY apps/read-api/package.json ./apps/read-api/
COPY packages/accounts/package.json ./packages/accounts/
COPY packages/answers/package.json ./packages/answers/
COPY packages/api-client/package.json ./packages/api-client/
COPY packages/attribution/package.json ./packages/attribution/
COPY packages/config/package.json ./packages/config/
COPY packages/contracts/package.json ./packages/contracts/
COPY packages/credentials/package.json ./packages/credentials/
COPY packages/db/package.json ./packages/db/
COPY packages/delivery-log/package.json ./packages/delivery-log/
COPY packages/edge-senders/package.json ./packages/edge-senders/
COPY packages/exports/package.json ./packages/exports/
COPY packages/logger/package.json ./packages/logger/
COPY packages/mail/package.json ./packages/mail/
COPY packages/mail-catcher/package.json ./packages/mail-catcher/
COPY packages/outgoing-webhooks/package.json ./packages/outgoing-webhooks/
COPY packages/alerts/package.json ./packages/alerts/
COPY packages/properties/package.json ./packages/properties/
COPY packages/catalogue-store/package.json ./packages/catalogue-store/
COPY packages/http-operations/package.json ./packages/http-operations/
COPY packages/queue/package.json ./packages/queue/
COPY packages/read-model/package.json ./packages/read-model/
COPY packages/redis/package.json ./packages/redis/
COPY packages/service-runtime/package.json ./packages/service-runtime/
COPY packages/test-support/package.json ./packages/test-support/
COPY packages/verdict/package.json ./packages/verdict/
COPY packages/weekly-report/package.json ./packages/weekly-report/
RUN --mount=type=cache,id=vt-pnpm-store,target=/pnpm-store \
    pnpm install --frozen-lockfile --store-dir /pnpm-store

COPY . .
RUN pnpm build

# --- production dependencies: the same lockfile without devDependencies. No install scripts: the
# only one generates the Prisma client, which the bundles already hold.
FROM build AS production-dependencies
RUN --mount=type=cache,id=vt-pnpm-store,target=/pnpm-store \
    pnpm install --frozen-lockfile --prod --ignore-scripts --store-dir /pnpm-store

# --- runtime: the bundles, what they read at run time, and production node_modules
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# Fewer glibc malloc arenas: gunzip on libuv's thread pool otherwise leaves the gateway holding
# tens of MB it never returns (docs/operators.md, "Memory").
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
# Every package's node_modules links keep their paths: each bundle imports npm packages through
# the links of the workspace package that uses them (scripts/build-apps.mjs).
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=production-dependencies /app/apps ./apps
COPY --from=production-dependencies /app/packages ./packages
COPY --from=production-dependencies /app/prisma ./prisma
COPY --from=production-dependencies /app/package.json ./
# Owned by root and only read by the `node` user.
USER node
EXPOSE 3000 3001 3002 9101 9102 9103
CMD ["node", "apps/read-api/dist/main.js"]
