// A webhook receiver in a process of its own: it verifies every request with the independent
// `standardwebhooks` package (never with project code), answers 503 to the first `failFirst`
// attempts of each message, and reports what it got. Plain JavaScript: no project import.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import process from 'node:process';
import { Webhook } from 'standardwebhooks';

let secrets = [];
let failFirst = 0;
const attempts = new Map();
const received = [];

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const server = http.createServer(async (req, res) => {
  const body = await readBody(req);
  if (req.method === 'POST' && req.url === '/config') {
    ({ secrets, failFirst } = JSON.parse(body));
    return res.end('{}');
  }
  if (req.method === 'GET' && req.url === '/received') return res.end(JSON.stringify(received));
  const path = req.url;
  const id = req.headers['webhook-id'];
  const n = (attempts.get(`${path} ${id}`) ?? 0) + 1;
  attempts.set(`${path} ${id}`, n);
  // Each secret the receiver knows must verify: during a rotation both signatures are on the request.
  const verifiedWith = secrets.filter((secret) => {
    try {
      new Webhook(secret).verify(body, req.headers);
      return true;
    } catch {
      return false;
    }
  });
  const signatures = String(req.headers['webhook-signature'] ?? '').split(' ').length;
  const timestamp = Number(req.headers['webhook-timestamp']);
  const entry = {
    path,
    id,
    attempt: n,
    timestamp,
    verified: verifiedWith.length === secrets.length && secrets.length > 0,
    signatures,
    body: JSON.parse(body),
    at: Date.now(),
  };
  if (!entry.verified) {
    received.push(entry);
    res.statusCode = 400;
    return res.end('bad signature');
  }
  if (n <= failFirst) {
    res.statusCode = 503;
    return res.end('not yet');
  }
  received.push(entry);
  res.end('ok');
});

// Any free port on loopback, unless RECEIVER_PORT and RECEIVER_HOST say otherwise (in a container).
server.listen(Number(process.env.RECEIVER_PORT ?? 0), process.env.RECEIVER_HOST ?? '127.0.0.1', () =>
  process.stdout.write(`${server.address().port}\n`),
);
