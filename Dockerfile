# syntax=docker/dockerfile:1
#
# One image for every service of the distributed wiring (gateway, order, tracking, label,
# carrier-sandbox). The command picks the service; docker-compose.yml overrides it per service:
#
#   docker build -t parcel-logistics:dev .
#   docker run --rm parcel-logistics:dev node services/order/src/main.ts
#
# Node 24 runs the TypeScript sources as they are (type stripping): there is no build step and
# no compiled output. Only production dependencies go into the image, installed by pnpm from
# the committed lockfile (--frozen-lockfile: a lockfile out of date with a package.json fails
# the build instead of resolving anew). See docs/compose.md.

# Without an image registry, infra/containers/build.sh builds this with its own Node 24 image:
# --build-arg NODE_IMAGE=localhost/parcel-node:local (docs/compose.md).
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------- dependencies
FROM ${NODE_IMAGE} AS deps
# The version scripts/tools.sh uses on the project's machines.
ARG PNPM_VERSION=10.34.8
RUN npm install --global --no-fund --no-audit --loglevel=error "pnpm@${PNPM_VERSION}"
WORKDIR /app
# Fetch from the lockfile alone first: this layer (and the store cache) survives source changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN --mount=type=cache,id=parcel-pnpm-store,target=/pnpm/store \
    pnpm fetch --prod --store-dir /pnpm/store
COPY . .
# pnpm-workspace.yaml allows no install scripts (onlyBuiltDependencies: []); the KurrentDB
# client's native part comes prebuilt per platform (@kurrent/bridge-linux-<arch>-gnu).
RUN --mount=type=cache,id=parcel-pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --offline --prod --store-dir /pnpm/store

# ---------------------------------------------------------------- runtime
FROM ${NODE_IMAGE} AS runtime
# Fonts of the label service's PDFs (services/label/src/fonts.ts looks under /usr/share/fonts):
#   fonts-dejavu-core    DejaVuSans.ttf, DejaVuSans-Bold.ttf           (Latin, Cyrillic, Greek)
#   fonts-tlwg-loma-ttf  Loma.ttf, Loma-Bold.ttf                       (Thai)
#   fonts-noto-cjk       NotoSansCJK-Regular.ttc, NotoSansCJK-Bold.ttc (Chinese, Japanese, Korean)
# Without them the labels fall back to Helvetica, Latin-1 only.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-tlwg-loma-ttf fonts-noto-cjk \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app /app
# The master key's directory, owned by the services' user: a volume mounted on it starts with this owner.
RUN mkdir -p /run/parcel-keys && chown node:node /run/parcel-keys && chmod 700 /run/parcel-keys
# The node image's unprivileged user (uid 1000); the services write nothing to the image.
USER node
# gateway (PORT 8080), carrier-sandbox (PORT 8090), order/tracking/label health (HEALTH_PORT 9000)
EXPOSE 8080 8090 9000
CMD ["node", "services/gateway/src/main.ts"]
