# Multi-stage image of ton-http-bridge. No Docker engine runs in this project's CI: the file is
# checked by test/docker/dockerfile.test.ts and the container's start command is run as a process
# by test/e2e/container.test.ts.
#
# Default network: mainnet (the official global config, downloaded at start and cached in the
# /data volume). `-e TON_BRIDGE_NETWORK=testnet`, `--liteservers /data/my.config.json`, or
# `-e TON_BRIDGE_NETWORK=local` for the embedded local chain.

# Node 22 LTS, pinned to an exact release; bump deliberately.
FROM node:22.23.3-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# npm ci runs the package's `prepare` script, bin/devBuild.js: with no src/ yet it does nothing.
COPY bin ./bin
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:22.23.3-bookworm-slim
# The MALLOC_ settings are npm start's (package.json; why: docs/operations.md, "Memory").
ENV NODE_ENV=production \
    TON_BRIDGE_HOST=0.0.0.0 \
    TON_BRIDGE_PORT=8081 \
    TON_BRIDGE_METRICS_PORT=8082 \
    TON_BRIDGE_NETWORK=mainnet \
    TON_BRIDGE_CONFIG_CACHE_DIR=/data \
    MALLOC_TRIM_THRESHOLD_=131072 \
    MALLOC_MMAP_THRESHOLD_=32768
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY config ./config
# The only writable place: the global-config cache (and --state-file of a local chain, if used).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8081 8082
# Truthful: /api/v2/healthcheck answers 200 only while a lite server is usable (503 otherwise).
# Unhealthy after 4 failed checks 15 s apart: longer than --start-timeout (30 s), so a slow start
# is not flagged (no --start-period: dockerfilelint predates it).
HEALTHCHECK --interval=15s --timeout=5s --retries=4 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.TON_BRIDGE_PORT || 8081) + '/api/v2/healthcheck').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/main.js"]
