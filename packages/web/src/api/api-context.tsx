import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { bootIdentity } from '../boot.js';
import { type Identity, saveIdentity } from './identity.js';
import { RestApi } from './rest.js';

interface ApiValue {
  api: RestApi;
  identity: Identity;
  setIdentity(next: Identity): void;
}

const ApiContext = createContext<ApiValue | null>(null);

/** Holds the person's identity and the REST client built on it. */
export function ApiProvider({ children }: { children: ReactNode }) {
  const [identity, setIdentityState] = useState<Identity>(bootIdentity);
  const current = useRef(identity);
  current.current = identity;
  const api = useMemo(() => new RestApi(() => current.current), []);
  const setIdentity = useCallback((next: Identity) => {
    saveIdentity(next);
    setIdentityState(next);
  }, []);
  const value = useMemo(() => ({ api, identity, setIdentity }), [api, identity, setIdentity]);
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

export function useApi(): ApiValue {
  const value = useContext(ApiContext);
  if (!value) throw new Error('useApi outside <ApiProvider>');
  return value;
}
