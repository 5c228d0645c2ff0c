// The inspector's page: the clock bar, the panes' navigation, and the pane the address names. Built
// by scripts/build.mjs (esbuild, Preact: about 4 KB of library for components and hooks, where
// React would be ten times that) into dist/inspector/, served by `vmv sim serve` at /.
import { options, render, type VNode } from 'preact';
import { visible } from '../src/visible.js';
import { Activity } from './activity';
import { ClockBar } from './clock';
import { CallView, Conversations, EmailView } from './conversations';
import { connect } from './live';
import { Money } from './money';
import { Assistant, PlaceCall, Videos, Webhooks } from './more';
import { onLink, useRoute } from './router';
import './style.css';

/**
 * Every text the page draws has its control characters shown as escapes (\u001b, \u202e), as the
 * CLI shows them (src/visible.ts): a name or a body from outside cannot reorder what follows it
 * (bidi overrides) or hide in invisible characters. Done where Preact makes a text node, so it holds
 * for every pane; the data itself is untouched (a delivery's body is signed and copied as it is).
 */
const nextVNode = options.vnode;
options.vnode = (v: VNode) => {
  if (v.type === null && typeof v.props === 'string') (v as { props: unknown }).props = visible(v.props);
  nextVNode?.(v);
};

const NAV: [string, string][] = [
  ['activity', 'Activity'],
  ['conversations', 'Conversations'],
  ['place-call', 'Place a call'],
  ['videos', 'Videos'],
  ['webhooks', 'Webhooks'],
  ['money', 'Money'],
  ['assistant', 'Assistant'],
];

/** The pane the path names ('/calls/ID' → the call). */
function Pane({ route }: { route: string[] }) {
  const [pane, id] = route;
  const q = new URLSearchParams(location.search);
  switch (pane) {
    case 'conversations':
    case 'texts':
      return <Conversations id={id} />;
    case 'calls':
      return id ? <CallView id={id} /> : <Conversations />;
    case 'emails':
      return id ? <EmailView id={id} /> : <Activity />;
    case 'place-call':
      return <PlaceCall />;
    case 'videos':
      return <Videos id={id} />;
    case 'webhooks':
      return <Webhooks />;
    case 'money':
      return <Money entry={q.get('entry') ?? undefined} />;
    case 'assistant':
      return <Assistant />;
    default:
      return <Activity key={location.search} />;
  }
}

function App() {
  const route = useRoute();
  return (
    <div class="app" onClick={onLink}>
      <ClockBar />
      <nav class="panes" aria-label="Panes">
        {NAV.map(([path, label]) => (
          <a key={path} href={`/${path}`} aria-current={route[0] === path ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <main>
        <Pane route={route} />
      </main>
    </div>
  );
}

connect();
render(<App />, document.getElementById('app')!);
