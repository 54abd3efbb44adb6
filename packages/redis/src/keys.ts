/**
 * The name of a deployment's own Redis key: its prefix (`QUEUE_PREFIX`, a {hash tag} such as
 * `{vt}`), then the parts, joined by `:`. All such keys share one Redis Cluster slot: for what
 * is written rarely (a property's collect-now mark, say). Keys written per request or per
 * property at volume take `taggedRedisKey` instead, so they spread over the cluster.
 */
export function redisKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].join(':');
}

/**
 * A key with a hash tag of its own: the deployment's prefix with `tag` inside the braces
 * (`{vt}` and property `p1` → `{vt:p1}:…`). Keys of different tags hash to different Redis
 * Cluster slots, so named-batch claims, webhook duplicates and rate limits spread over every
 * master instead of crowding the one slot of `{vt}`; keys of one tag stay together. The tag
 * stays inside the prefix's namespace (a scan for `{vt*` finds it), so deployments and test
 * runs sharing a Redis never meet.
 */
export function taggedRedisKey(prefix: string, tag: string, ...parts: string[]): string {
  return [withinTag(prefix, tag), ...parts].join(':');
}

/** `{vt}` and `x` → `{vt:x}`: a hash tag of its own inside the deployment's namespace. */
export function withinTag(prefix: string, tag: string): string {
  if (!prefix.startsWith('{') || !prefix.endsWith('}')) throw new Error(`not a {hash tag} prefix: ${prefix}`);
  // A brace inside would end the tag early and put every such key back on one slot.
  if (/[{}]/.test(tag)) throw new Error('a key tag holds no braces');
  return `${prefix.slice(0, -1)}:${tag}}`;
}
