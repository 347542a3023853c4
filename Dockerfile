# One image for every service; the command chooses which one runs (see docker-compose.yml).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY libs ./libs
COPY services ./services
COPY apps ./apps
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
COPY --from=deps /app /app
VOLUME /data
EXPOSE 3000
CMD ["npx", "tsx", "apps/embedded/src/main.ts"]
