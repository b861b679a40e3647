/**
 * Container health check of the compose stack (docker-compose.yml): exits 0 when `GET <url>`
 * answers 2xx within 3 s, 1 otherwise. The service images are node:24-bookworm-slim, which has
 * neither curl nor wget, so the check is Node itself (type stripping runs this file as is).
 *
 *   node infra/compose/healthcheck.ts http://127.0.0.1:9000/readyz
 */
const url = process.argv[2];
if (!url) {
  console.error('usage: node infra/compose/healthcheck.ts <url>');
  process.exit(2);
}
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
  await res.body?.cancel();
  if (!res.ok) console.error(`${url}: HTTP ${res.status}`);
  process.exitCode = res.ok ? 0 : 1;
} catch (error) {
  console.error(`${url}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
