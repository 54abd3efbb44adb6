// A submitted form's values as the typed bodies want them. The API validates every value again;
// these only say what a control holds.

/** A text field's value; '' when the form has no such field. */
export const fieldText = (fields: FormData, name: string): string => String(fields.get(name) ?? '');

/** A `<select>`'s value, typed as the options it was rendered with. */
export const fieldChoice = <T extends string>(fields: FormData, name: string) => fieldText(fields, name) as T;
