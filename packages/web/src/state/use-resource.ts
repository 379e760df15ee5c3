import { useEffect, useState } from 'react';

export interface Resource<T> {
  data: T | null;
  error: string | null;
}

/**
 * Loads `load()` again whenever `key` changes (the caller folds into it
 * everything `load` depends on); keeps the previous data while reloading.
 */
export function useResource<T>(load: () => Promise<T>, key: string): Resource<T> {
  const [state, setState] = useState<Resource<T>>({ data: null, error: null });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for everything `load` reads
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ data, error: null }),
      (err: Error) => current && setState((s) => ({ data: s.data, error: err.message })),
    );
    return () => {
      current = false;
    };
  }, [key]);
  return state;
}
