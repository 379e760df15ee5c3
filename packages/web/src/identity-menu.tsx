import { useId, useState } from 'react';
import { useApi } from './api/api-context.js';

/** Lets the person name themselves (shown on their feedback) and give a server token; kept in localStorage. */
export function IdentityMenu() {
  const { identity, setIdentity } = useApi();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(identity.name);
  const [token, setToken] = useState(identity.token);
  const nameId = useId();
  const tokenId = useId();
  return (
    <div className="identity">
      <button type="button" className="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {identity.name ? `You: ${identity.name}` : 'Set your name'}
      </button>
      {open && (
        <form
          className="identity-form"
          aria-label="Your identity"
          onSubmit={(e) => {
            e.preventDefault();
            setIdentity({ ...identity, name: name.trim(), token: token.trim() });
            setOpen(false);
          }}
        >
          <label htmlFor={nameId}>Display name</label>
          <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Ada" maxLength={200} />
          <label htmlFor={tokenId}>Server token (if the hub requires one)</label>
          <input id={tokenId} type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
          <p className="muted small">Your actor id: {identity.id}</p>
          <button type="submit" className="button primary">
            Save
          </button>
        </form>
      )}
    </div>
  );
}
