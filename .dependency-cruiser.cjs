/**
 * The import rules of src/ (ARCHITECTURE.md explains them): `npm run lint` runs this with
 * dependency-cruiser. The layers below are the one source of the order: a folder may import only
 * folders of lower layers (never its own layer's siblings), and only through their index.ts.
 * The embedded chain (src/localnet) is fenced apart on both sides.
 */

/** Layers from the bottom up; each entry is a folder under src/. */
const LAYERS = [
  ['constants'],
  ['errors'],
  ['config', 'logging', 'metrics', 'httpErrors'],
  ['cells'],
  ['tl', 'adnl', 'tlb'],
  ['params'],
  ['converters', 'cache', 'auth'],
  ['tvm', 'indexdb', 'intake', 'actions'],
  ['proofs'],
  ['liteclient', 'localnet'],
  ['chain'],
  ['indexer', 'emulate'],
  ['methods'],
  ['v3'],
  ['streaming'],
  ['routes'],
  ['docs'],
  ['monitoring'],
];

/** What the embedded chain may import: wire formats, cells/TL-B, the TVM emulator, errors. */
/** The bridge's errors are not among them: the chain throws its own (ControlRefusedError, LiteProtocolError), mapped at its routes. */
const LOCALNET_MAY_IMPORT = ['constants', 'cells', 'tl', 'adnl', 'tlb', 'tvm'];
/** The folders that write HTTP answers: the only ones that map domain errors to statuses (src/httpErrors). */
const HTTP_EDGE = ['auth', 'intake', 'streaming', 'routes', 'docs', 'monitoring'];
/** Who may import the embedded chain besides the composition root (src/*.ts): its own routes. */
const LOCALNET_IMPORTED_BY = ['routes'];

const folderPath = (folders) => `^src/(${folders.join('|')})/`;

/**
 * The one root file a folder may load: the worker threads' entry files (plain CommonJS, each
 * beside its thread's code) call src/threadModule.js to load their thread's module as TypeScript
 * or compiled JavaScript. It imports nothing of the project, so it adds no edge to any layer.
 */
const THREAD_LOADER = '^src/threadModule\\.js$';

const layerRules = LAYERS.flatMap((layer, rank) => {
  const below = LAYERS.slice(0, rank).flat();
  return layer.map((folder) => ({
    name: `layer-${folder}`,
    comment: `src/${folder} imports only lower layers: ${below.join(', ') || '(nothing: a leaf)'} (ARCHITECTURE.md)`,
    severity: 'error',
    from: { path: `^src/${folder}/` },
    to: {
      path: '^src/',
      pathNot: below.length > 0 ? [`^src/${folder}/`, folderPath(below), THREAD_LOADER] : [`^src/${folder}/`, THREAD_LOADER],
    },
  }));
});

const known = LAYERS.flat();

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle (type-only imports included): split along dependencies, shared types in a leaf module.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'localnet-isolated',
      comment: `the embedded chain imports only ${LOCALNET_MAY_IMPORT.join(', ')}`,
      severity: 'error',
      from: { path: '^src/localnet/' },
      to: { path: '^src/', pathNot: ['^src/localnet/', folderPath(LOCALNET_MAY_IMPORT), THREAD_LOADER] },
    },
    {
      name: 'localnet-imported-by-root-and-its-routes',
      comment: `only the composition root (src/*.ts) and ${LOCALNET_IMPORTED_BY.join(', ')} import the embedded chain`,
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: ['^src/localnet/', folderPath(LOCALNET_IMPORTED_BY)] },
      to: { path: '^src/localnet/' },
    },
    {
      name: 'http-errors-at-the-edge',
      comment: `domain errors carry no HTTP status: only ${HTTP_EDGE.join(', ')} and the root map them (src/httpErrors)`,
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: ['^src/httpErrors/', folderPath(HTTP_EDGE)] },
      to: { path: '^src/httpErrors/' },
    },
    {
      name: 'nobody-imports-the-root',
      comment: 'src/*.ts is the composition root: folders never import it',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'folder-is-known',
      comment: 'every folder of src/ has its place in LAYERS (.dependency-cruiser.cjs) and ARCHITECTURE.md',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+/', pathNot: folderPath(known) },
    },
    {
      name: 'through-the-index',
      comment: "another folder is imported through its public index.ts, never past it",
      severity: 'error',
      // A worker thread's entry (tvm/worker.ts) is the root of its own program: it loads only the
      // modules its tasks need, as the composition root may.
      from: { path: '^src/([^/]+)/', pathNot: '^src/tvm/worker\\.ts$' },
      to: { path: '^src/[^/]+/(?!index\\.ts$).+', pathNot: '^src/$1/' },
    },
    {
      name: 'root-through-the-index',
      comment: "the composition root imports folders through their public index.ts",
      severity: 'error',
      // One exception: startup.ts loads the TVM pool module alone, so the threads start before the
      // tvm index loads @ton/core and the emulator (the start's first 0.1 s).
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/[^/]+/(?!index\\.ts$).+', pathNot: '^src/tvm/pool\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
