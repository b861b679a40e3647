import { randomBytes } from 'node:crypto';

/** Standard Webhooks asks for 24 to 64 random bytes; 32 is HMAC-SHA256's block-sized sweet spot. */
const SECRET_BYTES = 32;
export const SECRET_PREFIX = 'whsec_';

export const newSigningSecret = (random: (n: number) => Buffer = randomBytes): string =>
  `${SECRET_PREFIX}${random(SECRET_BYTES).toString('base64')}`;
