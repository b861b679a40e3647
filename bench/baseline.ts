/**
 * An earlier commit of this repository as a second server for the same run: its tree is exported
 * (`git archive`, no worktree left behind) into a temporary directory, where its own
 * scripts/start.sh installs its dependencies from the local store and starts it. The bench then
 * drives both with the same client, one after the other, each on a fresh data directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Baseline {
  ref: string;
  /** The commit's abbreviated hash. */
  commit: string;
  dir: string;
  remove(): void;
}

export function exportCommit(repo: string, ref: string): Baseline {
  const commit = execFileSync('git', ['-C', repo, 'rev-parse', '--short', ref], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(path.join(tmpdir(), `parcel-baseline-${commit}-`));
  execFileSync('bash', ['-c', `git -C "$1" archive "$2" | tar -x -C "$3"`, 'archive', repo, commit, dir]);
  return { ref, commit, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
