import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type AgentCatalogue, type DirectoryKey, parseKeyDirectory } from '@vt/attribution';
import type { OpsContext } from '../context.ts';

// The Web Bot Auth part of `pnpm ops crawlers refresh`: the key directory of every operator the
// catalogue gives one, fetched or read from `--from DIR/keys/<operator>.json`, stored by the
// Signature-Agent origin it signs for. A directory that cannot be read keeps its stored keys.

const MAX_DIRECTORY_BYTES = 256 * 1024;

export interface SignatureKeysRefresh {
  directories: { origin: string; operator: string; keys: number; source: string }[];
  failures: { source: string; message: string }[];
}

async function readDirectory(source: string, fetchImpl: typeof fetch, fromFile: boolean): Promise<DirectoryKey[]> {
  let text: string;
  if (fromFile) text = await readFile(source, 'utf8');
  else {
    const response = await fetchImpl(source, { signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  }
  if (text.length > MAX_DIRECTORY_BYTES) throw new Error(`larger than ${MAX_DIRECTORY_BYTES} bytes`);
  return parseKeyDirectory(JSON.parse(text));
}

/** One operator's directory, read and parsed, not stored yet. */
interface ReadDirectory {
  origin: string;
  operator: string;
  keys: DirectoryKey[];
  source: string;
}

/**
 * Reads every key directory the catalogue names (from `--from DIR/keys/`, or fetched), writing
 * nothing: `crawlers refresh --from` refuses a directory file that does not parse before anything
 * is stored.
 */
export async function readSignatureKeys(input: {
  catalogue: AgentCatalogue;
  from?: string;
  fetchImpl?: typeof fetch;
}): Promise<{ directories: ReadDirectory[]; failures: SignatureKeysRefresh['failures'] }> {
  const directories: ReadDirectory[] = [];
  const failures: SignatureKeysRefresh['failures'] = [];
  for (const [operator, { keyDirectory }] of Object.entries(input.catalogue.operators)) {
    if (!keyDirectory) continue;
    const origin = new URL(keyDirectory).origin;
    const file = input.from ? join(resolve(input.from), 'keys', `${operator}.json`) : null;
    // Without internet, an operator whose file is not in DIR/keys keeps what is stored.
    if (file && (await readFile(file).catch(() => null)) === null) continue;
    const source = file ?? keyDirectory;
    try {
      const keys = await readDirectory(source, input.fetchImpl ?? fetch, file !== null);
      directories.push({ origin, operator, keys, source });
    } catch (err) {
      failures.push({ source, message: (err as Error).message });
    }
  }
  return { directories, failures };
}

/** Stores the directories read, each under the Signature-Agent origin it signs for. */
export async function storeSignatureKeys(
  ctx: OpsContext,
  read: Awaited<ReturnType<typeof readSignatureKeys>>,
): Promise<SignatureKeysRefresh> {
  const takenAt = new Date();
  for (const { origin, operator, keys, source } of read.directories) {
    const row = { operator, keys, source, takenAt };
    await ctx.db.signatureKeyDirectory.upsert({ where: { origin }, create: { origin, ...row }, update: row });
  }
  return {
    directories: read.directories.map(({ origin, operator, keys, source }) => ({
      origin,
      operator,
      keys: keys.length,
      source,
    })),
    failures: read.failures,
  };
}
