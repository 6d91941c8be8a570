/**
 * Which names are rule files: one list for every place that asks (the
 * loader, telling a path from a catalog name; the supervisor's main thread,
 * bundling the rule files of a command line as the command starts). A
 * module of its own, with no imports, so that the main thread asks without
 * loading the bundler or the model.
 */

/** The extensions a rule file may have. */
const RULE_FILE_EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx'] as const;

/** The extensions a rule file may have, as the loader's messages list them. */
export const RULE_FILE_EXTENSIONS_TEXT = RULE_FILE_EXTENSIONS.join(', ');

/** Whether `name` ends as a rule file does. */
export const isRuleFileName = (name: string): boolean => RULE_FILE_EXTENSIONS.some((ext) => name.endsWith(ext));
