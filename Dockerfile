# aizk's container image: `docker build -t registry.example.com/aizk:0.1.0 .`
# Two stages: the first installs every dependency and compiles; the second holds only the
# production dependencies (no dev tools, and no embedded PostgreSQL: the optional dependency is
# left out, so the image needs AIZK_DATABASE_URL) and the compiled output. scripts/image-steps.mjs
# runs this file's runtime install and start steps in a clean folder, as the tests do.

# Node.js 24 (the active LTS) by default; `--build-arg NODE_VERSION=22` builds on 22. The lines
# package.json's engines allows; scripts/image-steps.mjs refuses any other.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /opt/aizk
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund
COPY bin ./bin
COPY --from=build /src/dist ./dist
COPY --from=build /src/oclif.manifest.json ./oclif.manifest.json
# The official node images carry an unprivileged `node` user (uid 1000).
USER node
# The bin itself is PID 1's program (no npm, no shell in between), so SIGTERM from Docker or
# Kubernetes reaches the worker, which drains and exits 0.
ENTRYPOINT ["node", "/opt/aizk/bin/run.js"]
CMD ["worker"]
