/**
 * A secret the server gives once (an API key, a webhook signing secret): shown in a read-only
 * field that takes focus and selects itself, with a Copy button and a warning that it will not be
 * shown again, until the person says they have it.
 */
import { useState } from 'react';

interface ShownOnceProps {
  /** Ties the field to its label; unique on the page. */
  id: string;
  /** What it is, e.g. "Your new API key". */
  label: string;
  value: string;
  onDone: () => void;
}

export const COPY_IT_NOW = 'Copy it now: you will not see it again.';

export function ShownOnce({ id, label, value, onDone }: ShownOnceProps) {
  const [copied, setCopied] = useState<null | 'yes' | 'no'>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };

  return (
    <div className="shown-once" role="region" aria-label={label}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <div className="shown-once__row">
          <input
            id={id}
            className="shown-once__value"
            readOnly
            value={value}
            autoFocus
            spellCheck={false}
            aria-describedby={`${id}-warning`}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="button button--small" onClick={() => void copy()}>
            Copy<span className="visually-hidden"> {label.toLowerCase()}</span>
          </button>
        </div>
        <p id={`${id}-warning`} className="shown-once__warning">
          <strong>{COPY_IT_NOW}</strong> Keep it somewhere safe, such as a password manager or your app’s secret settings.
        </p>
        <p className="muted small" role="status">
          {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'Could not copy: select the text and copy it yourself.' : ''}
        </p>
      </div>
      <div className="form-actions form-actions--start">
        <button type="button" className="button button--ghost button--small" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </div>
  );
}
