// The page's address: each pane and item is a path (/emails/ID, /calls/ID…), so a link can be
// shared, reloaded or opened by a test; moving between them keeps the page (history.pushState).
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

export function navigate(path: string): void {
  if (path === location.pathname + location.search) return;
  history.pushState(null, '', path);
  for (const fn of listeners) fn();
}

window.addEventListener('popstate', () => {
  for (const fn of listeners) fn();
});

/** The path's segments ('/calls/abc' → ['calls', 'abc']), '/' as ['activity']. */
export function useRoute(): string[] {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const fn = () => setPath(location.pathname);
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }, []);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return parts.length ? parts : ['activity'];
}

/** A link inside the page: followed without reloading it (a modified click opens a tab as usual). */
export function onLink(e: MouseEvent): void {
  const a = (e.target as Element).closest('a');
  if (!a || a.origin !== location.origin || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.target || a.hasAttribute('download')) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
}
