import { createPublicKey, type KeyObject, verify as verifyEd25519 } from 'node:crypto';
import { type DirectoryKey, signatureAgentOrigin } from '@vt/attribution';
import { verify as verifyMessage } from 'http-message-sig';

// Web Bot Auth (the IETF drafts; RFC 9421 HTTP Message Signatures): a request an agent signed,
// checked from the headers a log shipper forwarded. The signature base is built by http-message-sig
// from the covered components (`@authority` is the line's host, `@path` its path, `@method` its
// method, headers the forwarded ones); the Ed25519 check is node:crypto's.

export interface SignedRequest {
  host: string;
  path: string;
  method?: string;
  /** When the site served the request (the line's timestamp). */
  occurredAt: string;
  signed: { signature: string; signatureInput: string; signatureAgent: string };
}

export interface SignatureVerifier {
  /** `verified` for a valid, current signature by a stored key of the Signature-Agent's directory. */
  verify(request: SignedRequest): Promise<'verified' | 'unverified'>;
}

/** Clocks differ: a signature created up to a minute after the logged time is still current. */
const CLOCK_SKEW_MS = 60_000;

export function createSignatureVerifier(directories: { origin: string; keys: DirectoryKey[] }[]): SignatureVerifier {
  const keysByOrigin = new Map<string, Map<string, KeyObject>>();
  for (const { origin, keys } of directories) {
    keysByOrigin.set(origin, new Map(keys.map((k) => [k.keyid, createPublicKey({ key: k.jwk, format: 'jwk' })])));
  }
  return {
    async verify({ host, path, method, occurredAt, signed }) {
      const origin = signatureAgentOrigin(signed.signatureAgent);
      const keys = origin ? keysByOrigin.get(origin) : undefined;
      if (!keys) return 'unverified';
      const at = Date.parse(occurredAt);
      const request = {
        method: method ?? 'GET',
        url: `https://${host}${path}`,
        headers: {
          signature: signed.signature,
          'signature-input': signed.signatureInput,
          'signature-agent': signed.signatureAgent,
        },
      };
      try {
        // http-message-sig also refuses a signature expired by now: a line must reach the gateway
        // while its signature lives (the drafts' agents sign for minutes; shippers send in seconds).
        await verifyMessage(request, (data, signature, params) => {
          const key = typeof params.keyid === 'string' ? keys.get(params.keyid) : undefined;
          const created = params.created instanceof Date ? params.created.getTime() : Number.NaN;
          const expires = params.expires instanceof Date ? params.expires.getTime() : Number.NaN;
          const current = created <= at + CLOCK_SKEW_MS && expires >= at;
          if (params.tag !== 'web-bot-auth' || !key || !current)
            throw new Error('not a current web-bot-auth signature');
          if (params.alg !== undefined && params.alg !== 'ed25519') throw new Error('not ed25519');
          if (!verifyEd25519(null, Buffer.from(data), key, signature)) throw new Error('invalid signature');
        });
        return 'verified';
      } catch {
        return 'unverified';
      }
    },
  };
}

/** Verifies nothing: before the key directories are loaded, or without any. */
export const noSignatureKeys = createSignatureVerifier([]);
