/**
 * The repository explains itself. Every link of the README and of
 * the Markdown pages under docs/ and beside the packages points at a file of the repository (or a
 * running local service); none leaves it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

function markdownFiles(): string[] {
  const files = ['README.md'];
  for (const dir of ['docs', 'packages', 'services', 'infra', 'bench']) {
    const walk = (rel: string) => {
      for (const entry of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const child = path.join(rel, entry.name);
        if (entry.isDirectory()) walk(child);
        else if (entry.name.endsWith('.md')) files.push(child);
      }
    };
    if (existsSync(path.join(ROOT, dir))) walk(dir);
  }
  return files;
}

/** Inline Markdown links outside code blocks and code spans: `[text](target)`. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

const files = markdownFiles();

test('the README and the pages under docs/ are found', () => {
  expect(files).toContain('README.md');
  expect(files.filter((f) => f.startsWith('docs/')).length).toBeGreaterThanOrEqual(3);
});

test.each(files)('%s links only to files of the repository', (file) => {
  const wrong: string[] = [];
  for (const target of links(readFileSync(path.join(ROOT, file), 'utf8'))) {
    if (target.startsWith('#')) continue;
    if (/^https?:\/\/(localhost|127\.0\.0\.1)[:/]/.test(target)) continue;
    if (/^[a-z]+:/i.test(target)) {
      wrong.push(`${target}: outside the repository`);
      continue;
    }
    const resolved = path.resolve(ROOT, path.dirname(file), target.split('#')[0]!);
    if (!resolved.startsWith(ROOT + path.sep)) wrong.push(`${target}: outside the repository`);
    else if (!existsSync(resolved)) wrong.push(`${target}: no such file`);
  }
  expect(wrong).toEqual([]);
});
