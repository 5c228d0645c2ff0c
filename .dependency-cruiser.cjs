// The import rules of the tree (docs/architecture.md says why), checked by `npm test` (npm run lint:deps).
// Type-only imports count: a cycle of types is still a cycle to read.
const CAPABILITIES = '(quick|numbers|calls|history|billing|webhooks|videos|schedules|assistant|control|inspector)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'store-knows-no-domain',
      comment:
        'simulator/store/ is a storage engine: it imports only itself and simulator/core/ (its errors); the composition root hands it the schema.',
      severity: 'error',
      from: { path: '^simulator/store/' },
      to: { path: '^(simulator|src|commands)/', pathNot: '^simulator/(store|core)/' },
    },
    {
      name: 'core-knows-no-capability',
      comment:
        'simulator/core/ (the request pipeline and contract) imports only itself, the store and the shared src/ helpers: it is handed its world.',
      severity: 'error',
      from: { path: '^simulator/core/' },
      to: { path: '^(simulator|commands)/', pathNot: '^simulator/(core|store)/' },
    },
    {
      name: 'capabilities-through-their-surface',
      comment:
        'A capability reaches another only through its index.ts (its written-down surface), never its internals.',
      severity: 'error',
      from: { path: `^simulator/${CAPABILITIES}/` },
      to: {
        path: `^simulator/${CAPABILITIES}/`,
        pathNot: ['^simulator/$1/', `^simulator/${CAPABILITIES}/index\\.ts$`],
      },
    },
    {
      name: 'declarations-for-the-composition-root',
      comment:
        "A capability's capability.ts (its declaration, loading its routes and machines) is read by the composition root only.",
      severity: 'error',
      from: { pathNot: '^simulator/(capabilities|world)\\.ts$' },
      to: { path: `^simulator/${CAPABILITIES}/capability\\.ts$` },
    },
    {
      name: 'cli-through-the-doors',
      comment:
        "commands/ and src/ reach the simulator through simulator/index.ts (what runs) or simulator/vocabulary.ts (the API's words); types may come from the API schemas.",
      severity: 'error',
      from: { path: '^(src|commands)/' },
      to: { path: '^simulator/', pathNot: '^simulator/(index|vocabulary)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'vocabulary-is-words',
      comment:
        'simulator/vocabulary.ts is bundled into the CLI: it re-exports constants only (no simulator code behind them).',
      severity: 'error',
      from: { path: '^simulator/vocabulary\\.ts$' },
      to: { path: '^simulator/', pathNot: '^simulator/(videos/catalog|core/world|webhooks/records)\\.ts$' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^(node_modules|dist|test)/', '\\.test\\.ts$'] },
  },
};
