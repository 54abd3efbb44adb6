import { SLUG_MAX, SLUG_MIN, SLUG_PATTERN } from '@vt/contracts/console-limits';
import type { InputHTMLAttributes } from 'react';

/** A team's URL name, held to the API's slug rules (the limits its schema is built from). */
export function SlugField(props: Pick<InputHTMLAttributes<HTMLInputElement>, 'value' | 'defaultValue' | 'onChange'>) {
  return (
    <label>
      URL name (slug){' '}
      <input
        name="slug"
        required
        minLength={SLUG_MIN}
        maxLength={SLUG_MAX}
        pattern={SLUG_PATTERN}
        title="Lower-case letters, digits and inner hyphens"
        {...props}
      />
    </label>
  );
}
