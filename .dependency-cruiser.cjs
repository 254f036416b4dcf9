// The boundaries of the code base (docs/architecture.md, "Rules the linter keeps"). `npm test` runs this first
// (scripts/run.mjs lint), so a change that crosses a boundary fails before any test runs.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle makes load order matter and hides which module owns what.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'lambdas/core is the domain: plain TypeScript, tested without I/O. It never reaches adapters, handlers, wiring, CDK, the local stack or an AWS SDK.',
      from: { path: '^lambdas/core/' },
      to: {
        path: [
          '^lambdas/(adapters|http|wiring|events|workflow|realtime|uploads|media|support)/',
          '^lib/',
          '^local/',
          '^test/',
          '^web/',
          '^stream-task/',
          '^node_modules/(@aws-sdk|aws-cdk-lib|@aws-lambda-powertools|@middy)/',
        ],
      },
    },
    {
      name: 'contracts-are-data',
      severity: 'error',
      comment:
        'lambdas/contract is what crosses a boundary (routes, tables, events, the task spec): data and schemas only, read by CDK, the local stack, the API, the stream task and the web app.',
      from: { path: '^lambdas/contract/' },
      to: {
        path: [
          '^lambdas/(adapters|http|wiring|events|workflow|realtime|uploads|media|support)/',
          '^lib/',
          '^local/',
          '^test/',
          '^web/',
          '^stream-task/',
          '^node_modules/(@aws-sdk|aws-cdk-lib|@aws-lambda-powertools|@middy)/',
        ],
      },
    },
    {
      name: 'contracts-never-run-domain-code',
      severity: 'error',
      comment:
        "A contract is read by the browser and the stream task as well as the server: it may name the domain's vocabulary as types (see the next rule), never import domain code that runs.",
      from: { path: '^lambdas/contract/' },
      to: { path: '^lambdas/core/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'contracts-name-only-the-domains-vocabulary',
      severity: 'error',
      comment:
        "The API's response types (lambdas/contract/api) use the catalogues' own vocabulary (error keys, plans, output profiles, languages, weekdays), which the domain defines once; nothing else of lambdas/core, so the domain can build on the contract without a cycle.",
      from: { path: '^lambdas/contract/' },
      to: { path: '^lambdas/core/', pathNot: '^lambdas/core/(errors|plans|media-spec|languages|wall-clock)\\.ts$' },
    },
    {
      name: 'production-never-reaches-tests-or-the-local-stack',
      severity: 'error',
      comment: 'What is deployed (lambdas, the stream task, the CDK app) never imports test helpers or the local stack; stand-ins live in local/.',
      from: { path: '^(lambdas|stream-task/src|lib)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: ['^test/', '^local/', '^bench/'] },
    },
    {
      name: 'handlers-compose-nothing',
      severity: 'error',
      comment:
        'Handlers parse, authorize, call the domain and map the result; the stores and clients they use come from the composition root (lambdas/wiring).',
      from: { path: '^lambdas/(http|events|workflow|realtime)/', pathNot: '\\.test\\.tsx?$' },
      // Logging, metrics and tracing (Powertools) and the origin check are middleware every handler wears.
      to: { path: '^lambdas/adapters/', pathNot: '^lambdas/adapters/(observability|logger|metrics|origin-verify)\\.ts$' },
    },
    {
      name: 'adapters-are-leaves',
      severity: 'error',
      comment:
        "An adapter implements one port with one technology; composing adapters into contexts is lambdas/wiring's job, and handlers call adapters only through it.",
      from: { path: '^lambdas/adapters/' },
      to: { path: '^lambdas/(wiring|http|events|workflow|realtime|uploads)/' },
    },
    {
      name: 'web-reaches-the-server-only-over-http',
      severity: 'error',
      comment:
        'The web app shares with the server what crosses the boundary (lambdas/contract) and the pure domain (lambdas/core: the plan table, the error catalogue, the password, schedule and platform rules, the response types; the domain-is-pure rule keeps it free of I/O), and nothing else: no adapter, handler, wiring, CDK or local stack code reaches the browser.',
      from: { path: '^web/src/' },
      to: { path: ['^lambdas/', '^lib/', '^local/', '^stream-task/'], pathNot: ['^lambdas/contract/', '^lambdas/core/'] },
    },
    {
      name: 'web-reads-responses-from-the-contract',
      severity: 'error',
      comment:
        "The API's response types are lambdas/contract/api; of lambdas/core the web app runs only the shared pure rules (errors, plans, output profiles, weekdays, platform fit, costs, the password policy, thumbnail size, quality changes). Its tests may check against the server's own functions.",
      from: { path: '^web/src/', pathNot: '\\.test\\.tsx?$' },
      to: {
        path: '^lambdas/core/',
        pathNot:
          '^lambdas/core/(errors|plans|media-spec|languages|wall-clock|costs/model|channels/platform-fit|accounts/passwords|streams/thumbnail|media/videos)\\.ts$',
      },
    },
    {
      name: 'no-cross-feature-imports',
      severity: 'error',
      comment: 'A web feature (features/<name>/{api,components,hooks}) uses shared code and its own, never another feature: composition happens in app/.',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'stream-task-stands-alone',
      severity: 'error',
      comment: 'The stream task is its own bundle in its own container: it shares contracts and the pure domain, never server code.',
      from: { path: '^stream-task/src/', pathNot: '\\.test\\.tsx?$' },
      to: { path: ['^lambdas/', '^lib/', '^local/'], pathNot: ['^lambdas/contract/', '^lambdas/core/'] },
    },
    {
      name: 'no-unresolvable-imports',
      severity: 'error',
      comment: "Every import resolves ('aws-lambda' is types only, from @types/aws-lambda).",
      from: {},
      to: { couldNotResolve: true, pathNot: '^aws-lambda$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|cdk\\.out|\\.build|build|\\.react-router)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
