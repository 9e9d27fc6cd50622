import { useEffect, useState } from 'react';
import { getJson } from '../api/api-client';

/** GETs `path` whenever it or `refresh` changes; keeps the last answer while reloading. */
export function useJson<T>(path: string, refresh: unknown): { data: T | undefined; error: unknown } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const controller = new AbortController();
    getJson<T>(path, controller.signal).then(
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
