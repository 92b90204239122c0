# fwbot's production image: compiled JavaScript, production dependencies only, run as the unprivileged
# `node` user. Build: docker build -t fwbot .   Run: see docker-compose.yml (fwbot + Redis).

# 1. Compile TypeScript (needs the dev dependencies).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The build's second step copies the Lua scripts (src/redis/lua/) beside the compiled loader in dist/.
COPY scripts/copy-lua.mjs ./scripts/
RUN npm run build

# 2. Production dependencies only, without install scripts (the optional native msgpack helper falls back
#    to JavaScript).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 3. The runtime: dist/ and production node_modules, nothing else.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
COPY --chown=node:node bin ./bin
USER node
EXPOSE 3000
# /healthz answers while the process is up (readiness is /readyz). Slim images have no curl: use node.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# fwbot drains on SIGTERM (no new work, jobs in hand finish, Redis closed) within 20 s.
STOPSIGNAL SIGTERM
CMD ["node", "dist/entry/bot.js"]
