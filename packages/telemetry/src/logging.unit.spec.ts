import { Writable } from 'node:stream';
import pino from 'pino';
import { loggerOptions } from './logging.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) });
  return { log: pino(loggerOptions({ level: 'trace' }), stream), lines };
}

describe('loggerOptions: secrets are never logged', () => {
  it('writes [secret] for a secret field at the top, one level down and two levels down, and keeps the rest', () => {
    const { log, lines } = capture();
    const secret = 'whsec_c2VjcmV0LWJ5dGVzLWZvci10aGUtdGVzdA==';
    log.info(
      {
        secret,
        endpoint: { id: 'we_1', secrets: [{ secret, expiresAt: null }] },
        req: { headers: { authorization: 'Bearer abc', 'x-auth-token': 'tok' } },
        body: { ApiKey: 'k', apiKey: 'k2' },
      },
      'created',
    );
    const [line] = lines;
    expect(line).not.toContain(secret);
    for (const value of ['Bearer abc', '"tok"', '"k"', '"k2"']) expect(line).not.toContain(value);
    const parsed = JSON.parse(line!);
    expect(parsed.secret).toBe('[secret]');
    expect(parsed.endpoint).toEqual({ id: 'we_1', secrets: '[secret]' });
    expect(parsed.req.headers).toEqual({ authorization: '[secret]', 'x-auth-token': '[secret]' });
    expect(parsed.msg).toBe('created');
  });

  it('leaves a caller its own redaction', () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) });
    pino(loggerOptions({ redact: ['card'] }), stream).info({ card: '4111', secret: 'shown' });
    expect(JSON.parse(lines[0]!)).toMatchObject({ card: '[Redacted]', secret: 'shown' });
  });
});
