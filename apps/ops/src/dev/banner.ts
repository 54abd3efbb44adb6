import type { DevStartConfig } from '@vt/config';

export interface BannerInput {
  config: DevStartConfig;
  /** Where the notifier's email goes: the embedded catcher (caught: true) or the operator's SMTP_URL. */
  mail?: { smtpUrl: string; caught: boolean };
  migrationsApplied: string[];
  demoKey: string | null;
  /** The demo owner's (and a demo member's) console sign-in. */
  demoLogin: { email: string; memberEmail: string; password: string } | null;
  demoProperty: {
    domain: string;
    crawl: { ingestUrl: string; token: string | null };
    webhook: { url: string; signingSecret: string | null };
  } | null;
}

/** What `pnpm start` prints once every app is ready: where things are and lines to paste. */
export function printBanner({ config, demoKey, demoLogin, demoProperty, mail }: BannerInput) {
  const api = `http://localhost:${config.READ_API_PORT}`;
  const consoleUrl = `http://localhost:${config.CONSOLE_PORT}`;
  const ingest = `http://localhost:${config.INGEST_GATEWAY_PORT}`;
  const lines = [
    '',
    'AI visibility tracking is running.',
    `  read API        ${api}   (reference: ${api}/docs, OpenAPI: ${api}/openapi.json)`,
    `  console         ${consoleUrl}   (the web UI; its API under /api, reference: ${consoleUrl}/api/docs)`,
    `  ingest gateway  ${ingest}`,
    `  crawl worker    http://localhost:${config.CRAWL_WORKER_METRICS_PORT}/metrics`,
    `  lead worker     http://localhost:${config.LEAD_WORKER_METRICS_PORT}/metrics`,
    `  answer collector http://localhost:${config.ANSWER_COLLECTOR_METRICS_PORT}/metrics   (asks at ${config.COLLECT_AT_UTC} UTC on each platform with a key: OPENAI_API_KEY, PERPLEXITY_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY)`,
    `  notifier        http://localhost:${config.NOTIFIER_PORT}/metrics`,
    '',
  ];
  if (mail?.caught) {
    lines.push(
      `Mail: caught by the embedded mail catcher at ${mail.smtpUrl}, nothing is delivered.`,
      `  Read it in the console: Team → Outgoing mail (${consoleUrl}), where "Send a test email" sends one.`,
      '',
    );
  } else if (mail) {
    lines.push(`Mail: sent through ${redactedSmtp(mail.smtpUrl)} (SMTP_URL).`, '');
  }
  if (demoKey) {
    lines.push(
      `Demo API key: ${demoKey}`,
      '',
      'Read API:',
      `  curl -s -H "Authorization: Bearer ${demoKey}" "${api}/v1/responses?limit=5"`,
      `  curl -s -H "Authorization: Bearer ${demoKey}" "${api}/v1/tasks"`,
      `  curl -s -H "Authorization: Bearer ${demoKey}" "${api}/v1/visibility?limit=5"`,
      '',
    );
  }
  if (demoLogin) {
    lines.push(
      `Demo login: ${demoLogin.email} / ${demoLogin.password}   (owner; ${demoLogin.memberEmail}, same password, is a member)`,
      '',
      'Console API (sign in, then act with the session token):',
      `  TOKEN=$(curl -s -H "Content-Type: application/json" -d '{"email":"${demoLogin.email}","password":"${demoLogin.password}"}' ${consoleUrl}/api/auth/sign-in | sed 's/.*"token":"\\([^"]*\\)".*/\\1/')`,
      `  curl -s -H "Authorization: Bearer $TOKEN" ${consoleUrl}/api/me`,
      `  curl -s -H "Authorization: Bearer $TOKEN" ${consoleUrl}/api/properties`,
      '',
    );
  }
  if (demoProperty?.crawl.token) {
    const event = JSON.stringify({
      timestamp: new Date().toISOString(),
      host: demoProperty.domain,
      path: '/pricing',
      userAgent:
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
      statusCode: 200,
    });
    lines.push(
      'Crawl ingest (one NDJSON line):',
      `  echo '${event}' | curl -s -X POST -H "Authorization: Bearer ${demoProperty.crawl.token}" -H "Content-Type: application/x-ndjson" --data-binary @- ${demoProperty.crawl.ingestUrl}`,
      '',
    );
  }
  if (demoProperty?.webhook.signingSecret) {
    lines.push(
      'Lead webhook (signed with openssl):',
      `  BODY='{"contact":"ada@example.com","email":"ada@example.com","referrer":"https://chatgpt.com/"}'; TS=$(date +%s); ID=lead-$TS; \\`,
      `  SIG=$(printf '%s' "$ID.$TS.$BODY" | openssl dgst -sha256 -hmac '${demoProperty.webhook.signingSecret}' | sed 's/^.* //'); \\`,
      `  curl -s -X POST -H "Content-Type: application/json" -H "x-webhook-id: $ID" -H "x-webhook-timestamp: $TS" -H "x-webhook-signature: $SIG" --data-binary "$BODY" ${demoProperty.webhook.url}`,
      '',
    );
  }
  lines.push('Operator CLI: pnpm ops --help    Stop: Ctrl-C', '');
  process.stdout.write(lines.join('\n'));
}

/** An SMTP URL without its credentials. */
function redactedSmtp(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (url.username || url.password) {
    url.username = '***';
    url.password = '';
  }
  return url.toString().replace(/\/$/, '');
}
