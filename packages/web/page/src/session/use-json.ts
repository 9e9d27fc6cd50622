import { useEffect, useState } from 'react';
import { getJson } from '../api/api-client';
import { takePrefetched } from '../api/prefetch';

/**
 * GETs `path` whenever it or `refresh` changes (the first time taking the answer the page
 * prefetched, if it did); keeps the last answer while reloading.
 */
export function useJson<T>(path: string, refresh: unknown): { data: T | undefined; error: unknown } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const controller = new AbortController();
    (takePrefetched<T>(path) ?? getJson<T>(path, controller.signal)).then(
      (answer) => {
        setData(answer);
        setError(undefined);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(failure);
      },
    );
    return () => controller.abort();
  }, [path, refresh]);
  return { data, error };
}
