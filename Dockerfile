# syntax=docker/dockerfile:1
# One image for every role: api (node dist/main.js --role=api), worker (node dist/worker.js),
# migrate (node dist/cli/migrate.js), all-in-one (node dist/main.js).
# Node 24 is an active LTS line; the code also runs on Node 20.19+ and 22.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY web ./web
COPY scripts/build-web.js ./scripts/
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same V8 setting as `npm start` (see README, "Memory").
CMD ["node", "dist/main.js"]
