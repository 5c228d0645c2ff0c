// The inspector's page: the clock bar, the panes' navigation, and the pane the address names. Built
// by scripts/build.mjs (esbuild, Preact: about 4 KB of library for components and hooks, where
// React would be ten times that) into dist/inspector/, served by `vmv sim serve` at /.
import { render } from 'preact';
import { Activity } from './activity';
import { ClockBar } from './clock';
import { CallView, Conversations, EmailView } from './conversations';
import { connect } from './live';
import { Money } from './money';
import { Assistant, PlaceCall, Videos, Webhooks } from './more';
import { onLink, useRoute } from './router';
import './style.css';

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
