import type { TeamDetail } from './console-types.ts';

type Team = TeamDetail['team'];

const DEFAULT_DAYS = 30;

/**
 * What a team settings save changed that the pages show, in plain words: the confirmation the
 * form gives, so that a change is never silent.
 */
export function teamSavedMessage(before: Team, after: Team): string {
  const said = ['Team settings saved.'];
  const zone = after.settings.timeZone;
  if (zone !== before.settings.timeZone)
    said.push(
      zone
        ? `Times on the activity and setup pages now show in ${zone}.`
        : 'Times now show in each viewer’s own time zone.',
    );
  // Unset, the views open on 30 days: saving the form's 30 then changes nothing.
  const range = after.settings.defaultDayRange ?? DEFAULT_DAYS;
  if (range !== (before.settings.defaultDayRange ?? DEFAULT_DAYS))
    said.push(`Activity and AI answers now open on the last ${range} days.`);
  if (after.branding.logoUrl !== before.branding.logoUrl)
    said.push(after.branding.logoUrl ? 'The new logo shows in the header.' : 'The logo is gone from the header.');
  if (after.branding.displayName !== before.branding.displayName)
    said.push(
      after.branding.displayName
        ? `The header now reads ${after.branding.displayName}.`
        : 'The header no longer shows a display name.',
    );
  if (after.name !== before.name) said.push(`The team is now called ${after.name}.`);
  return said.join(' ');
}
