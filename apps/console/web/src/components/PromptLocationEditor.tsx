import type { FormEvent } from 'react';
import { AudienceLocationFields, locationOfForm } from './AudienceLocationFields.tsx';

// A prompt's own country and language, folded under its row: owners and admins set them where a
// prompt's buyers differ from the property's (a German prompt of a UK brand), or clear both to
// follow the property again.

export function PromptLocationEditor(props: {
  prompt: { id: string; text: string; country: string | null; language: string | null };
  onSave: (patch: { country: string | null; language: string | null }) => Promise<void>;
}) {
  const { prompt } = props;
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void props.onSave(locationOfForm(new FormData(event.currentTarget)));
  };
  return (
    <details className="prompt-location">
      <summary>Where</summary>
      <form
        aria-label={`Where “${prompt.text}” is asked`}
        className="inline"
        key={`${prompt.country}/${prompt.language}`}
        onSubmit={save}
      >
        <AudienceLocationFields country={prompt.country} language={prompt.language} unset="The property’s" />
        <button type="submit" className="small">
          Save
        </button>
      </form>
    </details>
  );
}
