import { useState } from 'react';

export interface Action {
  /** True while the action runs (disable its button). */
  busy: boolean;
  /** The last run's failure, shown beside the button; cleared when it runs again. */
  error: string | null;
  run(): void;
}

/**
 * A button's action against the API: one run at a time, its failure kept to
 * show. The resolve, consume, feedback and "Show full" buttons all work so.
 */
export function useAction(action: () => Promise<void>): Action {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const run = () => {
    setState({ busy: true, error: null });
    action().then(
      () => setState({ busy: false, error: null }),
      (error: Error) => setState({ busy: false, error: error.message }),
    );
  };
  return { ...state, run };
}
