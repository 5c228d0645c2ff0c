// How the page talks to the simulator: the /_sim control plane directly, the /v1 routes through
// /_sim/inspector/v1 (the server sends them as the seeded workspace's key, which the page never
// holds), and what a failed request says.
import { useEffect, useState } from 'preact/hooks';
import { changed, useChanges } from './live';

/** A route's error envelope, as the page shows it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Where the page sends a path of the API (a /v1 one goes through the inspector's way in). */
export const href = (path: string) => (path.startsWith('/v1/') ? `/_sim/inspector${path}` : path);

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: body === undefined ? {} : { 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(href(path), init);
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, json?.error?.message ?? `${res.status} ${res.statusText}`);
  return json as T;
}

export const get = <T>(path: string) => call<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => call<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => call<T>('PATCH', path, body);

/** A list's page: its items. */
export interface List<T> {
  data: T[];
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
}

/**
 * Data the page shows, read by `load`, and read again whenever a change touches one of `units`
 * (the world's top-level values: 'texts', 'calls', 'meta'…) or `deps` change.
 */
export function useLoad<T>(load: () => Promise<T>, units: string[], deps: unknown[] = []): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null });
  const version = useChanges((c) => changed(c, units));
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ data, error: null }),
      (e: Error) => live && setState((s) => ({ data: s.data, error: e.message })),
    );
    return () => {
      live = false;
    };
  }, [version, ...deps]);
  return state;
}
