import { useCallback, useRef, useState } from 'react';

interface Question {
  title: string;
  body: string;
  confirm: string;
}

/**
 * A confirmation as a native modal `<dialog>`: focus moves into it and stays there, Escape
 * cancels, Enter on the focused button answers, and focus returns to what opened it. `ask`
 * resolves true only when the person confirms.
 */
export function useConfirm() {
  const ref = useRef<HTMLDialogElement>(null);
  const answer = useRef<(yes: boolean) => void>(() => undefined);
  const [question, setQuestion] = useState<Question | null>(null);

  const ask = useCallback(
    (q: Question) =>
      new Promise<boolean>((resolve) => {
        answer.current = resolve;
        setQuestion(q);
        // Shown after React has rendered the question into it.
        queueMicrotask(() => requestAnimationFrame(() => ref.current?.showModal()));
      }),
    [],
  );

  const close = (yes: boolean) => {
    ref.current?.close();
    answer.current(yes);
    answer.current = () => undefined;
  };

  const dialog = (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={() => close(false)}
      className="confirm"
    >
      <h2 id="confirm-title">{question?.title}</h2>
      <p id="confirm-body">{question?.body}</p>
      <p className="actions">
        <button type="button" className="secondary" onClick={() => close(false)}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={() => close(true)}>
          {question?.confirm}
        </button>
      </p>
    </dialog>
  );
  return { ask, dialog };
}
