/**
 * The package's entry, `import ... from 'outbox-sim'`: the rule API
 * (model/index.ts: rule sets, the catalog, `extendRules`) and the commands
 * as functions (commands.ts: `check`, `explore`, `replay`, `compare`,
 * `diff`). A rule file's own `import ... from 'outbox-sim'` is bound to the
 * rule API only (sim/rules-bundle.ts): a rule set does not run checks.
 */
export * from '../../model/index.ts';
export * from './commands.ts';
