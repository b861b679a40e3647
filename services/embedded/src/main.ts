import { loadSettings } from '@parcel/config';
import { startEmbedded } from './embedded.ts';

const stack = await startEmbedded({ settings: loadSettings() });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stack.stop().then(() => process.exit(0));
  });
}
