# syntax=docker/dockerfile:1

# One image for every app. The apps run their TypeScript sources through tsx (no build step), so
# the image is the workspace plus its installed node_modules; docker-compose.yml picks the app
# with `command:`, e.g. `node_modules/.bin/tsx apps/crawl-worker/src/main.ts`.
#
# No HEALTHCHECK here: each app listens on its own port, so docker-compose.yml declares one per
# service (a `node -e fetch(...)` probe; the slim image has no curl).

FROM node:20-bookworm-slim AS install
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
COPY packages/logger/package.json ./packages/logger/
COPY packages/properties/package.json ./packages/properties/
COPY packages/catalogue-store/package.json ./packages/catalogue-store/
COPY packages/queue/package.json ./packages/queue/
COPY packages/read-model/package.json ./packages/read-model/
COPY packages/redis/package.json ./packages/redis/
COPY packages/service-runtime/package.json ./packages/service-runtime/
COPY packages/test-support/package.json ./packages/test-support/
COPY packages/verdict/package.json ./packages/verdict/
# devDependencies are installed on purpose: tsx, which runs every app, is one of them.
RUN --mount=type=cache,id=vt-pnpm-store,target=/pnpm-store \
    pnpm install --frozen-lockfile --store-dir /pnpm-store

COPY . .
# The console's web UI, built into apps/console/web/dist, which the console serves at `/`.
RUN pnpm --filter @vt/console build:web

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
# Fewer glibc malloc arenas: gunzip on libuv's thread pool otherwise leaves the gateway holding
# tens of MB it never returns (README, "Memory").
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
# Same path as the install stage: pnpm's .bin shims hold absolute paths. Owned by root and only
# read by the `node` user; tsx keeps its cache in /tmp.
COPY --from=install /app /app
USER node
EXPOSE 3000 3001 3002 9101 9102 9103
CMD ["node_modules/.bin/tsx", "apps/read-api/src/main.ts"]
