import type { Me } from '../console-types.ts';

/**
 * The team's logo and display name, set under Team settings, at the head of every page. The URL
 * is an https one (the branding schema refuses anything else, and it is checked again here); the
 * console's content security policy lets https images, and nothing else, in.
 */
export function TeamLogo({ me, teamId }: { me: Me | null; teamId: string }) {
  const team = me?.teams.find((t) => t.id === teamId);
  if (!team) return null;
  const { logoUrl, displayName } = team.branding;
  const name = displayName ?? team.name;
  const safe = logoUrl && /^https:\/\//i.test(logoUrl) ? logoUrl : null;
  if (!safe && !displayName) return null;
  return (
    <span className="team-brand" data-testid="team-brand">
      {safe && <img src={safe} alt={`${name} logo`} height={28} data-testid="team-logo" />}
      {displayName && <span>{displayName}</span>}
    </span>
  );
}

/** The team's accent colour (a #rrggbb the branding schema checked, checked again), for the header's rule. */
export function teamAccent(me: Me | null, teamId: string): string | undefined {
  const accent = me?.teams.find((t) => t.id === teamId)?.branding.accentColor;
  return accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? accent : undefined;
}
