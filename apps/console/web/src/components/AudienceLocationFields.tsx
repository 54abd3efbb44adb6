import { COUNTRY_CHOICES } from '../location-words.ts';

// The country and language controls of the property's "Where your buyers are" form and of a
// prompt's own: empty means "not set" (the platform's default, or for a prompt its property's).
// The API validates both again (ISO 3166-1 alpha-2, BCP 47) and answers 400 with what is wrong.

export function AudienceLocationFields(props: {
  country: string | null;
  language: string | null;
  /** What an empty field falls back to, in words. */
  unset: string;
}) {
  return (
    <>
      <label>
        Country{' '}
        <select name="country" defaultValue={props.country ?? ''}>
          <option value="">{props.unset}</option>
          {COUNTRY_CHOICES.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name} ({c.code})
            </option>
          ))}
        </select>
      </label>
      <label>
        Language{' '}
        <input name="language" defaultValue={props.language ?? ''} placeholder="en, de, pt-BR" maxLength={35} />
      </label>
    </>
  );
}

/** The form's two fields as the API's patch: an empty field clears (null). */
export const locationOfForm = (fields: FormData) => ({
  country: String(fields.get('country') ?? '').trim() || null,
  language: String(fields.get('language') ?? '').trim() || null,
});
